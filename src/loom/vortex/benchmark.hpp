// `loom bench vortex`'s measurement: seconds per vortex step at a lattice of n^3 particles (Taylor-Green strengths
// alpha = omega h^3, sigma = overlap h; the paper's periodic box, or the same particles in free space), split into
// the tree build, the interaction lists, the rest of the FMM, the update (the integrator's own work) and one
// reinitialisation (the lattice sums and the RBF solve); the memory the run needs, estimated before allocating.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "loom/core/memory_budget.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/vortex/integrator.hpp"

namespace loom::vortex {

struct BenchOptions {
  fmm::Options fmm;  // backend, order, theta, ncrit, precision; periodic and the box set per run
  bool periodic = true;
  TimeScheme scheme = TimeScheme::ab2;
  double overlap = 1, nu = 0.01, dt = 0.01;
  int warmup = 1, steps = 2;
  int reinit_every = 10;  // the reinitialisation's share of a step: its time / reinit_every (0: not timed)
  double rebuild_cost = 1.05;  // the device stepper's rule (fmm.tree backend, AB2)
};

struct StepTiming {
  std::string backend;
  Index lattice_n = 0, particles = 0;
  double tree = 0, lists = 0, fmm = 0, update = 0;  // seconds per step (means over the timed steps)
  double reinit = 0;                                // seconds of one reinitialisation (0: not timed)
  int reinit_iterations = 0;
  double memory_bytes = 0;  // the estimate checked before allocating
  int reinit_every = 0;
  bool on_device = false;   // stepped by the device stepper (particles resident where the FMM runs)
  int tree_builds = 0, refits = 0;  // the device stepper's trees and re-fits over the warm-up and timed steps
  double p2p_interactions = 0, m2l_pairs = 0;  // the device stepper: per step's last evaluation, mean over timed steps
  double step() const { return tree + lists + fmm + update + (reinit_every > 0 ? reinit / reinit_every : 0.0); }
};

// Host (and, on the GPU, device) bytes a step of n^3 particles needs: the particles and the integrator's copies and
// rates, plus the FMM's own (fmm::memory_need for Biot-Savart).
core::MemoryNeed step_memory_need(Index lattice_n, const fmm::Options& options);
// The same for `particles` particles in any arrangement (a ring's).
core::MemoryNeed step_memory_need_of(double particles, const fmm::Options& options);

StepTiming time_vortex_step(Index lattice_n, const BenchOptions& options);

void print_step_table(std::ostream& out, const std::vector<StepTiming>& rows);
nlohmann::json to_json(const std::vector<StepTiming>& rows);

}  // namespace loom::vortex
