// Central-difference (leapfrog) time integration of the discrete GPE, eq. (7) of the DEC-GPE paper, on either
// backend. psi is double-buffered: each step writes psi(n+1) over psi(n-1) and the buffers swap roles. On a rank's
// slab (section 4.2) the arrays are the slab's, halos included, and each step exchanges the halos.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/gpe/kernels/pitched_rows.hpp"
#include "loom/gpe/kernels/registry.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/parallel/slab_exchange.hpp"

namespace loom::gpe {

class LeapfrogIntegrator {
 public:
  LeapfrogIntegrator(core::Backend backend, const LatticeDomain& domain, Physics physics);
  // On this rank's slab: a step updates the owned layers, the edge layers first, and exchanges the halos while
  // the interior is updated. One rank: the constructor above on the global lattice, nothing else.
  LeapfrogIntegrator(core::Backend backend, const SlabDomain& slab, Physics physics,
                     HaloTransport transport = HaloTransport::automatic);

  // psi(n-1) and psi(n) at time t (the time of `current`), with step dt. On a slab: the slab's arrays with
  // valid halos (SlabDomain::restrict_to_slab).
  void set_state(core::Array<Complex> previous, core::Array<Complex> current, double t, double dt, std::int64_t step);
  // From psi(0) alone: psi(-dt) by one classical Runge-Kutta step backwards. Its local error O(dt^5) is far
  // below the leapfrog's global O(dt^2), and it needs no knowledge of the exact solution.
  void start_from(core::Array<Complex> initial, double t, double dt);

  void step(std::int64_t steps = 1);
  // The last step of a run, shortened to land on t_end (time() < t_end <= time() + dt): psi(t_end) by one RK4
  // step from psi(n) and psi(t_end - dt) by one RK4 step back, so the state stays a leapfrog pair with step dt
  // (stepping on continues as from a fresh start at t_end; a run checkpoints before, on the dt grid).
  void finish_at(double t_end);

  // Which implementation step() uses (default: default_leapfrog_kernel); see kernels/registry.hpp. Each setter
  // makes the kernel again, with the state in the lattice's layout.
  void set_kernel(LeapfrogKernel kernel);
  LeapfrogKernel kernel() const { return kernel_; }
  // Launch choices of the soa kernel on the GPU (ignored elsewhere); default: default_soa_tuning.
  void set_soa_tuning(SoaTuning tuning);
  SoaTuning soa_tuning() const { return soa_tuning_; }
  // Tiling of the march kernel (default: default_march_tiling). With pitched rows the march kernel steps copies of
  // psi whose rows are padded to whole cache lines (on a slab, halos included, exchanged as pitched layers);
  // current() and previous() each unpack their own array when asked (an output that reads psi(n) only costs one
  // copy; the next step releases what was unpacked).
  void set_march_tiling(MarchTiling tiling);
  MarchTiling march_tiling() const { return march_tiling_; }

  // (2 max_i M_ii)^-1 evaluated on the current psi: the stability bound of eq. (11) (over all ranks).
  double stability_bound() const;
  // How halos travel ("" on one rank).
  std::string_view halo_transport() const { return exchange_ ? exchange_->transport() : std::string_view{}; }

  core::Backend backend() const { return backend_; }
  const Hamiltonian& hamiltonian() const { return h_; }
  Hamiltonian hamiltonian(core::Where where) const;
  const core::Array<Complex>& current() const {
    unpack_if_stale(pitched_current_, current_, current_stale_);
    return current_;
  }
  const core::Array<Complex>& previous() const {
    unpack_if_stale(pitched_previous_, previous_, previous_stale_);
    return previous_;
  }
  double time() const { return t_; }
  double dt() const { return dt_; }
  std::int64_t steps_done() const { return step_; }
  Index size() const { return n_; }

 private:
  // Steps on a slab: `older` and `newer` hold psi(n-1) and psi(n) in the layout `exchange` moves.
  void step_slab(std::int64_t steps, core::Array<Complex>& older, core::Array<Complex>& newer, SlabExchange& exchange);
  // The kernel for the current choices (the state first brought back to the lattice's layout).
  void make_kernel();
  // The exchange of pitched layers (made when first needed).
  SlabExchange& pitched_exchange();
  // The rows of the kernel's layout, and whether step() uses padded rows.
  RowPitch row_pitch() const;
  bool steps_pitched() const;
  // `flat` from its pitched copy when that is newer; without arguments, both arrays of the state.
  void unpack_if_stale(const core::Array<Complex>& pitched, core::Array<Complex>& flat, bool& stale) const;
  void unpack_if_stale() const;

  core::Backend backend_;
  const LatticeDomain* domain_;
  Hamiltonian h_;  // views on the backend's side
  Index n_ = 0;
  mutable core::Array<Complex> previous_, current_;  // the lattice's layout (empty and stale after pitched steps)
  core::Array<Complex> pitched_previous_, pitched_current_;      // rows padded as the kernel's row_pitch()
  mutable bool previous_stale_ = false, current_stale_ = false;  // the pitched copy is newer
  bool pitched_valid_ = false;                                   // the pitched copies hold the state
  LeapfrogKernel kernel_ = LeapfrogKernel::plain;
  SoaTuning soa_tuning_;
  MarchTiling march_tiling_;
  std::unique_ptr<StepKernel> stepper_;
  const SlabDomain* slab_ = nullptr;  // set on more than one rank
  HaloTransport transport_ = HaloTransport::automatic;
  std::unique_ptr<SlabExchange> exchange_;          // layers of the lattice's layout
  std::unique_ptr<SlabExchange> pitched_exchange_;  // pitched layers
  double t_ = 0, dt_ = 0;
  std::int64_t step_ = 0;
};

// Applies M to psi on `backend`: out_i = (M psi)_i. Used by starters, ground states and energies.
void apply_hamiltonian(core::Backend backend, const Hamiltonian& h, const Complex* psi, Complex* out);

}  // namespace loom::gpe
