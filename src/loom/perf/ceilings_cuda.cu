// GPU ceilings: copy and triad kernels with 16-byte accesses, FMA throughput kernels with independent chains
// per thread, and cuBLAS DGEMM (large, and strided-batched small matrices, as the spectral operators use).
// Inputs are pseudo-random, never zeros (zeros can run faster than real data). No fmt here: nvcc cannot
// evaluate fmt's consteval format checks.
#include <cublas_v2.h>
#include <string>

#include "loom/core/cuda_api.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/core/device_pool.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/ceilings.hpp"

namespace loom::perf {
namespace {

#define LOOM_CUBLAS_CHECK(call)                                                                      \
  do {                                                                                               \
    const cublasStatus_t s_ = (call);                                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                                                 \
      ::loom::throw_error(std::string(#call) + " failed: cuBLAS status " + std::to_string(int(s_)), \
                          __FILE__, __LINE__);                                                       \
  } while (0)

__global__ void fill_random(double* x, std::size_t n, unsigned long long seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = double(z >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  }
}

// Each thread moves `unroll` 16-byte elements per tile, all loads issued before the stores, so that enough bytes
// are in flight per SM to cover HBM latency.
constexpr int unroll = 4;

__global__ void copy_kernel(double2* __restrict__ dst, const double2* __restrict__ src, std::size_t n2) {
  const std::size_t tile = std::size_t(blockDim.x) * unroll;
  for (std::size_t base = blockIdx.x * tile; base < n2; base += std::size_t(gridDim.x) * tile) {
    double2 v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
      if (i < n2) v[u] = src[i];
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
      if (i < n2) dst[i] = v[u];
    }
  }
}

__global__ void triad_kernel(double2* __restrict__ a, const double2* __restrict__ b, const double2* __restrict__ c,
                             double s, std::size_t n2) {
  const std::size_t tile = std::size_t(blockDim.x) * unroll;
  for (std::size_t base = blockIdx.x * tile; base < n2; base += std::size_t(gridDim.x) * tile) {
    double2 x[unroll], y[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
      if (i < n2) {
        x[u] = b[i];
        y[u] = c[i];
      }
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
      if (i < n2) a[i] = make_double2(x[u].x + s * y[u].x, x[u].y + s * y[u].y);
    }
  }
}

constexpr int fma_chains = 8;

template <class Real>
__global__ void fma_kernel(Real* out, Real a, Real b, int iterations) {
  Real acc[fma_chains];
#pragma unroll
  for (int j = 0; j < fma_chains; ++j) acc[j] = Real(threadIdx.x) * Real(1e-3) + Real(j);
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int j = 0; j < fma_chains; ++j) acc[j] = fma(acc[j], a, b);
  }
  Real s = 0;
#pragma unroll
  for (int j = 0; j < fma_chains; ++j) s += acc[j];
  out[std::size_t(blockIdx.x) * blockDim.x + threadIdx.x] = s;
}

struct DeviceBuffer {  // pool-backed scratch for the measurements
  explicit DeviceBuffer(std::size_t bytes) : p(core::device_pool().allocate(bytes)) {}
  ~DeviceBuffer() { core::device_pool().deallocate(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(p); }
  void* p;
};

void randomize(double* x, std::size_t n, unsigned long long seed) {
  fill_random<<<1024, 256>>>(x, n, seed);
  LOOM_CUDA_CHECK_LAUNCH();
}

template <class Real>
Ceiling fma_rate(const CeilingOptions& options, const char* name, int sms) {
  const int threads = 256, blocks = sms * 8, iterations = 16384;
  DeviceBuffer out(std::size_t(blocks) * threads * sizeof(Real));
  core::Stopwatch watch(core::Backend::cuda);
  Ceiling c;
  c.backend = core::Backend::cuda;
  c.name = name;
  c.metric = Metric::flops;
  c.work.flops = 2.0 * fma_chains * double(iterations) * blocks * threads;
  c.time = time_repeated(options.warmup, options.repeats, [&] {
    watch.start();
    fma_kernel<Real><<<blocks, threads>>>(out.as<Real>(), Real(0.999999), Real(1e-6), iterations);
    LOOM_CUDA_CHECK_LAUNCH();
    return watch.stop();
  });
  c.value = c.work.flops / c.time.median;
  c.detail = std::to_string(blocks) + " blocks x " + std::to_string(threads) + " threads x " +
             std::to_string(fma_chains) + " chains";
  return c;
}

}  // namespace

std::vector<Ceiling> measure_cuda_ceilings(const CeilingOptions& options) {
  const auto info = cuda::device_info(cuda::current_device());
  const int sms = info.multiprocessors;
  std::vector<Ceiling> out;
  core::Stopwatch watch(core::Backend::cuda);
  const int launch_blocks = sms * 8, launch_threads = 256;
  {  // streaming bandwidth: bytes read plus written
    const std::size_t n = std::size_t(options.stream_bytes / sizeof(double)) / 2 * 2;
    DeviceBuffer a(n * 8), b(n * 8), c(n * 8);
    randomize(a.as<double>(), n, 1);
    randomize(b.as<double>(), n, 2);
    randomize(c.as<double>(), n, 3);
    Ceiling copy;
    copy.backend = core::Backend::cuda;
    copy.name = "copy";
    copy.work.bytes = 2.0 * n * sizeof(double);
    copy.time = time_repeated(options.warmup, options.repeats, [&] {
      watch.start();
      copy_kernel<<<launch_blocks, launch_threads>>>(a.as<double2>(), b.as<double2>(), n / 2);
      LOOM_CUDA_CHECK_LAUNCH();
      return watch.stop();
    });
    copy.value = copy.work.bytes / copy.time.median;
    copy.detail = std::to_string(n * 8 / (1 << 20)) + " MiB per array, double2 kernel";
    out.push_back(copy);

    Ceiling memcpy_copy = copy;  // the driver's copy engine path, for reference
    memcpy_copy.name = "copy_memcpy";
    memcpy_copy.time = time_repeated(options.warmup, options.repeats, [&] {
      watch.start();
      cuda::copy_device_to_device(a.p, b.p, n * sizeof(double));
      return watch.stop();
    });
    memcpy_copy.value = memcpy_copy.work.bytes / memcpy_copy.time.median;
    memcpy_copy.detail = std::to_string(n * 8 / (1 << 20)) + " MiB, cudaMemcpy device to device";
    out.push_back(memcpy_copy);

    Ceiling triad = copy;
    triad.name = "triad";
    triad.detail = std::to_string(n * 8 / (1 << 20)) + " MiB per array, double2 kernel";
    triad.work.bytes = 3.0 * n * sizeof(double);
    triad.time = time_repeated(options.warmup, options.repeats, [&] {
      watch.start();
      triad_kernel<<<launch_blocks, launch_threads>>>(a.as<double2>(), b.as<double2>(), c.as<double2>(), 3.0, n / 2);
      LOOM_CUDA_CHECK_LAUNCH();
      return watch.stop();
    });
    triad.value = triad.work.bytes / triad.time.median;
    out.push_back(triad);
  }
  if (options.stream_only) return out;
  out.push_back(fma_rate<double>(options, "fma_fp64", sms));
  out.push_back(fma_rate<float>(options, "fma_fp32", sms));

  cublasHandle_t handle = nullptr;
  LOOM_CUBLAS_CHECK(cublasCreate(&handle));
  struct HandleGuard {
    cublasHandle_t h;
    ~HandleGuard() { cublasDestroy(h); }
  } guard{handle};
  const double one = 1.0, zero = 0.0;
  {
    const int n = options.gemm_n;
    const std::size_t nn = std::size_t(n) * n;
    DeviceBuffer A(nn * 8), B(nn * 8), C(nn * 8);
    randomize(A.as<double>(), nn, 4);
    randomize(B.as<double>(), nn, 5);
    Ceiling g;
    g.backend = core::Backend::cuda;
    g.name = "dgemm";
    g.metric = Metric::flops;
    g.work.flops = 2.0 * double(n) * n * n;
    g.work.bytes = 3.0 * nn * sizeof(double);
    g.time = time_repeated(options.warmup, options.repeats, [&] {
      watch.start();
      LOOM_CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.as<double>(), n,
                                    B.as<double>(), n, &zero, C.as<double>(), n));
      return watch.stop();
    });
    g.value = g.work.flops / g.time.median;
    g.detail = "n = " + std::to_string(n) + ", cuBLAS";
    out.push_back(g);
  }
  {
    const int m = options.batch_n, count = options.batch_count;
    const long long stride = (long long)m * m;
    DeviceBuffer A(stride * count * 8), B(stride * count * 8), C(stride * count * 8);
    randomize(A.as<double>(), stride * count, 6);
    randomize(B.as<double>(), stride * count, 7);
    Ceiling g;
    g.backend = core::Backend::cuda;
    g.name = "dgemm_batched";
    g.metric = Metric::flops;
    g.work.flops = 2.0 * double(m) * m * m * count;
    g.work.bytes = 3.0 * double(stride) * count * sizeof(double);
    g.time = time_repeated(options.warmup, options.repeats, [&] {
      watch.start();
      LOOM_CUBLAS_CHECK(cublasDgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A.as<double>(), m,
                                                  stride, B.as<double>(), m, stride, &zero, C.as<double>(), m,
                                                  stride, count));
      return watch.stop();
    });
    g.value = g.work.flops / g.time.median;
    const std::string size = std::to_string(m) + "x" + std::to_string(m);
    g.detail = std::to_string(count) + " x (" + size + ") * (" + size + "), cublasDgemmStridedBatched";
    out.push_back(g);
  }
  return out;
}

}  // namespace loom::perf
