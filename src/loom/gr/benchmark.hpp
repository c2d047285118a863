// `loom bench bh`: the per-module profile of a Dormand-Prince step of the GH evolution (the spectral-BH paper's
// Fig. 3 modules: Jacobian = DiffJac, Deriv = the logical derivatives, Filter, GHEqns = the pointwise right-hand
// side, ApplyBCs = the interface, outer-boundary and excision slices, Other = the rest of the step: stage sums),
// per step, on one CPU core, on all cores and on the GPU, with the GPU-over-CPU speedup per module (Figs. 10-11).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {

struct ModuleProfile {
  std::string label;  // "cpu x1", "cpu x16", "cuda"
  core::Backend backend = core::Backend::cpu;
  int threads = 1;
  Index steps = 0;
  double step_s = 0;  // seconds per step (the module times' sum plus Other)
  ModuleTimes per_step;  // seconds per step of each module; other = step_s minus the rest
};

// Times `steps` steps after `warmup` on a fresh system from the exact data (CPU: `threads` OpenMP and BLAS threads).
ModuleProfile profile_steps(const KerrSchild& hole, const GhGeometry& geometry, const spectral::FilterSpec& filter,
                            core::Backend backend, int threads, int warmup, int steps);

// A table: per module the milliseconds per step and the percentage of the step on each profile, and the speedup of
// the GPU (if profiled) over each CPU profile.
void print_profile_table(std::ostream& out, const std::vector<ModuleProfile>& rows);
nlohmann::json to_json(const std::vector<ModuleProfile>& rows);

}  // namespace loom::gr
