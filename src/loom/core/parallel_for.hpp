// core::parallel_for(backend, n, body) runs body(i) for i in [0, n): an OpenMP loop on the CPU backend, a CUDA
// kernel on the CUDA backend. The body is a LOOM_HOST_DEVICE functor or lambda capturing by value (pointers
// from Array::read/write for the backend's side). core::parallel_sum does the same for a sum of body(i),
// deterministically for a given backend, size and thread count; core::parallel_max for the largest body(i).
//
// A file that calls these with Backend::cuda must be compiled by nvcc: list it with loom_backend_sources() in
// CMake (it stays a plain C++ file in CPU-only builds). Compiled by the host compiler, the CUDA branch throws.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/host_device.hpp"

#if defined(__CUDACC__)
#include "loom/core/parallel_for_cuda.cuh"
#endif

namespace loom::core {

namespace detail {
[[noreturn]] inline void cuda_loop_not_compiled(const char* what) {
  throw Error(std::string(what) + " with Backend::cuda in a file compiled without nvcc: list the file with "
              "loom_backend_sources() in CMake, and build with CUDA");
}
}  // namespace detail

template <class Body>
void parallel_for(Backend backend, Index n, const Body& body) {
  if (n <= 0) return;
  if (backend == Backend::cpu) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i) body(i);
    return;
  }
#if defined(__CUDACC__)
  cuda_detail::launch_for(n, body);
#else
  detail::cuda_loop_not_compiled("parallel_for");
#endif
}

// Sum of body(i) over [0, n) in double precision. The CPU sums per-thread partials in thread order; the GPU
// reduces per-block partials in a fixed tree and adds the block results on the host in block order.
template <class Body>
double parallel_sum(Backend backend, Index n, const Body& body) {
  if (n <= 0) return 0.0;
  if (backend == Backend::cpu) {
    std::vector<double> partial(static_cast<std::size_t>(omp_get_max_threads()), 0.0);
#pragma omp parallel
    {
      double s = 0;
#pragma omp for schedule(static)
      for (Index i = 0; i < n; ++i) s += body(i);
      partial[static_cast<std::size_t>(omp_get_thread_num())] = s;
    }
    double total = 0;
    for (double s : partial) total += s;
    return total;
  }
#if defined(__CUDACC__)
  return cuda_detail::launch_sum(n, body);
#else
  detail::cuda_loop_not_compiled("parallel_sum");
#endif
}

// Largest body(i) over [0, n) (-infinity for an empty range); exact, hence reproducible, on every backend.
template <class Body>
double parallel_max(Backend backend, Index n, const Body& body) {
  if (n <= 0) return -HUGE_VAL;
  if (backend == Backend::cpu) {
    double m = -HUGE_VAL;
#pragma omp parallel for schedule(static) reduction(max : m)
    for (Index i = 0; i < n; ++i) m = std::max(m, double(body(i)));
    return m;
  }
#if defined(__CUDACC__)
  return cuda_detail::launch_max(n, body);
#else
  detail::cuda_loop_not_compiled("parallel_max");
#endif
}

}  // namespace loom::core
