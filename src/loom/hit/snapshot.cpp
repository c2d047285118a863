#include "loom/hit/snapshot.hpp"

#include <cmath>
#include <vector>

#include "loom/core/parallel_for.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::hit {

const double* velocity_and_vorticity(Solver& solver) {
  const auto backend = solver.backend();
  const auto where = core::where(backend);
  const SlabLayout L = solver.layout();
  const Index M = L.mode_stride;
  const Complex* u = solver.modes().read(where);
  Complex* s = solver.spectral_work().write(where);
  core::parallel_for(backend, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    const ModeVector v{u[m], u[M + m], u[2 * M + m]};
    const ModeVector omega = curl(L.wavevector(m), v);
    s[m] = v.x, s[M + m] = v.y, s[2 * M + m] = v.z;
    s[3 * M + m] = omega.x, s[4 * M + m] = omega.y, s[5 * M + m] = omega.z;
  });
  solver.transforms().inverse(s, solver.physical_work().write(where), 6);
  return solver.physical_work().read(core::Where::host);
}

namespace {

// Plane k of the rank's slab (k < nz) as the file stores it: velocity and vorticity interleaved (x fastest, the
// components last), then the vorticity's magnitude; r holds the 6 components with the layout's point stride.
std::vector<double> file_plane(const SlabLayout& L, const double* r, Index k) {
  const Index n = L.grid.n, P = L.point_stride, plane = n * n;
  std::vector<double> out(7 * std::size_t(plane));
  for (Index j = 0; j < plane; ++j) {
    const Index i = (k * n + j / n) * L.pitch + j % n;  // the stored value of point (x, y) = (j % n, j / n)
    for (Index c = 0; c < 3; ++c) {
      out[std::size_t(3 * j + c)] = r[c * P + i];
      out[std::size_t(3 * (plane + j) + c)] = r[(3 + c) * P + i];
    }
    out[std::size_t(6 * plane + j)] =
        std::sqrt(r[3 * P + i] * r[3 * P + i] + r[4 * P + i] * r[4 * P + i] + r[5 * P + i] * r[5 * P + i]);
  }
  return out;
}

}  // namespace

// Plane by plane: in round k every rank sends its k-th plane (if it has one) to rank 0, which writes each into its
// z place of the file; rank 0 holds one plane of each rank at a time, never the whole field.
std::string write_field_snapshot(const std::filesystem::path& h5_path, Solver& solver) {
  const SlabLayout L = solver.layout();
  const Index n = L.grid.n, plane = n * n;
  const double* r = velocity_and_vorticity(solver);
  const bool root = !solver.distributed() || solver.communicator()->is_root();
  const double slab[2] = {double(L.z0), double(L.nz)};
  const std::vector<double> slabs =
      solver.distributed() ? solver.communicator()->gather(slab) : std::vector<double>(slab, slab + 2);
  const Index rounds = Index(solver.max_over_ranks(double(L.nz)));
  auto send_planes = [&](io::Hdf5Writer* h5) {
    for (Index k = 0; k < rounds; ++k) {
      const std::vector<double> mine = k < L.nz ? file_plane(L, r, k) : std::vector<double>{};
      const std::vector<double> all = solver.distributed() ? solver.communicator()->gather(mine) : mine;
      if (h5 == nullptr) continue;
      std::size_t at = 0;
      for (std::size_t rank = 0; 2 * rank < slabs.size(); ++rank) {
        if (k >= Index(slabs[2 * rank + 1])) continue;
        const auto z = std::size_t(slabs[2 * rank]) + std::size_t(k), m = std::size_t(n);
        const std::span<const double> p(all.data() + at, 7 * std::size_t(plane));
        h5->write_block("fields/velocity", {z, 0, 0, 0}, {1, m, m, 3}, p.first(3 * std::size_t(plane)));
        h5->write_block("fields/vorticity", {z, 0, 0, 0}, {1, m, m, 3},
                        p.subspan(3 * std::size_t(plane), 3 * std::size_t(plane)));
        h5->write_block("fields/vorticity_magnitude", {z, 0, 0}, {1, m, m}, p.subspan(6 * std::size_t(plane)));
        at += 7 * std::size_t(plane);
      }
    }
  };
  if (!root) {
    send_planes(nullptr);
    return "";
  }
  const auto m = std::size_t(n);
  io::StructuredGrid grid{{m, m, m}, {0, 0, 0}, {L.grid.spacing(), L.grid.spacing(), L.grid.spacing()}};
  return io::write_structured_fields_in_blocks(h5_path, grid,
                                               {{"velocity", 3}, {"vorticity", 3}, {"vorticity_magnitude", 1}},
                                               solver.time(), [&](io::Hdf5Writer& h5) { send_planes(&h5); });
}

}  // namespace loom::hit
