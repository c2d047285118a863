// The plan of a fused shell operation (shell_sweep.hpp): the radial matrix and the angular sequences, with the
// launch configuration computed once, so that a call does nothing on the host but launch. The gradient uses
// both sequences (d_theta, d_phi) and the chain rule; the filter one sequence (the angular filter) and the radial
// filter. The CPU form (shell_sweep_cpu.cpp) runs the same arithmetic on host matrices; the GPU form is in
// gpu_apply.hpp.
#pragma once

#include <algorithm>
#include <optional>

#include "loom/spectral/shell_separable.hpp"

namespace loom::spectral {

struct ShellGradientPlan {
  const double* radial = nullptr;  // n_r x n_r, row-major
  Index n_r = 0, angular_points = 0;
  sweep::AngularSequence theta, phi;  // a filter: theta holds the angular filter, phi has no steps
  bool share_first = false;           // both sequences begin with the same step (the phi DFT): computed once
};

// Largest shared memory the angular kernel asks for (sm_80 and later allow more than this per block).
constexpr Index shell_sweep_max_shared = 96 * 1024;

// Doubles in each of the angular block's four buffers: the largest per-radius field of any step.
inline Index shell_sweep_buffer(const ShellGradientPlan& plan) {
  Index buffer = plan.angular_points;
  for (const sweep::AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k) buffer = std::max(buffer, q->steps[k].shape.output_size() / plan.n_r);
  return buffer;
}

inline bool shell_sweep_fits(const ShellGradientPlan& plan) {
  const Index word = sizeof(double);
  return 4 * shell_sweep_buffer(plan) * word <= shell_sweep_max_shared && plan.n_r * plan.n_r * word <= 48 * 1024;
}

// What a launch needs, fixed per plan and device: the buffer size, the doubles of matrix staging, the dynamic
// shared memory and the threads of the angular kernel; for a plan of the separable route, that route (its
// spectral pass takes Separable::group q's per block and spectral_shared doubles of shared memory).
struct ShellLaunch {
  Index buffer = 0, capacity = 0, shared_bytes = 0;
  unsigned threads = 0;
  std::optional<sweep::Separable> separable;
};

namespace cpu {
// The CPU form of the fused gradient and filter: the same arithmetic one radius and component at a time.
// Matrices in the plan are host pointers; scratch holds 2 C N (gradient) or C N (filter) values.
void shell_gradient(const ShellGradientPlan& plan, const sweep::ComponentMap& map, const double* jacobian,
                    double* scratch);
void shell_filter(const ShellGradientPlan& plan, const sweep::ComponentMap& map, double* scratch);
}  // namespace cpu

}  // namespace loom::spectral
