// The shell's whole gradient in two launches (gpu_apply.hpp, shell_gradient): the separable route's angular
// steps run in shared memory, one block per (radius, component), so the intermediate spectral coefficients never
// reach global memory; then one thread per value applies the radial derivative and the chain rule (DiffJac,
// eq. 8). The step-by-step route launches five matrix passes and DiffJac, each a round trip through global
// memory and a launch (about 98 us for a T_abb on 10 x 19 x 38, launch-bound; docs/performance.md).
#include <algorithm>
#include <array>
#include <string>

#include "loom/core/cuda_check.cuh"
#include "loom/core/error.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral::gpu {

namespace {

// Rows of a step's output one thread computes: each value of x read from shared memory serves all of them.
constexpr int rows_per_thread = 4;

// The dot products of one step. `a` is the block's transposed matrix (a[k n_out + row]); each thread computes
// rows_per_thread consecutive rows of one line, walking x and a by pointer increments.
template <class Matrix>
__device__ void dot_products(Matrix a_base, int matrix_stride, int inner, int n_in, int n_out, int outer,
                             const double* in, double* out, int stride) {
  const int groups = (n_out + rows_per_thread - 1) / rows_per_thread, tasks = inner * groups * outer;
  for (int task = threadIdx.x; task < tasks; task += blockDim.x) {
    const int i = task % inner, rest = task / inner, row0 = (rest % groups) * rows_per_thread, b = rest / groups;
    const int rows = min(rows_per_thread, n_out - row0);
    const double* x = in + b * inner * n_in + i;
    auto a = a_base + (b * matrix_stride + row0);
    double sum[rows_per_thread] = {};
    for (int k = 0; k < n_in; ++k, x += inner, a += n_out) {
      const double xk = *x;
#pragma unroll
      for (int j = 0; j < rows_per_thread; ++j)
        if (j < rows) sum[j] += a[j] * xk;
    }
#pragma unroll
    for (int j = 0; j < rows_per_thread; ++j)
      if (j < rows) out[(i + inner * (row0 + j + n_out * b)) * stride] = sum[j];
  }
}

// Reads a global matrix through the read-only cache (the per-m blocks, too large to stage).
struct CachedMatrix {
  const double* p;
  __device__ CachedMatrix operator+(int j) const { return {p + j}; }
  __device__ CachedMatrix& operator+=(int j) {
    p += j;
    return *this;
  }
  __device__ double operator[](int j) const { return __ldg(p + j); }
};

// One step of an angular sequence on the values of one radius: `inner` = shape.inner / n_r lines of the
// faster axes, n_in -> n_out along the step's axis, `outer` slower lines (each with its own matrix when
// blocks > 1). Output index o = i + inner (row + n_out b), written to out[o * stride]. The step's matrices are
// first staged in shared memory when they fit in `capacity` doubles: the dot products then wait on shared
// memory rather than on the cache for every term (profiled: the cached loads left the kernel latency-bound).
__device__ void angular_step(const AngularStep s, Index n_r, const double* in, double* out, Index stride,
                             double* staged, Index capacity) {
  const int inner = static_cast<int>(s.shape.inner / n_r), n_in = static_cast<int>(s.shape.n_in);
  const int n_out = static_cast<int>(s.shape.n_out), outer = static_cast<int>(s.shape.outer);
  const Index size = s.blocks * n_in * n_out;
  const int matrix_stride = s.blocks == 1 ? 0 : n_in * n_out, out_stride = static_cast<int>(stride);
  if (size <= capacity) {
    for (Index t = threadIdx.x; t < size; t += blockDim.x) staged[t] = __ldg(s.matrix + t);
    __syncthreads();
    dot_products(static_cast<const double*>(staged), matrix_stride, inner, n_in, n_out, outer, in, out, out_stride);
  } else {
    dot_products(CachedMatrix{s.matrix}, matrix_stride, inner, n_in, n_out, outer, in, out, out_stride);
  }
  __syncthreads();
}

struct Buffers {
  double *field, *first, *ping, *pong, *staged;
  Index capacity;
};

// Runs steps [first, count) of one sequence from `from`, through the two ping-pong buffers, the last step
// straight into global memory (stride n_r: the radius is the fastest index there).
__device__ void angular_sequence(const AngularSequence& q, int first, Index n_r, const double* from,
                                 const Buffers& b, double* global) {
  for (int k = first; k < q.count; ++k) {
    const bool last = k + 1 == q.count;
    double* to = last ? global : (k % 2 == 0 ? b.ping : b.pong);
    angular_step(q.steps[k], n_r, from, to, last ? n_r : 1, b.staged, b.capacity);
    from = to;
  }
}

// Block (r, c): the angular derivatives d_theta, d_phi of component c at radius r into scratch
// [(j - 1) N_e + c] N + r + n_r a (j = 1, 2). Shared memory: four buffers of `buffer` doubles, then the staged
// matrices (`capacity` doubles).
__global__ void __launch_bounds__(1024) angular_kernel(AngularSequence theta, AngularSequence phi, bool share_first,
                                                       Index n_r, Index angular_points, Index buffer, Index capacity,
                                                       Index components, const double* in, double* scratch) {
  extern __shared__ double shared[];
  const Buffers b{shared, shared + buffer, shared + 2 * buffer, shared + 3 * buffer, shared + 4 * buffer, capacity};
  const Index r = blockIdx.x, c = blockIdx.y, n = n_r * angular_points;
  for (Index a = threadIdx.x; a < angular_points; a += blockDim.x) b.field[a] = in[c * n + r + n_r * a];
  __syncthreads();
  double* d_theta = scratch + c * n + r;
  double* d_phi = scratch + (components + c) * n + r;
  if (share_first) angular_step(theta.steps[0], n_r, b.field, b.first, 1, b.staged, capacity);
  const double* start = share_first ? b.first : b.field;
  const int skip = share_first ? 1 : 0;
  angular_sequence(theta, skip, n_r, start, b, d_theta);
  angular_sequence(phi, skip, n_r, start, b, d_phi);
}

// Shared memory for the matrices, in doubles: the largest single matrix (the phi DFTs), within what this device
// allows per block. The per-m blocks are read through the cache instead: staging them all (110 KB at 10 x 19 x
// 38) left one block per SM.
// The device's shared memory per block (opt-in), queried once per device: the call is per time step.
int shared_optin() {
  static std::array<int, 64> optin{};
  int device = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&device));
  if (device >= static_cast<int>(optin.size())) device = 0;
  if (optin[device] == 0)
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&optin[device], cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return optin[device];
}

// Raises the angular kernel's dynamic shared memory limit when a call needs more than any before (an attribute
// of the function, so only ever raised; setting it costs microseconds per call otherwise).
void allow_shared(Index bytes) {
  static Index allowed = 48 * 1024;
  if (bytes <= allowed) return;
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(angular_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

Index staged_capacity(const ShellGradientPlan& plan, Index buffer_bytes) {
  const int optin = shared_optin();
  Index largest = 0;
  for (const AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k)
      if (q->steps[k].blocks == 1) largest = std::max(largest, q->steps[k].shape.n_in * q->steps[k].shape.n_out);
  return std::max<Index>(0, std::min(largest, (Index{optin} - buffer_bytes) / Index{sizeof(double)}));
}

// Threads per block: enough for the step with the most row groups.
unsigned angular_threads(const ShellGradientPlan& plan) {
  Index tasks = 32;
  for (const AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k) {
      const AxisShape& a = q->steps[k].shape;
      tasks = std::max(tasks, a.inner / plan.n_r * ((a.n_out + rows_per_thread - 1) / rows_per_thread) * a.outer);
    }
  return static_cast<unsigned>(std::min<Index>(1024, (tasks + 31) / 32 * 32));
}

// One thread per (component, point): d_r by the radial matrix (in shared memory), then the chain rule with the
// inverse Jacobian J [(3 i + j) N + p] (eq. 8), or the logical derivatives when J is null.
__global__ void radial_chain_kernel(const double* radial, Index n_r, Index n, Index components,
                                    const double* jacobian, const double* in, const double* scratch, double* out) {
  extern __shared__ double d_r[];
  for (Index t = threadIdx.x; t < n_r * n_r; t += blockDim.x) d_r[t] = radial[t];
  __syncthreads();
  const Index total = components * n;
  for (Index t = blockIdx.x * Index{blockDim.x} + threadIdx.x; t < total; t += Index{gridDim.x} * blockDim.x) {
    const Index c = t / n, p = t % n, r = p % n_r, line = p - r;
    const double* u = in + c * n + line;
    double d0 = 0;
    for (Index k = 0; k < n_r; ++k) d0 += d_r[r * n_r + k] * u[k];
    const double d1 = scratch[c * n + p], d2 = scratch[(components + c) * n + p];
    if (!jacobian) {
      out[c * n + p] = d0;
      out[(components + c) * n + p] = d1;
      out[(2 * components + c) * n + p] = d2;
      continue;
    }
    for (int i = 0; i < 3; ++i) {
      const double* J = jacobian + 3 * i * n + p;
      out[(i * components + c) * n + p] = J[0] * d0 + J[n] * d1 + J[2 * n] * d2;
    }
  }
}

}  // namespace

void shell_gradient(const ShellGradientPlan& plan, Index components, const double* jacobian, const double* in,
                    double* scratch, double* out) {
  LOOM_REQUIRE(shell_gradient_fits(plan), "shell_gradient: the shell's buffers exceed shared memory");
  const Index buffer = shell_gradient_buffer(plan), buffer_bytes = 4 * buffer * Index{sizeof(double)};
  const Index capacity = staged_capacity(plan, buffer_bytes);
  const Index shared = buffer_bytes + capacity * Index{sizeof(double)};
  allow_shared(shared);
  const dim3 blocks(static_cast<unsigned>(plan.n_r), static_cast<unsigned>(components));
  const unsigned threads = angular_threads(plan);
  angular_kernel<<<blocks, threads, static_cast<std::size_t>(shared)>>>(plan.theta, plan.phi, plan.share_first,
                                                                        plan.n_r, plan.angular_points, buffer,
                                                                        capacity, components, in, scratch);
  LOOM_CUDA_CHECK_LAUNCH();
  const Index n = plan.n_r * plan.angular_points, total = n * components;
  const int radial_threads = 256;
  const auto grid = static_cast<unsigned>(std::min<Index>((total + radial_threads - 1) / radial_threads, 8192));
  const auto radial_bytes = static_cast<std::size_t>(plan.n_r * plan.n_r) * sizeof(double);
  radial_chain_kernel<<<grid, radial_threads, radial_bytes>>>(plan.radial, plan.n_r, n, components, jacobian, in, scratch,
                                                       out);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::gpu
