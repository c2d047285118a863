#include "loom/gpe/model/initial_state.hpp"

#include <cmath>

#include "loom/core/parallel_for.hpp"
#include "loom/gpe/observables.hpp"

namespace loom::gpe {

core::Array<Complex> sample_vortex(const LatticeDomain& domain, const VortexTable& table) {
  const Hamiltonian h = domain.hamiltonian(core::Where::host, {0, 0});
  const Index n = domain.dof();
  core::Array<Complex> psi(static_cast<std::size_t>(n));
  Complex* p = psi.write(core::Where::host);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const dec::Vec3 r = h.position(i);
    const std::complex<double> v = table.psi(r.x, r.y, r.z);
    p[i] = {v.real(), v.imag()};
  }
  return psi;
}

namespace {
double unit_uniform(std::uint64_t seed, std::uint64_t counter) {  // splitmix64 of (seed, counter) -> [-1, 1)
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + counter * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-52 - 1.0;
}
}  // namespace

void perturb(core::Array<Complex>& psi, double amplitude, std::uint64_t seed) {
  if (amplitude == 0) return;
  Complex* p = psi.read_write(core::Where::host);
  const Index n = static_cast<Index>(psi.size());
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const Complex noise{unit_uniform(seed, 2 * std::uint64_t(i)), unit_uniform(seed, 2 * std::uint64_t(i) + 1)};
    p[i] = p[i] + amplitude * (noise * p[i]);
  }
}

double normalise(core::Backend backend, const Hamiltonian& h, core::Array<Complex>& psi) {
  const auto w = core::where(backend);
  const Complex* p = psi.read(w);
  const double norm = core::parallel_sum(backend, h.lattice.size(),
                                         [=] LOOM_HOST_DEVICE(Index i) { return h.volume(i) * core::norm2(p[i]); });
  const double factor = 1 / std::sqrt(norm);
  scale(backend, h.lattice.size(), psi.read_write(w), factor);
  return factor;
}

}  // namespace loom::gpe
