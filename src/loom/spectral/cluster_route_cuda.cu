// The cluster route's kernel (cluster_route.hpp; the steps in cluster_shell.hpp, shared with the CPU form): one
// launch for the gradient of every component, a cluster of cluster::blocks blocks per `components` components,
// the steps separated by block and cluster barriers, results stored straight into the peers' shared memory
// through sm_90's distributed shared memory. Built for an older architecture the kernel is empty and
// clusters_available() says no, so the route is never chosen there.
#include <cooperative_groups.h>

#include <algorithm>
#include <type_traits>

#include "loom/core/cuda_check.cuh"
#include "loom/spectral/cluster_strips.hpp"
#include "loom/spectral/cluster_route.hpp"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define LOOM_CLUSTER_DEVICE 1
#endif

namespace loom::spectral::gpu {

namespace {

namespace cg = cooperative_groups;

#if defined(LOOM_CLUSTER_DEVICE)
// The cluster's shared memory by rank: a mapped address per access (no array of pointers in local memory).
struct DevicePeers {
  double* own;
  __device__ double* at(int rank) const { return cg::this_cluster().map_shared_rank(own, rank); }
};
#endif

// With p.stamps: thread 0's clock at the block's phase k (slot 1 + k), after a block barrier so the phase is the
// whole block's; the global timer at the start (slot 0) and the end (slot stamp_slots - 1).
__device__ void stamp(const cluster::Plan& p, int k) {
  if (p.stamps == nullptr) return;
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned long long* at = p.stamps + blockIdx.x * cluster::stamp_slots;
  unsigned long long now = 0;
  if (k == 0 || k == cluster::stamp_phases - 1) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    at[k == 0 ? 0 : cluster::stamp_slots - 1] = now;
  }
  at[1 + k] = clock64();
}

#if defined(LOOM_CLUSTER_DEVICE)
// The block's shell in the table and its cluster's first component, found where used (the block index read by a
// volatile instruction, so nothing of it stays live in registers between the load and the chain rule: the 64-
// register kernels would spill).
struct ShellAt {
  const sweep::ComponentMap* map;
  const double* jacobian;
  const double* radial;
  Index c0;
};
__device__ ShellAt shell_at(const cluster::Shells& shells, int blocks, int components) {
  unsigned block = 0;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
  const Index k = block / blocks;
  const int s = shells.shell_of(k);
  return {&shells.map[s], shells.jacobian[s], shells.radial[s], shells.first_component(k, components)};
}
#endif

// The steps of one block (the kernel's body) with extents e (the plan's, or fixed at compile time) and register
// tiles T; its cluster's shell and components from the table (the shell's map stays in the parameter space).
template <class T, class E>
__device__ void run_block(const E& e, const cluster::Plan& p, const cluster::Shells& shells) {
#if defined(LOOM_CLUSTER_DEVICE)
  extern __shared__ double shared[];
  cg::cluster_group group = cg::this_cluster();
  const int b = static_cast<int>(group.block_rank());
  const DevicePeers peers{shared};
  const sweep::Lanes lanes{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x)};
  stamp(p, 0);
  // every block of the cluster has started before any stores into its shared memory
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
  {
    const ShellAt at = shell_at(shells, e.blocks, e.components);
    cluster::load(e, p, at.radial, *at.map, at.c0, b, shared, lanes);
    cluster::prefetch_jacobian(e, p, at.jacobian, b, lanes);
  }
  cluster::stage_wait();
  __syncthreads();
  cluster::half_sums(e, p, b, shared, lanes);
  __syncthreads();
  stamp(p, 1);
  asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
  stamp(p, 2);
  cluster::forward_step<T>(e, p, b, peers, shared, lanes);
  group.sync();  // every block's Y is complete
  stamp(p, 3);
  cluster::per_q_step<T>(e, p, b, peers, shared, lanes);
  __syncthreads();  // this block's per-q matrices are dead: the inverse matrices take their place
  cluster::load_inverse(e, p, shared, lanes);
  group.sync();  // every block's Z is complete (and no block stores into another any more)
  cluster::stage_wait();
  __syncthreads();
  stamp(p, 4);
  cluster::inverse_step<T>(e, p, b, shared, lanes);
  __syncthreads();
  stamp(p, 5);
  const ShellAt at = shell_at(shells, e.blocks, e.components);
  cluster::radial_chain(e, p, *at.map, at.c0, at.jacobian, b, shared, lanes);
  stamp(p, 6);
#else
  (void)e, (void)p, (void)shells;
#endif
}

// `threads` per block and `per_sm` blocks per SM (65536 / (threads per_sm) registers); E: the extents; T: the
// register tiles. The shells' table is a __grid_constant__ parameter: indexed by the cluster's shell in place,
// never copied to local memory.
template <int threads, int per_sm, class E, class T>
__global__ void __launch_bounds__(threads, per_sm)
    cluster_kernel(cluster::Plan p, const __grid_constant__ cluster::Shells shells) {
  if constexpr (E::fixed)
    run_block<T>(E{}, p, shells);
  else
    run_block<T>(p, p, shells);
}
static_assert(sizeof(cluster::Plan) + sizeof(cluster::Shells) <= 4096, "the kernel's parameters fit in 4 KB");

// Raises a kernel's dynamic shared-memory limit when a plan needs more than any before.
template <int threads, int per_sm, class E, class T>
void allow_shared(Index bytes) {
  static Index allowed = 48 * 1024;
  if (bytes <= allowed) return;
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(cluster_kernel<threads, per_sm, E, T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

// The launch configuration of a plan: clusters of p.blocks blocks, its dynamic shared memory.
struct Launch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attribute{};
  Launch(const cluster::Plan& p, Index clusters, int threads) {
    config.gridDim = dim3(static_cast<unsigned>(clusters * p.blocks));
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(p.shared) * sizeof(double);
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(p.blocks);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
};

// use(kernel, threads) with the kernel instance of extents E and tiles T for the plan's threads and blocks per SM,
// its shared-memory limit raised to the plan's.
template <class E, class T, class Use>
void with_kernel(const cluster::Plan& p, const Use& use) {
  const auto go = [&](auto kernel, int threads, auto allow) {
    allow(Index{p.shared} * Index{sizeof(double)});
    use(kernel, threads);
  };
  if constexpr (std::is_same_v<T, cluster::Narrow>) {
    go(cluster_kernel<256, 4, E, T>, 256, allow_shared<256, 4, E, T>);
  } else if constexpr (std::is_same_v<T, cluster::Mma>) {
    go(cluster_kernel<256, 2, E, T>, 256, allow_shared<256, 2, E, T>);
  } else if constexpr (cluster::is_strips<T>) {
    go(cluster_kernel<T::threads, T::per_sm, E, T>, T::threads, allow_shared<T::threads, T::per_sm, E, T>);
  } else {
    if (p.threads == 512) return go(cluster_kernel<512, 1, E, T>, 512, allow_shared<512, 1, E, T>);
    go(cluster_kernel<256, 2, E, T>, 256, allow_shared<256, 2, E, T>);
  }
}

template <class Use>
void with_plan_kernel(const cluster::Plan& p, const Use& use) {
  cluster::with_extents(p, [&](const auto& e, auto tiles) { with_kernel<std::decay_t<decltype(e)>, decltype(tiles)>(p, use); });
}

}  // namespace

namespace {
bool clusters_disabled = false;
}  // namespace

void disable_clusters(bool disabled) { clusters_disabled = disabled; }

bool clusters_available() {
  if (clusters_disabled) return false;
  static const bool available = [] {
    int device = 0, launch = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return false;
    if (cudaDeviceGetAttribute(&launch, cudaDevAttrClusterLaunch, device) != cudaSuccess || launch == 0) return false;
    // the kernel's code for this device must be sm_90 or later (a build for sm_80 compiles an empty body)
    cudaFuncAttributes attributes{};
    const auto kernel = cluster_kernel<256, 2, cluster::Plan, cluster::Wide>;
    if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess) return false;
    return attributes.binaryVersion >= 90 && attributes.ptxVersion >= 90;
  }();
  return available;
}

void cluster_gradient(const cluster::Plan& p, const cluster::Shells& shells) {
  const Index clusters = shells.clusters();
  if (clusters == 0) return;
  LOOM_REQUIRE(cluster::valid_launch(p.threads, p.per_sm, p.tensor_cores, p.strips), cluster::launch_rule);
  LOOM_REQUIRE(clusters_available(), "cluster route: needs an sm_90 device and a build for it");
  with_plan_kernel(p, [&](auto kernel, int threads) {
    Launch l(p, clusters, threads);
    LOOM_CUDA_CHECK(cudaLaunchKernelEx(&l.config, kernel, p, shells));
    LOOM_CUDA_CHECK_LAUNCH();
  });
}

void cluster_gradient(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian) {
  cluster_gradient(p, shell_table(p, {&map, 1}, {&jacobian, 1}));
}

namespace {
__global__ void empty_cluster_kernel() {}
}  // namespace

void cluster_floor(const cluster::Plan& p, Index components) {
  const Index clusters = (components + p.components - 1) / p.components;
  if (clusters == 0) return;
  static Index allowed = 48 * 1024;
  const Index bytes = Index{p.shared} * Index{sizeof(double)};
  if (bytes > allowed) {
    LOOM_CUDA_CHECK(cudaFuncSetAttribute(empty_cluster_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
    allowed = bytes;
  }
  with_plan_kernel(p, [&](auto, int threads) {  // the threads the gradient's kernel for the plan runs
    Launch l(p, clusters, threads);
    LOOM_CUDA_CHECK(cudaLaunchKernelEx(&l.config, empty_cluster_kernel));
    LOOM_CUDA_CHECK_LAUNCH();
  });
}

int max_active_clusters(const cluster::Plan& p) {
  if (!clusters_available()) return 0;
  int count = 0;
  with_plan_kernel(p, [&](auto kernel, int threads) {
    Launch l(p, 1, threads);
    LOOM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, kernel, &l.config));
  });
  return count;
}

}  // namespace loom::spectral::gpu
