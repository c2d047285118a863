// Compiled by nvcc in CUDA builds (loom_backend_sources): the loops below run as OpenMP loops or CUDA kernels.
#include "loom/gpe/integrator.hpp"

#include <utility>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/gpe/leapfrog_cpu.hpp"

namespace loom::gpe {

LeapfrogIntegrator::LeapfrogIntegrator(core::Backend backend, const LatticeDomain& domain, double lambda, double g)
    : backend_(backend), domain_(&domain), h_(domain.hamiltonian(core::where(backend), lambda, g)), n_(domain.dof()) {
  set_kernel(default_leapfrog_kernel(backend, domain.lattice.cells));
  soa_tuning_ = default_soa_tuning(domain.lattice.cells, domain.dof());
}

LeapfrogIntegrator::LeapfrogIntegrator(core::Backend backend, const SlabDomain& slab, double lambda, double g,
                                       HaloTransport transport)
    : LeapfrogIntegrator(backend, slab.local(), lambda, g) {
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

void LeapfrogIntegrator::set_kernel(LeapfrogKernel kernel) {
  LOOM_REQUIRE(runs_on_cpu(kernel) || backend_ == core::Backend::cuda,
               "LeapfrogIntegrator: the " + std::string(to_string(kernel)) +
                   " kernel runs on the CUDA backend only (the CPU has plain and soa)");
  unpack_if_stale();  // the state in the lattice's layout; the next pitched step packs it again
  pitched_valid_ = false;
  kernel_ = kernel;
  if ((kernel == LeapfrogKernel::tuned || kernel == LeapfrogKernel::shared) && offsets_.empty())
    offsets_ = core::Array<std::int32_t>::from(flat_neighbour_offsets(domain_->stencil, domain_->lattice));
  const bool tables = kernel == LeapfrogKernel::soa || kernel == LeapfrogKernel::march;
  if (tables && !soa_) soa_ = std::make_unique<SoaStencil>(domain_->stencil, domain_->lattice);
  if (kernel == LeapfrogKernel::march && !march_) set_march_tiling(default_march_tiling(domain_->lattice.cells));
}

void LeapfrogIntegrator::set_march_tiling(MarchTiling tiling) {
  unpack_if_stale();
  pitched_valid_ = false;
  if (!soa_) soa_ = std::make_unique<SoaStencil>(domain_->stencil, domain_->lattice);
  const dec::StructureLattice& lattice = domain_->lattice;
  const int pitch = tiling.pitched_rows ? march_row_pitch(lattice.nx, lattice.cells) : 0;
  march_ = std::make_unique<MarchPlan>(*soa_, lattice, tiling, pitch);
  pitched_exchange_.reset();  // made again for the new pitch
}

RowPitch LeapfrogIntegrator::row_pitch() const {
  const dec::StructureLattice& lattice = domain_->lattice;
  const int row_cells = lattice.nx * lattice.cells;
  return {Index(lattice.ny) * lattice.nz, row_cells, march_ ? march_->row_pitch() : row_cells};
}

bool LeapfrogIntegrator::steps_pitched() const {
  return backend_ == core::Backend::cuda && kernel_ == LeapfrogKernel::march && march_ && row_pitch().padded();
}

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

MarchTiling LeapfrogIntegrator::march_tiling() const {
  return march_ ? march_->tiling() : default_march_tiling(domain_->lattice.cells);
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
// The CPU's plain step over some layers: one structure per iteration, as step() on a whole lattice.
void update_layers_cpu(const Hamiltonian& h, const Complex* now, Complex* other, double dt, LayerRange layers) {
  const int cells = h.lattice.cells;
  const Index first = Index(h.lattice.nx) * h.lattice.ny * layers.first;
  core::parallel_for(core::Backend::cpu, Index(h.lattice.nx) * h.lattice.ny * layers.count,
                     [=] LOOM_HOST_DEVICE(Index k) {
                       const Index st = first + k;
                       const dec::StructureInstance instance = h.lattice.structure(st);
                       for (int c = 0; c < cells; ++c) leapfrog_update(h, now, other, dt, st * cells + c, c, instance);
                     });
}

// d psi / dt = -i M(psi) psi into `out`.
const Complex* time_derivative(core::Backend backend, const Hamiltonian& h, const Complex* psi, Complex* out) {
  core::parallel_for(backend, h.lattice.size(),
                     [=] LOOM_HOST_DEVICE(Index i) { out[i] = -core::times_i(h.apply(psi, i)); });
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
  // On a slab each stage's halos are wrong after a local update (its neighbours' neighbours are missing): they
  // are exchanged before the next derivative, so the owned values are those of the global computation.
  auto exchange = [&](Complex* field) {
    if (exchange_) exchange_->exchange(field);
  };
  const Complex* r1 = time_derivative(backend_, h, p0, k1.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r1[i]; });
  exchange(s);
  const Complex* r2 = time_derivative(backend_, h, s, k2.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + (0.5 * step) * r2[i]; });
  exchange(s);
  const Complex* r3 = time_derivative(backend_, h, s, k3.write(w));
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) { s[i] = p0[i] + step * r3[i]; });
  exchange(s);
  const Complex* r4 = time_derivative(backend_, h, s, k4.write(w));
  Complex* out = previous.write(w);
  core::parallel_for(backend_, n, [=] LOOM_HOST_DEVICE(Index i) {
    out[i] = p0[i] + (step / 6) * (r1[i] + 2.0 * r2[i] + 2.0 * r3[i] + r4[i]);
  });
  exchange(out);
  set_state(std::move(previous), std::move(initial), t, dt, 0);
}

void LeapfrogIntegrator::step(std::int64_t steps) {
  const auto w = core::where(backend_);
  const Hamiltonian h = h_;
  const double dt = dt_;
  const Index structures = h.lattice.structures();
  const int cells = h.lattice.cells;
  // The march kernel with pitched rows steps the padded copies (packed from the state when it is newer). The
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
    const Complex* now = newer.read(w);
    Complex* other = older.read_write(w);
    if (kernel_ == LeapfrogKernel::soa && backend_ == core::Backend::cpu) {
      leapfrog_step_cpu_soa(soa_->view(w), h, now, other, dt, all_layers(h.lattice));
    } else if (kernel_ == LeapfrogKernel::soa) {
      leapfrog_step_cuda_soa(soa_->view(w), h, now, other, dt, all_layers(h.lattice), nullptr, soa_tuning_);
    } else if (kernel_ == LeapfrogKernel::march) {
      leapfrog_step_cuda_march(soa_->view(w), *march_, h, now, other, dt, all_layers(h.lattice), nullptr);
    } else if (kernel_ != LeapfrogKernel::plain) {
      leapfrog_step_cuda(kernel_, h, offsets_.read(w), now, other, dt, all_layers(h.lattice), nullptr);
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
    for (const LayerRange& edge : exchange.edges()) update_layers(now, other, edge, exchange.edge_stream());
    exchange.start(other);
    update_layers(now, other, exchange.interior(), exchange.interior_stream());
    exchange.finish(other);
    std::swap(older, newer);
    t_ += dt_;
    ++step_;
  }
}

void LeapfrogIntegrator::update_layers(const Complex* now, Complex* other, LayerRange layers, void* stream) {
  if (layers.empty()) return;
  const auto w = core::where(backend_);
  const Hamiltonian h = h_;
  const double dt = dt_;
  if (backend_ == core::Backend::cuda) {
    if (kernel_ == LeapfrogKernel::soa)
      leapfrog_step_cuda_soa(soa_->view(w), h, now, other, dt, layers, stream, soa_tuning_);
    else if (kernel_ == LeapfrogKernel::march)
      leapfrog_step_cuda_march(soa_->view(w), *march_, h, now, other, dt, layers, stream);
    else
      leapfrog_step_cuda(kernel_, h, offsets_.read(w), now, other, dt, layers, stream);
    return;
  }
  if (kernel_ == LeapfrogKernel::soa)
    leapfrog_step_cpu_soa(soa_->view(w), h, now, other, dt, layers);
  else
    update_layers_cpu(h, now, other, dt, layers);
}

}  // namespace loom::gpe
