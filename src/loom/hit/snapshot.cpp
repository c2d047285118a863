#include "loom/hit/snapshot.hpp"

#include <cmath>
#include <vector>

#include "loom/core/parallel_for.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/io/fields.hpp"

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

std::string write_field_snapshot(const std::filesystem::path& h5_path, Solver& solver) {
  const SpectralGrid g = solver.layout().grid;
  const Index N = g.points();
  const std::vector<double> whole = gather_points(solver, velocity_and_vorticity(solver), 6);
  if (solver.distributed() && !solver.communicator()->is_root()) return "";
  const double* r = whole.data();
  std::vector<double> velocity(3 * std::size_t(N)), vorticity(3 * std::size_t(N));
  std::vector<double> magnitude(static_cast<std::size_t>(N));
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < N; ++i) {
    for (Index c = 0; c < 3; ++c) {
      velocity[std::size_t(3 * i + c)] = r[c * N + i];
      vorticity[std::size_t(3 * i + c)] = r[(3 + c) * N + i];
    }
    magnitude[std::size_t(i)] = std::sqrt(r[3 * N + i] * r[3 * N + i] + r[4 * N + i] * r[4 * N + i] +
                                          r[5 * N + i] * r[5 * N + i]);
  }
  const auto n = std::size_t(g.n);
  io::StructuredGrid grid{{n, n, n}, {0, 0, 0}, {g.spacing(), g.spacing(), g.spacing()}};
  return io::write_structured_fields(h5_path, grid,
                                     {{"velocity", std::span<const double>(velocity), 3},
                                      {"vorticity", std::span<const double>(vorticity), 3},
                                      {"vorticity_magnitude", std::span<const double>(magnitude), 1}},
                                     solver.time());
}

}  // namespace loom::hit
