// The memory a `loom spectral` or `loom bench spectral` run takes, from its extents, tensors, operation and route,
// estimated before the topology exists (a shell's S2 tables alone are 2 N_theta^3 doubles): what
// core::check_memory compares with the free memory. tests/apps/test_memory_estimates.cpp holds it to the peak RSS.
#pragma once

#include <array>
#include <string>

#include "loom/core/memory_budget.hpp"
#include "loom/spectral/tool_config.hpp"

namespace loom::spectral {

// One Workload: its grid (topology "cube" or "shell" with extents, or "" for `points` random points, the
// Jacobian sweep's), the components of all its tensors, the operation and angular method, and whether its
// strategy applies traced matrices (all but reference) or runs on the device.
struct WorkloadSize {
  std::string topology;
  std::array<int, 3> extents{};
  double points = 0;  // without a topology
  double components = 1;
  Operation op = Operation::deriv;
  AngularMethod angular = AngularMethod::dense;
  bool matrices = true;
  bool device = false;
};

// The topology's own tables: a shell's normalised Legendre functions and their derivatives (2 N_theta^3).
double topology_bytes(const WorkloadSize& w);
// The fields (input, outputs, scratch, the inverse Jacobian, the coordinates made for the analytic input) times
// `shells` (K shells timed in one call), plus the operator cache's traced matrices (once: the shells share their
// extents) with the last one's trace still alive; device: the fields and the matrices, transposed copies too.
core::MemoryNeed workload_need(const WorkloadSize& w, double shells = 1);

// `loom spectral`: the topology, the resident base and the workloads alive together (strategy or angular auto
// keep one workload per candidate while they are timed). `shells`: copies of the shell's arrays in one call.
core::MemoryNeed spectral_memory_need(const SpectralToolConfig& c, double shells = 1);
// The setting check_memory names: `extents = "2000,1000,2000"` (and the tensors when there are several).
std::string spectral_memory_setting(const SpectralToolConfig& c);

// `loom bench spectral`: the largest workload of the sweeps it will run (or the CPU ceilings' arrays measured
// before them, when larger), and the key and value that drive it.
struct BenchNeed {
  core::MemoryNeed need;
  std::string setting;
};
BenchNeed bench_spectral_memory_need(const BenchSpectralConfig& c);

}  // namespace loom::spectral
