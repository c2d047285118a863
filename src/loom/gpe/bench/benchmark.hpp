// The leapfrog step measured (`loom bench gpe`): DOF updates per second, the minimal bytes per DOF and step
// (psi(n) read, psi(n-1) read, psi(n+1) written: 48 bytes; V is computed, not stored) and the effective
// bandwidth, on the lattice of a grid with nx x ny x nz structures.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "loom/core/backend.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/gpe/kernels/registry.hpp"
#include "loom/perf/timing.hpp"
#include "loom/perf/work.hpp"

namespace loom::gpe {

struct LeapfrogBenchmark {
  core::Backend backend = core::Backend::cpu;
  dec::GridType grid = dec::GridType::bcc;
  std::string variant = "plain";    // which kernel ran
  std::array<int, 3> structures{};  // nx, ny, nz
  Index dof = 0;
  std::int64_t steps_per_run = 0;
  perf::TimingSummary time;  // per run of steps_per_run steps
  perf::Work work_per_step;  // minimal bytes and counted flops of one step
  double seconds_per_step() const { return time.median / double(steps_per_run); }
  double dof_updates_per_second() const { return double(dof) / seconds_per_step(); }
  double bandwidth() const { return work_per_step.bytes / seconds_per_step(); }
};

// Minimal bytes per DOF and step of the leapfrog update.
constexpr double leapfrog_bytes_per_dof = 48;

// A kernel's launch choice: the soa kernel's tuning on the GPU, the march kernel's tiling (none: the grid's
// default_soa_tuning or default_march_tiling).
struct LaunchChoice {
  std::optional<SoaTuning> soa;
  std::optional<MarchTiling> march;
};

// A choice other than the grid's default names the variant: "soa:b<band rows>v<vertices per thread>" (and "r"
// for tiles of one row, "o" for tiles taken in order, "c<layers>" for columns), "march:<x>x<y>z<layers>".
LeapfrogBenchmark benchmark_leapfrog(core::Backend backend, dec::GridType grid, std::array<int, 3> structures,
                                     LeapfrogKernel kernel, int warmup, int repeats, double seconds_per_run = 0.2,
                                     const LaunchChoice& choice = {});

}  // namespace loom::gpe
