#include "loom/hit/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::hit {
namespace {

constexpr double gib = double(1 << 30);

}  // namespace

MemoryEstimate estimate_memory(const HitConfig& c, int ranks) {
  const SpectralGrid g = c.grid;
  const double n = double(g.n), half = double(g.half());
  // The widest slab: blocks of ceil(n / ranks) planes; rows padded to 2 half doubles under FFTW's MPI transforms.
  const bool alltoall = ranks > 1 && (c.backend == core::Backend::cuda || c.solver.slabs == SlabTransform::alltoall);
  const double planes = ranks > 1 ? std::ceil(n / ranks) : n;
  const double modes = half * n * planes, points = (ranks > 1 && !alltoall ? 2 * half : n) * n * planes;
  const double mode_bytes = modes * 16, point_bytes = points * 8;
  const bool phase_shift = c.solver.dealiasing == Dealiasing::phase_shift;
  // u, w, acc, the phase-shift partial and 6 spectral work components; 6 grid components; with kept fields their 6
  // components, and no w when the stages are fused (solver.hpp).
  const double kept = writes_kept_fields(c.backend, c.solver, ranks) ? 6 : 0;
  const double fused = fuses_stages(c.backend, c.solver, ranks) ? 3 : 0;
  const double solver = (9 + (phase_shift ? 3 : 0) + 6 + kept - fused) * mode_bytes + 6 * point_bytes;
  // cuFFT's work area, about one batch of 6 components; FFTW_MEASURE plans on scratch arrays of the largest batch
  // (FFTW_ESTIMATE never touches its scratch, so its pages are never used).
  double transforms = 0;
  if (c.backend == core::Backend::cuda) transforms = 6 * mode_bytes;
  // fft.callbacks = on: three more plans (6 inverse, 2 and 1 forward components), each with its work area.
  if (c.backend == core::Backend::cuda && c.solver.callbacks && ranks == 1) transforms += 9 * mode_bytes;
  // fft.pruned: the pruned plans' shared work area, at most about the plain plans'.
  if (c.backend == core::Backend::cuda && uses_pruned_transforms(c.backend, c.solver, ranks)) transforms += 6 * mode_bytes;
  if (c.backend == core::Backend::cpu && c.solver.planning == FftPlanning::measure)
    transforms = 6 * (mode_bytes + point_bytes) + kept * mode_bytes;  // the pruned z pass's kept input too
  // FFTW's pruned passes (strided batches) buffer their lines: measured 1.5 mode components beyond the arrays above
  // (peak RSS at 128^3, 2 threads, the tenth session).
  if (c.backend == core::Backend::cpu && uses_pruned_transforms(c.backend, c.solver, ranks))
    transforms += 1.5 * mode_bytes;
  // The transposes by MPI_Alltoall: two exchange buffers of 6 components (slab_exchange.hpp), and on the GPU
  // one component of each staged through pinned host memory.
  const double exchange_bytes = alltoall ? double(ranks) * planes * planes * half * 16 : 0;
  transforms += 12 * exchange_bytes;
  // The initial field: the random field's noise and modes, a velocity (and a file's copy); on several ranks the
  // analytic fields are built on each rank's slab, and a file or checkpoint is read a rank's slab at a time (its
  // interleaved values and the slab; a checkpoint's checksum in pieces of 2^22 values).
  const double whole_points = n * n * n * 8, whole_modes = half * n * n * 16;
  const double field_points = ranks > 1 ? point_bytes : whole_points;
  const double field_modes = ranks > 1 ? mode_bytes : whole_modes;
  double initial = 3 * field_points;
  if (c.initial.type == InitialType::random) initial = 3 * field_points + 3 * field_modes;
  if (c.initial.type == InitialType::file) initial = 6 * field_points;
  if (c.initial.type == InitialType::checkpoint) initial = 6 * field_modes + 8.0 * double(1 << 22);
  // Rank 0's outputs: a checkpoint gathers the 3 components of the modes; a snapshot receives a plane of 7 values a
  // point from each rank at a time (and builds its own).
  double outputs = 3 * whole_modes;
  if (c.output.fields) outputs = std::max(outputs, (double(ranks) + 1) * 7 * n * n * 8);
  MemoryEstimate e;
  if (c.backend == core::Backend::cuda) {
    e.device_bytes = solver + transforms;
    // Host copies of modes and fields, and the pinned staging of the exchange.
    e.host_bytes = 3 * mode_bytes + 6 * point_bytes + 2 * exchange_bytes + std::max(initial, outputs);
  } else {
    e.host_bytes = solver + transforms + std::max(initial, outputs);
  }
  return e;
}

void check_memory(const HitConfig& c, int ranks, int ranks_per_node) {
  const MemoryEstimate e = estimate_memory(c, ranks);
  const double host = core::available_host_bytes() / std::max(ranks_per_node, 1);
  auto refuse = [&](double need, double have, const char* where) {
    return UsageError(fmt::format("grid.n = {}: needs {:.1f} GiB of {} memory per rank{}, has {:.1f} GiB; use a "
                                  "smaller grid.n{}",
                                  c.grid.n, need / gib, where, ranks > 1 ? fmt::format(" on {} ranks", ranks) : "",
                                  have / gib, c.backend == core::Backend::cuda ? " or more GPUs" : " or more nodes"));
  };
  if (host > 0 && e.host_bytes > host) throw refuse(e.host_bytes, host, "host");
  if (c.backend == core::Backend::cuda) {
    // The ranks of a node share its GPUs in turn (comm/rank_device.hpp).
    const int devices = std::max(cuda::device_count(), 1);
    const int sharing = (std::max(ranks_per_node, 1) + devices - 1) / devices;
    const double device = core::available_device_bytes() / sharing;
    if (e.device_bytes > device) throw refuse(e.device_bytes, device, "device");
  }
}

}  // namespace loom::hit
