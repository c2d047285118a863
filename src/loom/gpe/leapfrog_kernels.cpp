#include "loom/gpe/leapfrog_kernels.hpp"

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::gpe {

std::string_view to_string(LeapfrogKernel k) {
  switch (k) {
    case LeapfrogKernel::plain:
      return "plain";
    case LeapfrogKernel::tuned:
      return "tuned";
    case LeapfrogKernel::shared:
      return "shared";
    case LeapfrogKernel::soa:
      return "soa";
    case LeapfrogKernel::march:
      return "march";
  }
  return "?";
}

LeapfrogKernel parse_leapfrog_kernel(std::string_view text, std::string_view key) {
  for (auto k : {LeapfrogKernel::plain, LeapfrogKernel::tuned, LeapfrogKernel::shared, LeapfrogKernel::soa,
                 LeapfrogKernel::march})
    if (to_string(k) == text) {
      if (!runs_on_cpu(k) && !cuda::built())
        throw UsageError(std::string(key) + " = \"" + std::string(text) +
                         "\": needs a CUDA build (allowed: plain, soa)");
      return k;
    }
  throw UsageError(std::string(key) + " = \"" + std::string(text) +
                   "\": expected one of plain, tuned, shared, soa, march");
}

std::vector<LeapfrogKernel> leapfrog_kernels(core::Backend backend) {
  if (backend == core::Backend::cuda)
    return {LeapfrogKernel::plain, LeapfrogKernel::tuned, LeapfrogKernel::shared, LeapfrogKernel::soa,
            LeapfrogKernel::march};
  return {LeapfrogKernel::plain, LeapfrogKernel::soa};
}

LeapfrogKernel default_leapfrog_kernel(core::Backend backend, int cells_per_structure) {
  if (backend != core::Backend::cuda) return LeapfrogKernel::soa;
  return cells_per_structure <= 12 ? LeapfrogKernel::march : LeapfrogKernel::soa;
}

SoaTuning default_soa_tuning(int cells_per_structure, Index dof) {
  const bool ordered = dof >= 50'000'000;
  if (cells_per_structure >= 136) return {16, 1, false, ordered};  // C15
  if (cells_per_structure <= 12) return {0, 2, false, ordered};    // cubic, FCC, BCC
  return {16, 2, false, ordered};                                  // A15, Z
}

MarchTiling default_march_tiling(int cells_per_structure) {
  // From the H200 sweeps of 2026-12-01 (docs/performance.md): BCC and FCC 8 x 8 tiles (BCC 80% of copy at 2.4e8
  // DOF; 16 x 4 77%, 16 x 8 71%), cubic 32 x 16 (91% at 1e8). The grids of larger m_s take tiles of 4 x 4 (A15),
  // 3 x 3 (Z) and 3 x 2 (C15), whose rings of five layers fit one block per SM; there the halos are 17-23% of the
  // tile and the march kernel is slower than soa (A15 53 against 63 G DOF/s, C15 47 against 63). Segments of layers
  // balanced for the device's resident blocks (balanced_segment_layers); they were 64 layers before.
  switch (cells_per_structure) {
    case 1:
      return {32, 16, 0};
    case 12:
      return {8, 8, 0};
    case 46:
      return {4, 4, 0};
    case 80:
      return {3, 3, 0};
    default:
      return {3, 2, 0};
  }
}

std::vector<std::int32_t> flat_neighbour_offsets(const dec::Stencil& stencil, const dec::StructureLattice& lattice) {
  const dec::StencilView v = stencil.view(core::Where::host);
  std::vector<std::int32_t> out(static_cast<std::size_t>(stencil.entry_count()));
  for (int c = 0; c < v.cells; ++c)
    for (int f = v.first[c]; f < v.first[c + 1]; ++f) {
      const dec::StencilEntry& e = v.entries[f];
      const long long offset =
          (long long)(e.neighbour - c) +
          (long long)lattice.cells * (e.dx + (long long)lattice.nx * (e.dy + (long long)lattice.ny * e.dz));
      LOOM_REQUIRE(offset > INT32_MIN && offset < INT32_MAX, "flat_neighbour_offsets: lattice too large for 32 bits");
      out[static_cast<std::size_t>(f)] = static_cast<std::int32_t>(offset);
    }
  return out;
}

#if !defined(LOOM_HAVE_CUDA)
void leapfrog_step_cuda(LeapfrogKernel, const Hamiltonian&, const std::int32_t*, const Complex*, Complex*, double,
                        LayerRange, void*) {
  throw Error("leapfrog_step_cuda: this loom was built without CUDA");
}
void leapfrog_step_cuda_soa(const SoaStencilView&, const Hamiltonian&, const Complex*, Complex*, double, LayerRange,
                            void*, SoaTuning) {
  throw Error("leapfrog_step_cuda_soa: this loom was built without CUDA");
}
void leapfrog_step_cuda_march(const SoaStencilView&, const MarchPlan&, const Hamiltonian&, const Complex*, Complex*,
                              double, LayerRange, void*) {
  throw Error("leapfrog_step_cuda_march: this loom was built without CUDA");
}
#endif

}  // namespace loom::gpe
