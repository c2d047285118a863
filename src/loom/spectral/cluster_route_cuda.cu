// The cluster route's kernel (cluster_route.hpp; the steps in cluster_shell.hpp, shared with the CPU form): one
// launch for the gradient of every component, a cluster of cluster::blocks blocks per `components` components,
// the steps separated by block and cluster barriers, the peers' shared memory read through sm_90's distributed
// shared memory.
#include <cooperative_groups.h>

#include <algorithm>

#include "loom/core/cuda_check.cuh"
#include "loom/spectral/cluster_route.hpp"

namespace loom::spectral::gpu {

namespace {

namespace cg = cooperative_groups;

// The cluster's shared memory by rank: a mapped address per access (no array of pointers in local memory).
struct DevicePeers {
  double* own;
  __host__ __device__ double* at(int rank) const {
#if defined(__CUDA_ARCH__)
    return cg::this_cluster().map_shared_rank(own, rank);
#else
    return rank >= 0 ? nullptr : own;
#endif
  }
};

// Threads per block: 256 with two blocks per SM (at most 128 registers), or 512 with one.
template <int threads>
__global__ void __cluster_dims__(cluster::blocks, 1, 1) __launch_bounds__(threads, 512 / threads)
    cluster_kernel(cluster::Plan p, sweep::ComponentMap map, const double* jacobian) {
  extern __shared__ double shared[];
  cg::cluster_group group = cg::this_cluster();
  const int b = static_cast<int>(group.block_rank());
  const DevicePeers peers{shared};
  const Index c0 = Index{blockIdx.x / cluster::blocks} * p.components;
  const sweep::Lanes lanes{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x)};
  cluster::load(p, map, c0, b, shared, lanes);
  cluster::stage_wait();
  __syncthreads();
  cluster::half_sums(p, b, shared, lanes);
  __syncthreads();
  cluster::forward(p, b, shared, lanes);
  group.sync();  // every block's G is complete
  cluster::gather_coefficients(p, b, peers, shared, lanes);
  __syncthreads();
  cluster::per_q(p, b, shared, lanes);
  group.sync();  // every block's H is complete, and no block reads G any more
  cluster::gather_derivatives(p, b, peers, shared, lanes);
  group.sync();  // no block reads H any more (nor leaves while its H may be read)
  cluster::inverse(p, b, shared, lanes);
  __syncthreads();
  cluster::radial_chain(p, map, c0, jacobian, b, shared, lanes);
}

// Raises a kernel's dynamic shared-memory limit when a plan needs more than any before.
template <int threads>
void allow_shared(Index bytes) {
  static Index allowed = 48 * 1024;
  if (bytes <= allowed) return;
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(cluster_kernel<threads>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

template <int threads>
void launch(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian, Index clusters) {
  const Index bytes = Index{p.shared} * Index{sizeof(double)};
  allow_shared<threads>(bytes);
  const auto grid = static_cast<unsigned>(clusters * cluster::blocks);
  cluster_kernel<threads><<<grid, threads, static_cast<std::size_t>(bytes)>>>(p, map, jacobian);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace

void cluster_gradient(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian) {
  const Index clusters = (map.components() + p.components - 1) / p.components;
  if (clusters == 0) return;
  LOOM_REQUIRE(p.threads == 256 || p.threads == 512, "cluster route: 256 or 512 threads per block");
  if (p.threads == 512) return launch<512>(p, map, jacobian, clusters);
  launch<256>(p, map, jacobian, clusters);
}

}  // namespace loom::spectral::gpu
