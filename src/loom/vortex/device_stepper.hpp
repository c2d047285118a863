// The vortex method stepped where the FMM runs (issue 21): the particles (x, alpha, sigma) and the rates live on
// the backend's side (the GPU for the CUDA backend) between steps; each step evaluates the Biot-Savart velocity
// and classical stretching with the resident FMM (fmm/resident.hpp; periodic: of the strengths less their mean,
// neutral.hpp), whose tree is re-fitted to the moved
// particles and rebuilt once an evaluation on a re-fitted tree did more than `max_cost` times the work of the first
// after the last build (fmm::ResidentEvaluator::move_positions); the AB2 update
// (started by the midpoint rule, as Integrator) runs as one loop over the particles with update.hpp's formulas,
// core spreading and the periodic wrap included. Only the caller's download() and upload() move particles
// across the bus. On the CPU backend the same code runs on the host (the form the CPU tests check).
#pragma once

#include <memory>

#include "loom/core/array.hpp"
#include "loom/fmm/resident.hpp"
#include "loom/vortex/particles.hpp"
#include "loom/vortex/rates.hpp"
#include "loom/vortex/reinit.hpp"

namespace loom::vortex {

struct DeviceStepTimes {
  double tree = 0, lists = 0, fmm = 0, update = 0;  // seconds since the last take_times()
};

class DeviceStepper {
 public:
  // fmm.backend: where the particles live. max_cost < 1: a new tree for every evaluation.
  DeviceStepper(const fmm::Options& fmm, double nu, Domain domain, double max_cost);

  void upload(const Particles& p);  // replaces the particles (and forgets AB2's previous rates)
  void download(Particles& p) const;
  Index size() const { return static_cast<Index>(x_.size()); }

  // AB2's previous rates (for checkpoints): empty when there are none.
  Rates previous() const;
  void set_previous(const Rates& r);
  void forget() { have_previous_ = false; }
  bool has_previous() const { return have_previous_; }  // the next step is AB2's (else the midpoint rule's)

  // The Biot-Savart velocity at the particles as they are (one FMM call; the AB2 state untouched; its time is
  // counted in the next take_times()).
  std::vector<Vec3d> velocity();

  void step(double dt);
  // The periodic reinitialisation (reinit.hpp) where the particles live (device_reinit.hpp): new particles on
  // the nodes of `lattice` (the box's), AB2's previous rates forgotten, the tree rebuilt at the next step.
  CgResult reinitialise(const Lattice& lattice, const ReinitOptions& options);
  void spread_cores(double spread);  // sigma^2 += spread on every particle (update.hpp's spread_core)
  DeviceStepTimes take_times();
  const fmm::ResidentEvaluator& fmm() const { return fmm_; }

 private:
  struct Stage {
    core::Array<Vec3d> velocity, stretching;
  };
  void rates(const core::Array<Vec3d>& x, const core::Array<Vec3d>& alpha, const core::Array<double>& sigma,
             Stage& out);
  // to = from + dt (w1 k1 + w2 k2), sigma spread over c dt with c = w1 + w2 (w2 = 0: one stage).
  void advance(const Stage& k1, double w1, const Stage* k2, double w2, double dt, core::Array<Vec3d>& x,
               core::Array<Vec3d>& alpha, core::Array<double>& sigma) const;

  fmm::ResidentEvaluator fmm_;
  double nu_, max_cost_;
  Domain domain_;
  core::Array<Vec3d> x_, alpha_;
  core::Array<double> sigma_;
  core::Array<Vec3d> neutral_;  // periodic: the strengths the FMM sees, less their mean (neutral.hpp)
  Stage now_, previous_, mid_;
  bool have_previous_ = false, have_tree_ = false;
  DeviceStepTimes times_;
};

}  // namespace loom::vortex
