// CPU ceilings: STREAM-style copy and triad on all cores, FMA throughput with enough independent chains to
// fill the vector units, and OpenBLAS DGEMM (one large, and many small ones in parallel).
#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include <memory>
#include <random>
#include <vector>

#include "loom/core/host_memory.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/ceilings.hpp"

namespace loom::perf {
namespace {

struct HostDeleter {
  void operator()(double* p) const { core::free_host(p); }
};
using HostDoubles = std::unique_ptr<double[], HostDeleter>;

HostDoubles first_touched(std::size_t n, double value) {
  HostDoubles a(static_cast<double*>(core::allocate_host(n * sizeof(double))));
  double* p = a.get();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) p[i] = value + 1e-9 * static_cast<double>(i % 1000);
  return a;
}

// Vector width of the build's target, in bytes, to size the number of independent FMA chains.
#if defined(__AVX512F__)
constexpr int simd_bytes = 64;
#elif defined(__AVX__)
constexpr int simd_bytes = 32;
#else
constexpr int simd_bytes = 16;
#endif

// Explicit vector types (GCC/Clang vector extensions) so the measurement does not depend on the optimiser
// choosing to vectorise: `vectors` independent chains of SIMD-register-wide FMAs per thread cover the FMA latency
// times the number of FMA ports.
template <class Real>
struct SimdVector;
template <>
struct SimdVector<double> {
  typedef double type __attribute__((vector_size(simd_bytes)));
};
template <>
struct SimdVector<float> {
  typedef float type __attribute__((vector_size(simd_bytes)));
};

template <class Real>
Ceiling fma_rate(const CeilingOptions& options, const char* name) {
  using Vector = typename SimdVector<Real>::type;
  constexpr int lanes = simd_bytes / static_cast<int>(sizeof(Real));
  constexpr int vectors = 12;
  const long iterations = 1 << 20;
  const int threads = omp_get_max_threads();
  std::vector<Real> sink(static_cast<std::size_t>(threads));
  auto run = [&] {
    core::WallTimer t;
#pragma omp parallel
    {
      Vector acc[vectors];
      for (int j = 0; j < vectors; ++j)
        for (int l = 0; l < lanes; ++l) acc[j][l] = Real(1) + Real(j * lanes + l) * Real(1e-3);
      const Vector a = Vector{} + Real(0.999999), b = Vector{} + Real(1e-6);
      for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
        for (int j = 0; j < vectors; ++j) acc[j] = acc[j] * a + b;  // contracted to one FMA (-ffp-contract=fast)
      }
      Real s = 0;
      for (int j = 0; j < vectors; ++j)
        for (int l = 0; l < lanes; ++l) s += acc[j][l];
      sink[static_cast<std::size_t>(omp_get_thread_num())] = s;
    }
    return t.seconds();
  };
  Ceiling c;
  c.name = name;
  c.metric = Metric::flops;
  c.work.flops = 2.0 * vectors * lanes * static_cast<double>(iterations) * threads;
  c.time = time_repeated(options.warmup, options.repeats, run);
  c.value = c.work.flops / c.time.median;
  c.detail = fmt::format("{} threads x {} chains of {}-byte vectors, checksum {:.3g}", threads, vectors, simd_bytes,
                         static_cast<double>(sink[0]));
  return c;
}

std::vector<double> random_matrix(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> m(n);
  for (auto& x : m) x = u(rng);
  return m;
}

}  // namespace

std::vector<Ceiling> measure_cpu_ceilings(const CeilingOptions& options) {
  std::vector<Ceiling> out;
  const int threads = omp_get_max_threads();
  {  // streaming bandwidth: bytes read plus written; write-allocate traffic is not counted (STREAM's rule)
    const std::size_t n = static_cast<std::size_t>(options.stream_bytes / 4 / sizeof(double));
    auto a = first_touched(n, 0.0), b = first_touched(n, 1.0), c = first_touched(n, 2.0);
    double *pa = a.get(), *pb = b.get(), *pc = c.get();
    const double scalar = 3.0;
    Ceiling copy;
    copy.name = "copy";
    copy.work.bytes = 2.0 * n * sizeof(double);
    copy.time = time_repeated(options.warmup, options.repeats, [&] {
      core::WallTimer t;
#pragma omp parallel for simd schedule(static)
      for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i];
      return t.seconds();
    });
    copy.value = copy.work.bytes / copy.time.median;
    copy.detail = fmt::format("{:.0f} MiB per array, {} threads", n * 8.0 / (1 << 20), threads);
    out.push_back(copy);

    Ceiling triad = copy;
    triad.name = "triad";
    triad.work.bytes = 3.0 * n * sizeof(double);
    triad.time = time_repeated(options.warmup, options.repeats, [&] {
      core::WallTimer t;
#pragma omp parallel for simd schedule(static)
      for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i] + scalar * pc[i];
      return t.seconds();
    });
    triad.value = triad.work.bytes / triad.time.median;
    out.push_back(triad);
  }
  if (options.stream_only) return out;
  out.push_back(fma_rate<double>(options, "fma_fp64"));
  out.push_back(fma_rate<float>(options, "fma_fp32"));
  {  // one large DGEMM on all cores through OpenBLAS
    const int n = std::max(64, options.gemm_n / 2);
    auto A = random_matrix(std::size_t(n) * n, 1), B = random_matrix(std::size_t(n) * n, 2);
    std::vector<double> C(std::size_t(n) * n, 0.0);
    Ceiling g;
    g.name = "dgemm";
    g.metric = Metric::flops;
    g.work.flops = 2.0 * n * n * double(n);
    g.work.bytes = 3.0 * n * n * sizeof(double);
    g.time = time_repeated(options.warmup, options.repeats, [&] {
      core::WallTimer t;
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, C.data(),
                  n);
      return t.seconds();
    });
    g.value = g.work.flops / g.time.median;
    g.detail = fmt::format("n = {}, OpenBLAS {} threads", n, openblas_get_num_threads());
    out.push_back(g);
  }
  {  // many small DGEMMs: one single-threaded OpenBLAS call per matrix, matrices spread over the cores
    const int m = options.batch_n;
    const int count = options.batch_count;
    const std::size_t stride = std::size_t(m) * m;
    auto A = random_matrix(stride * count, 3), B = random_matrix(stride * count, 4);
    std::vector<double> C(stride * count, 0.0);
    const int blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    Ceiling g;
    g.name = "dgemm_batched";
    g.metric = Metric::flops;
    g.work.flops = 2.0 * m * m * double(m) * count;
    g.work.bytes = 3.0 * double(stride) * count * sizeof(double);
    g.time = time_repeated(options.warmup, options.repeats, [&] {
      core::WallTimer t;
#pragma omp parallel for schedule(static)
      for (int b = 0; b < count; ++b)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, A.data() + b * stride, m,
                    B.data() + b * stride, m, 0.0, C.data() + b * stride, m);
      return t.seconds();
    });
    openblas_set_num_threads(blas_threads);
    g.value = g.work.flops / g.time.median;
    g.detail = fmt::format("{} x ({}x{}) * ({}x{}), {} threads", count, m, m, m, m, threads);
    out.push_back(g);
  }
  return out;
}

}  // namespace loom::perf
