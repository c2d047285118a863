// Compiled by nvcc in CUDA builds (loom_backend_sources): the loops below run as OpenMP loops or CUDA kernels.
#include "loom/gpe/integrator.hpp"

#include <utility>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::gpe {

LeapfrogIntegrator::LeapfrogIntegrator(core::Backend backend, const LatticeDomain& domain, Physics physics)
    : backend_(backend),
      domain_(&domain),
      h_(domain.hamiltonian(core::where(backend), physics)),
      n_(domain.dof()),
      kernel_(default_leapfrog_kernel(backend, domain.lattice.cells)),
      soa_tuning_(default_soa_tuning(domain.lattice.cells, domain.dof())),
      march_tiling_(default_march_tiling(domain.lattice.cells)) {
  make_kernel();
}

LeapfrogIntegrator::LeapfrogIntegrator(core::Backend backend, const SlabDomain& slab, Physics physics,
                                       HaloTransport transport)
    : LeapfrogIntegrator(backend, slab.local(), physics) {
  if (!slab.distributed()) return;
  slab_ = &slab;
  transport_ = transport;
  exchange_ = make_slab_exchange(backend, slab, transport);
}

SlabExchange& LeapfrogIntegrator::pitched_exchange() {
  if (!pitched_exchange_)
    pitched_exchange_ =
        make_slab_exchange(backend_, *slab_, transport_, Index(domain_->lattice.ny) * row_pitch().pitch);
  return *pitched_exchange_;
}

void LeapfrogIntegrator::make_kernel() {
  unpack_if_stale();  // the state in the lattice's layout; the next pitched step packs it again
  pitched_valid_ = false;
  stepper_.reset();  // its tables go before the next kernel's are made
  stepper_ = make_step_kernel(kernel_, {backend_, domain_, h_, soa_tuning_, march_tiling_});
  pitched_exchange_.reset();  // made again for the new layout
}

void LeapfrogIntegrator::set_kernel(LeapfrogKernel kernel) {
  LOOM_REQUIRE(runs_on_cpu(kernel) || backend_ == core::Backend::cuda,
               "LeapfrogIntegrator: the " + std::string(to_string(kernel)) +
                   " kernel runs on the CUDA backend only (the CPU has plain and soa)");
  kernel_ = kernel;
  make_kernel();
}

void LeapfrogIntegrator::set_soa_tuning(SoaTuning tuning) {
  soa_tuning_ = tuning;
  if (kernel_ == LeapfrogKernel::soa) make_kernel();
}

void LeapfrogIntegrator::set_march_tiling(MarchTiling tiling) {
  march_tiling_ = tiling;
  if (kernel_ == LeapfrogKernel::march) make_kernel();
}

RowPitch LeapfrogIntegrator::row_pitch() const {
  const dec::StructureLattice& lattice = domain_->lattice;
  return {Index(lattice.ny) * lattice.nz, lattice.nx * lattice.cells, stepper_->row_pitch()};
}

bool LeapfrogIntegrator::steps_pitched() const { return row_pitch().padded(); }

void LeapfrogIntegrator::unpack_if_stale(const core::Array<Complex>& pitched, core::Array<Complex>& flat,
                                         bool& stale) const {
  if (!stale) return;
  unpack_rows(backend_, row_pitch(), pitched, flat);
  stale = false;
}

void LeapfrogIntegrator::unpack_if_stale() const {
  unpack_if_stale(pitched_previous_, previous_, previous_stale_);
  unpack_if_stale(pitched_current_, current_, current_stale_);
}

Hamiltonian LeapfrogIntegrator::hamiltonian(core::Where where) const { return domain_->hamiltonian(where, h_.physics); }

void LeapfrogIntegrator::set_state(core::Array<Complex> previous, core::Array<Complex> current, double t, double dt,
                                   std::int64_t step) {
  LOOM_REQUIRE(previous.size() == std::size_t(n_) && current.size() == std::size_t(n_),
               "LeapfrogIntegrator::set_state: arrays do not match the lattice");
  previous_ = std::move(previous);
  current_ = std::move(current);
  previous_stale_ = current_stale_ = false;
  pitched_valid_ = false;
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
  core::parallel_for(backend, h.lattice.size(),
                     [=] LOOM_HOST_DEVICE(Index i) { out[i] = -core::times_i(h.apply(psi, i)); });
  return out;
}

// psi advanced by one classical RK4 step of `step` (negative: backwards); on a slab (`exchange` set), halos
// exchanged after each stage.
core::Array<Complex> rk4_step(core::Backend backend, const Hamiltonian& h, Index n, SlabExchange* slab_exchange,
                              const core::Array<Complex>& from, double step) {
  const auto w = core::where(backend);
  // RK4 for d psi / dt = -i M(psi) psi.
  const auto size = static_cast<std::size_t>(n);
  core::Array<Complex> k1(size), k2(size), k3(size), k4(size), stage(size), result(size);
  const Complex* p0 = from.read(w);
  Complex* s = stage.write(w);
  // On a slab each stage's halos are wrong after a local update (its neighbours' neighbours are missing): they
  // are exchanged before the next derivative, so the owned values are those of the global computation.
  auto exchange = [&](Complex* field) {
    if (slab_exchange) slab_exchange->exchange(field);
  };
  const Complex* r1 = time_derivative(backend, h, p0, k1.write(w));
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r1[i]; });
  exchange(s);
  const Complex* r2 = time_derivative(backend, h, s, k2.write(w));
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r2[i]; });
  exchange(s);
  const Complex* r3 = time_derivative(backend, h, s, k3.write(w));
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + step * r3[i]; });
  exchange(s);
  const Complex* r4 = time_derivative(backend, h, s, k4.write(w));
  Complex* out = result.write(w);
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    out[i] = p0[i] + (step / 6) * (r1[i] + 2.0 * r2[i] + 2.0 * r3[i] + r4[i]);
  });
  exchange(out);
  return result;
}

}  // namespace

void LeapfrogIntegrator::start_from(core::Array<Complex> initial, double t, double dt) {
  core::Array<Complex> previous = rk4_step(backend_, h_, n_, exchange_.get(), initial, -dt);
  set_state(std::move(previous), std::move(initial), t, dt, 0);
}

void LeapfrogIntegrator::finish_at(double t_end) {
  const double h = t_end - t_;
  LOOM_REQUIRE(h > 0 && h <= dt_ * (1 + 1e-12), "finish_at: t_end is not within one step of the time");
  // A leapfrog step of h would need psi(t - h), which the two levels do not hold: psi(t_end) comes from one RK4
  // step of h from psi(n) instead, and psi(t_end - dt) from one RK4 step back, as at a start, so that stepping
  // (or a restart from the checkpoint) continues with the same dt.
  core::Array<Complex> end = rk4_step(backend_, h_, n_, exchange_.get(), current(), h);
  core::Array<Complex> previous = rk4_step(backend_, h_, n_, exchange_.get(), end, -dt_);
  set_state(std::move(previous), std::move(end), t_end, dt_, step_ + 1);
}

void LeapfrogIntegrator::step(std::int64_t steps) {
  const auto w = core::where(backend_);
  // A kernel with pitched rows steps the padded copies (packed from the state when it is newer). The
  // state in the lattice's layout is released meanwhile (psi takes two arrays, not four) and unpacked on demand.
  const bool pitched = steps_pitched();
  if (pitched) {
    if (!pitched_valid_) {
      pack_rows(backend_, row_pitch(), previous_, pitched_previous_);
      pack_rows(backend_, row_pitch(), current_, pitched_current_);
      pitched_valid_ = true;
    }
    previous_ = core::Array<Complex>();
    current_ = core::Array<Complex>();
    previous_stale_ = current_stale_ = true;
  } else {
    unpack_if_stale();
    pitched_valid_ = false;  // the steps below make any pitched copies old
  }
  core::Array<Complex>& older = pitched ? pitched_previous_ : previous_;
  core::Array<Complex>& newer = pitched ? pitched_current_ : current_;
  if (exchange_) {
    step_slab(steps, older, newer, pitched ? pitched_exchange() : *exchange_);
    return;
  }
  for (std::int64_t s = 0; s < steps; ++s) {
    stepper_->step(newer.read(w), older.read_write(w), dt_, all_layers(domain_->lattice), nullptr);
    std::swap(older, newer);
    t_ += dt_;
    ++step_;
  }
}

double LeapfrogIntegrator::stability_bound() const {
  const Hamiltonian h = h_;
  const Complex* psi = current().read(core::where(backend_));
  if (slab_) {  // the owned vertices of every rank: max is exact, so the bound is the one-rank bound to the bit
    const Index first = slab_->owned_offset();
    const double mine = core::parallel_max(backend_, slab_->owned_size(),
                                           [=] LOOM_HOST_DEVICE(Index k) { return h.diagonal(psi, first + k); });
    return 1.0 / (2.0 * slab_->comm().max(mine));
  }
  const double max_diagonal =
      core::parallel_max(backend_, n_, [=] LOOM_HOST_DEVICE(Index i) { return h.diagonal(psi, i); });
  return 1.0 / (2.0 * max_diagonal);
}

// Section 4.2 of the DEC-GPE paper: the layers the neighbours need first, then their transfer overlapped with
// the interior update.
void LeapfrogIntegrator::step_slab(std::int64_t steps, core::Array<Complex>& older, core::Array<Complex>& newer,
                                   SlabExchange& exchange) {
  const auto w = core::where(backend_);
  for (std::int64_t s = 0; s < steps; ++s) {
    const Complex* now = newer.read(w);
    Complex* other = older.read_write(w);
    for (const LayerRange& edge : exchange.edges())
      if (!edge.empty()) stepper_->step(now, other, dt_, edge, exchange.edge_stream());
    exchange.start(other);
    if (!exchange.interior().empty()) stepper_->step(now, other, dt_, exchange.interior(), exchange.interior_stream());
    exchange.finish(other);
    std::swap(older, newer);
    t_ += dt_;
    ++step_;
  }
}

}  // namespace loom::gpe
