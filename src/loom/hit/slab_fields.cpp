#include "loom/hit/slab_fields.hpp"

#include <algorithm>
#include <span>

#include "loom/core/error.hpp"

namespace loom::hit {

core::Array<Complex> restrict_modes(const SlabLayout& L, const core::Array<Complex>& global) {
  LOOM_REQUIRE(global.size() == 3 * std::size_t(L.grid.modes()), "hit::restrict_modes: 3 grid.modes() values");
  core::Array<Complex> local(3 * std::size_t(L.mode_stride));
  const Complex* in = global.read(core::Where::host);
  Complex* out = local.write(core::Where::host);
  std::fill(out, out + local.size(), Complex{});
  for (Index c = 0; c < 3; ++c)
    for (Index m = 0; m < L.modes(); ++m) out[c * L.mode_stride + m] = in[c * L.grid.modes() + L.global_mode(m)];
  return local;
}

namespace {

// Each component of `local` (values_per_component apart, `used` of them the rank's) concatenated over the ranks.
std::vector<double> gather_components(const Solver& solver, const double* local, int count, Index stride,
                                      Index used, Index whole) {
  const bool root = !solver.distributed() || solver.communicator()->is_root();
  std::vector<double> out(root ? std::size_t(count) * std::size_t(whole) : 0);
  for (int c = 0; c < count; ++c) {
    const std::span<const double> mine(local + c * stride, std::size_t(used));
    const std::span<double> all = root ? std::span<double>(out).subspan(std::size_t(c) * std::size_t(whole),
                                                                       std::size_t(whole))
                                       : std::span<double>{};
    if (solver.distributed())
      solver.communicator()->gather_into(mine, all);
    else
      std::copy(mine.begin(), mine.end(), all.begin());
  }
  return out;
}

}  // namespace

std::vector<Complex> gather_modes(const Solver& solver) {
  const SlabLayout& L = solver.layout();
  const auto* local = reinterpret_cast<const double*>(solver.modes().read(core::Where::host));
  const std::vector<double> values =
      gather_components(solver, local, 3, 2 * L.mode_stride, 2 * L.modes(), 2 * L.grid.modes());
  std::vector<Complex> out(values.size() / 2);
  if (!L.transposed()) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = {values[2 * i], values[2 * i + 1]};
    return out;
  }
  // Transposed slabs concatenate as [rank][jz][jy][kx]: each rank's block goes to its modes' global indices.
  const std::vector<double> y0 = solver.communicator()->gather(std::vector<double>{double(L.y0), double(L.ny)});
  const Index per_jy = L.grid.half() * L.grid.n;
  Index offset = 0;  // complex values of the ranks before
  for (std::size_t r = 0; 2 * r < y0.size(); ++r) {
    SlabLayout theirs = L;
    theirs.y0 = Index(y0[2 * r]), theirs.ny = Index(y0[2 * r + 1]);
    const Index count = per_jy * theirs.ny;
    for (Index c = 0; c < 3; ++c)
      for (Index m = 0; m < count; ++m) {
        const std::size_t from = 2 * std::size_t(c * L.grid.modes() + offset + m);
        out[std::size_t(c * L.grid.modes() + theirs.global_mode(m))] = {values[from], values[from + 1]};
      }
    offset += count;
  }
  return out;
}

std::vector<double> gather_points(const Solver& solver, const double* local, int count) {
  const SlabLayout& L = solver.layout();
  const Index n = L.grid.n, rows = n * L.nz;
  // The rows without their padding first, so that the slabs concatenate into whole fields.
  std::vector<double> packed(std::size_t(count) * std::size_t(rows * n));
  for (int c = 0; c < count; ++c)
    for (Index r = 0; r < rows; ++r)
      std::copy(local + c * L.point_stride + r * L.pitch, local + c * L.point_stride + r * L.pitch + n,
                packed.begin() + std::ptrdiff_t((c * rows + r) * n));
  return gather_components(solver, packed.data(), count, rows * n, rows * n, L.grid.points());
}

}  // namespace loom::hit
