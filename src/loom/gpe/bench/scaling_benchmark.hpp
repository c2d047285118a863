// Strong and weak scaling of the leapfrog step over MPI ranks, as the DEC-GPE paper's Fig. 9 (section 5.2): the
// time per step of a fixed problem on N = 1, 2, ... ranks (speedup T_1 / T_N, Amdahl's law, eq. 16), and of a
// problem growing with N (speedup (W_N / T_N) / (W_1 / T_1), Gustafson's law, eq. 17). All N are timed inside one
// job: the first N ranks form a communicator of their own while the others wait. psi is pseudo-random (timing only).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/core/backend.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/gpe/kernels/registry.hpp"
#include "loom/gpe/parallel/slab_exchange.hpp"
#include "loom/perf/timing.hpp"

namespace loom::gpe {

struct ScalingOptions {
  core::Backend backend = core::Backend::cpu;
  dec::GridType grid = dec::GridType::bcc;
  LeapfrogKernel kernel = LeapfrogKernel::plain;
  HaloTransport transport = HaloTransport::automatic;
  double dual_edge = 0.1;  // lattice scale (the step's cost does not depend on it)
  int warmup = 1, repeats = 5;
  double seconds_per_run = 0.2;
};

struct ScalingPoint {
  int ranks = 1;
  std::array<int, 3> structures{};  // nx, ny, nz
  Index dof = 0;
  std::int64_t steps_per_run = 0;
  perf::TimingSummary time;  // per run, the slowest rank's time
  double seconds_per_step() const { return time.median / double(steps_per_run); }
  double dof_updates_per_second() const { return double(dof) / seconds_per_step(); }
};

// The problem of weak scaling on N ranks from the one-rank problem `base`: all three counts times N^(1/3) (the
// paper, whose halos then grow as N^(2/3)) when `grow_xyz`, else nz times N (a constant slab per rank).
std::array<int, 3> weak_scaling_structures(std::array<int, 3> base, int ranks, bool grow_xyz);

// Times `structures` on the first N ranks of `world` for each N in `rank_counts` (each <= world.size()). Collective
// over `world`; the results are complete on rank 0.
std::vector<ScalingPoint> time_over_ranks(const comm::Communicator& world, const ScalingOptions& options,
                                          const std::vector<int>& rank_counts,
                                          const std::vector<std::array<int, 3>>& structures);

}  // namespace loom::gpe
