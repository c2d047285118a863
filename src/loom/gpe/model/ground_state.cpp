// Compiled by nvcc in CUDA builds (loom_backend_sources).
#include "loom/gpe/model/ground_state.hpp"

#include <cmath>

#include "loom/core/parallel_for.hpp"
#include "loom/gpe/model/initial_state.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/observables.hpp"

namespace loom::gpe {

RelaxationResult relax_to_ground_state(core::Backend backend, const Hamiltonian& h, core::Array<Complex>& psi,
                                       double tolerance, long max_iterations) {
  const auto w = core::where(backend);
  const Index n = h.lattice.size();
  core::Array<Complex> m_psi(static_cast<std::size_t>(n));
  RelaxationResult r;
  normalise(backend, h, psi);
  double dtau = 0;
  // Five passes per iteration: M psi; mu; the residual; the update fused with the new norm; the rescaling.
  for (r.iterations = 0; r.iterations <= max_iterations; ++r.iterations) {
    Complex* p = psi.read_write(w);
    if (r.iterations % 100 == 0) {  // g |psi|^2 changes as the state relaxes: refresh the step
      const double max_diagonal =
          core::parallel_max(backend, n, [=] LOOM_HOST_DEVICE(Index i) { return h.diagonal(p, i); });
      dtau = 0.9 / max_diagonal;
    }
    Complex* mp = m_psi.write(w);
    apply_hamiltonian(backend, h, p, mp);
    const double mu = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
      return h.volume(i) * (core::conj(p[i]) * mp[i]).re;  // psi is normalised
    });
    r.mu = mu;
    const double residual2 = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
      return h.volume(i) * core::norm2(mp[i] - mu * p[i]);
    });
    r.residual = std::sqrt(residual2) / std::abs(mu);
    if (r.residual < tolerance) {
      r.converged = true;
      break;
    }
    if (r.iterations == max_iterations) break;
    const double step = dtau;
    const double norm = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
      p[i] = p[i] - step * (mp[i] - mu * p[i]);
      return h.volume(i) * core::norm2(p[i]);
    });
    scale(backend, n, p, 1 / std::sqrt(norm));
  }
  return r;
}

}  // namespace loom::gpe
