// The fused shell operations in two launches each (gpu_apply.hpp; the arithmetic, shared with the CPU form, in
// shell_sweep.hpp), for plans other than the separable route (shell_separable_cuda.cu takes those): the angular steps run in shared memory, one block per (radius, component), so the
// intermediate spectral coefficients never reach global memory; then one thread per value applies the radial
// matrix (and, for the gradient, the chain rule, DiffJac eq. 8). The step-by-step route launches five matrix
// passes and DiffJac, each a round trip through global memory and a launch (docs/performance.md).
#include <algorithm>
#include <string>

#include "loom/core/cuda_check.cuh"
#include "loom/core/error.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral::gpu {

namespace {

// Block (r, c): the angular sequences of component c at radius r into scratch. Shared memory: four buffers of
// `buffer` doubles, then the staged matrices (`capacity` doubles).
__global__ void __launch_bounds__(1024) angular_kernel(ShellGradientPlan plan, Index buffer, Index capacity,
                                                       sweep::ComponentMap map, Index components, double* scratch) {
  extern __shared__ double shared[];
  const sweep::Buffers b{shared, shared + buffer, shared + 2 * buffer, shared + 3 * buffer, shared + 4 * buffer,
                         capacity};
  const sweep::Lanes lanes{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x)};
  sweep::angular_block(plan.theta, plan.phi, plan.share_first, plan.n_r, plan.angular_points, blockIdx.x, blockIdx.y,
                       components, map, scratch, b, lanes);
}

// Stages the n_r x n_r radial matrix in shared memory for the block.
__device__ const double* stage_radial(const double* radial, Index n_r, double* staged) {
  for (Index t = threadIdx.x; t < n_r * n_r; t += blockDim.x) staged[t] = radial[t];
  __syncthreads();
  return staged;
}

__global__ void radial_gradient_kernel(const double* radial, Index n_r, Index n, Index components,
                                       const double* jacobian, sweep::ComponentMap map, const double* scratch) {
  extern __shared__ double staged[];
  const double* d_r = stage_radial(radial, n_r, staged);
  for (Index t = blockIdx.x * Index{blockDim.x} + threadIdx.x; t < components * n; t += Index{gridDim.x} * blockDim.x)
    sweep::radial_gradient_point(d_r, n_r, n, components, jacobian, map, scratch, t);
}

__global__ void radial_filter_kernel(const double* radial, Index n_r, Index n, Index components,
                                     sweep::ComponentMap map, const double* scratch) {
  extern __shared__ double staged[];
  const double* f = stage_radial(radial, n_r, staged);
  for (Index t = blockIdx.x * Index{blockDim.x} + threadIdx.x; t < components * n; t += Index{gridDim.x} * blockDim.x)
    sweep::radial_filter_point(f, n_r, n, map, scratch, t);
}

// Shared memory for the matrices, in doubles: the largest single matrix (the phi DFTs) that fits in what this
// device allows per block; a larger one (the dense angular matrix) is read through the cache, and reserving room
// it cannot use would only cost occupancy. The per-m blocks are read through the cache too: staging them all
// (110 KB at 10 x 19 x 38) left one block per SM.
Index staged_capacity(const ShellGradientPlan& plan, Index buffer_bytes) {
  int device = 0, optin = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&device));
  LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const Index room = std::max<Index>(0, (Index{optin} - buffer_bytes) / Index{sizeof(double)});
  Index largest = 0;
  for (const AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k) {
      const Index size = q->steps[k].shape.n_in * q->steps[k].shape.n_out;
      if (q->steps[k].blocks == 1 && size <= room) largest = std::max(largest, size);
    }
  return largest;
}

// Raises the angular kernel's dynamic shared memory limit when a plan needs more than any before (an attribute
// of the function, so only ever raised).
void allow_shared(Index bytes) {
  static Index allowed = 48 * 1024;
  if (bytes <= allowed) return;
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(angular_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

// Threads per block: enough for the step with the most row groups.
unsigned angular_threads(const ShellGradientPlan& plan) {
  Index tasks = 32;
  for (const AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k) {
      const AxisShape& a = q->steps[k].shape;
      tasks = std::max(tasks, a.inner / plan.n_r * ((a.n_out + sweep::rows_per_lane - 1) / sweep::rows_per_lane) *
                                  a.outer);
    }
  return static_cast<unsigned>(std::min<Index>(1024, (tasks + 31) / 32 * 32));
}

constexpr int radial_threads = 256;

void launch_angular(const ShellGradientPlan& plan, const ShellLaunch& launch, const sweep::ComponentMap& map,
                    double* scratch) {
  const dim3 blocks(static_cast<unsigned>(plan.n_r), static_cast<unsigned>(map.components()));
  angular_kernel<<<blocks, launch.threads, static_cast<std::size_t>(launch.shared_bytes)>>>(
      plan, launch.buffer, launch.capacity, map, map.components(), scratch);
  LOOM_CUDA_CHECK_LAUNCH();
}

unsigned radial_grid(const ShellGradientPlan& plan, Index components) {
  const Index total = plan.n_r * plan.angular_points * components;
  return static_cast<unsigned>(std::min<Index>((total + radial_threads - 1) / radial_threads, 8192));
}

std::size_t radial_bytes(const ShellGradientPlan& plan) {
  return static_cast<std::size_t>(plan.n_r * plan.n_r) * sizeof(double);
}

}  // namespace

ShellLaunch shell_launch(const ShellGradientPlan& plan) {
  ShellLaunch l;
  l.separable = sweep::separable_route(plan);
  if (l.separable) {
    allow_separable_shared(sweep::spectral_shared(*l.separable) * Index{sizeof(double)});
    return l;
  }
  LOOM_REQUIRE(shell_sweep_fits(plan), "shell_launch: the shell's buffers exceed shared memory");
  l.buffer = shell_sweep_buffer(plan);
  const Index buffer_bytes = 4 * l.buffer * Index{sizeof(double)};
  l.capacity = staged_capacity(plan, buffer_bytes);
  l.shared_bytes = buffer_bytes + l.capacity * Index{sizeof(double)};
  l.threads = angular_threads(plan);
  allow_shared(l.shared_bytes);
  return l;
}

void shell_gradient(const ShellGradientPlan& plan, const ShellLaunch& launch, const sweep::ComponentMap& map,
                    const double* jacobian, double* scratch) {
  if (launch.separable) return separable_shell(*launch.separable, map, jacobian, scratch);
  launch_angular(plan, launch, map, scratch);
  const Index components = map.components();
  radial_gradient_kernel<<<radial_grid(plan, components), radial_threads, radial_bytes(plan)>>>(
      plan.radial, plan.n_r, plan.n_r * plan.angular_points, components, jacobian, map, scratch);
  LOOM_CUDA_CHECK_LAUNCH();
}

void shell_filter(const ShellGradientPlan& plan, const ShellLaunch& launch, const sweep::ComponentMap& map,
                  double* scratch) {
  if (launch.separable) return separable_shell(*launch.separable, map, nullptr, scratch);
  launch_angular(plan, launch, map, scratch);
  const Index components = map.components();
  radial_filter_kernel<<<radial_grid(plan, components), radial_threads, radial_bytes(plan)>>>(
      plan.radial, plan.n_r, plan.n_r * plan.angular_points, components, map, scratch);
  LOOM_CUDA_CHECK_LAUNCH();
}

void shell_gradient(const ShellGradientPlan& plan, Index components, const double* jacobian, const double* in,
                    double* scratch, double* out) {
  sweep::ComponentMap map;
  map.in[0] = in;
  map.out[0] = out;
  map.first[1] = components;
  map.parts = 1;
  shell_gradient(plan, shell_launch(plan), map, jacobian, scratch);
}

}  // namespace loom::spectral::gpu
