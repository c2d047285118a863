// Compiled by nvcc in CUDA builds (loom_backend_sources): the loops below run as OpenMP loops or CUDA kernels.
#include "loom/gpe/integrator.hpp"

#include <utility>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::gpe {

LeapfrogIntegrator::LeapfrogIntegrator(core::Backend backend, const LatticeDomain& domain, double lambda, double g)
    : backend_(backend), domain_(&domain), h_(domain.hamiltonian(core::where(backend), lambda, g)), n_(domain.dof()) {
  set_kernel(default_leapfrog_kernel(backend, domain.lattice.cells));
}

void LeapfrogIntegrator::set_kernel(LeapfrogKernel kernel) {
  LOOM_REQUIRE(kernel == LeapfrogKernel::plain || backend_ == core::Backend::cuda,
               "LeapfrogIntegrator: the " + std::string(to_string(kernel)) + " kernel runs on the CUDA backend only");
  kernel_ = kernel;
  if ((kernel == LeapfrogKernel::tuned || kernel == LeapfrogKernel::shared) && offsets_.empty())
    offsets_ = core::Array<std::int32_t>::from(flat_neighbour_offsets(domain_->stencil, domain_->lattice));
  if (kernel == LeapfrogKernel::soa && !soa_) soa_ = std::make_unique<SoaStencil>(domain_->stencil, domain_->lattice);
}

Hamiltonian LeapfrogIntegrator::hamiltonian(core::Where where) const {
  return domain_->hamiltonian(where, h_.lambda, h_.g);
}

void LeapfrogIntegrator::set_state(core::Array<Complex> previous, core::Array<Complex> current, double t, double dt,
                                   std::int64_t step) {
  LOOM_REQUIRE(previous.size() == std::size_t(n_) && current.size() == std::size_t(n_),
               "LeapfrogIntegrator::set_state: arrays do not match the lattice");
  previous_ = std::move(previous);
  current_ = std::move(current);
  t_ = t;
  dt_ = dt;
  step_ = step;
}

void apply_hamiltonian(core::Backend backend, const Hamiltonian& h, const Complex* psi, Complex* out) {
  core::parallel_for(backend, h.lattice.size(), [=] LOOM_HOST_DEVICE(Index i) { out[i] = h.apply(psi, i); });
}

namespace {
// d psi / dt = -i M(psi) psi into `out`.
const Complex* time_derivative(core::Backend backend, const Hamiltonian& h, const Complex* psi, Complex* out) {
  core::parallel_for(backend, h.lattice.size(), [=] LOOM_HOST_DEVICE(Index i) { out[i] = -core::times_i(h.apply(psi, i)); });
  return out;
}
}  // namespace

void LeapfrogIntegrator::start_from(core::Array<Complex> initial, double t, double dt) {
  const auto w = core::where(backend_);
  const Hamiltonian h = h_;
  const Index n = n_;
  // RK4 for d psi / dt = -i M(psi) psi with step -dt.
  const double step = -dt;
  const auto size = static_cast<std::size_t>(n);
  core::Array<Complex> k1(size), k2(size), k3(size), k4(size), stage(size), previous(size);
  const Complex* p0 = initial.read(w);
  Complex* s = stage.write(w);
  const Complex* r1 = time_derivative(backend_, h, p0, k1.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r1[i]; });
  const Complex* r2 = time_derivative(backend_, h, s, k2.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r2[i]; });
  const Complex* r3 = time_derivative(backend_, h, s, k3.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + step * r3[i]; });
  const Complex* r4 = time_derivative(backend_, h, s, k4.write(w));
  Complex* out = previous.write(w);
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) {
    out[i] = p0[i] + (step / 6) * (r1[i] + 2.0 * r2[i] + 2.0 * r3[i] + r4[i]);
  });
  set_state(std::move(previous), std::move(initial), t, dt, 0);
}

void LeapfrogIntegrator::step(std::int64_t steps) {
  const auto w = core::where(backend_);
  const Hamiltonian h = h_;
  const double dt = dt_;
  const Index structures = h.lattice.structures();
  const int cells = h.lattice.cells;
  for (std::int64_t s = 0; s < steps; ++s) {
    const Complex* now = current_.read(w);
    Complex* other = previous_.read_write(w);
    if (kernel_ == LeapfrogKernel::soa) {
      leapfrog_step_cuda_soa(soa_->view(w), h, now, other, dt);
    } else if (kernel_ != LeapfrogKernel::plain) {
      leapfrog_step_cuda(kernel_, h, offsets_.read(w), now, other, dt);
    } else if (backend_ == core::Backend::cpu) {
      // One structure per iteration: its m_s vertices share the instance, so no division per vertex.
      core::parallel_for(backend_, structures, [=] LOOM_HOST_DEVICE(Index st) {
        const dec::StructureInstance instance = h.lattice.structure(st);
        for (int c = 0; c < cells; ++c) leapfrog_update(h, now, other, dt, st * cells + c, c, instance);
      });
    } else {
      // One thread per vertex, consecutive threads on consecutive vertices (coalesced; Algorithm 1's layout).
      core::parallel_for(backend_, n_, [=] LOOM_HOST_DEVICE(Index i) { leapfrog_update(h, now, other, dt, i); });
    }
    std::swap(previous_, current_);
    t_ += dt_;
    ++step_;
  }
}

double LeapfrogIntegrator::stability_bound() const {
  const Hamiltonian h = h_;
  const Complex* psi = current_.read(core::where(backend_));
  const double max_diagonal = core::parallel_max(backend_, n_, [=] LOOM_HOST_DEVICE(Index i) { return h.diagonal(psi, i); });
  return 1.0 / (2.0 * max_diagonal);
}

}  // namespace loom::gpe
