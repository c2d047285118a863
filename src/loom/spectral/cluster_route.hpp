// The cluster route of the separable shell gradient (cluster_shell.hpp holds its arithmetic): built once from the
// separable route's matrices (Fourier coefficients reordered by parity, the DFT matrices halved, the per-m theta
// matrices of coefficients that share one stored once), then run by one kernel launch on the device
// (cluster_route_cuda.cu) or by its CPU form, which the tests compare with the FFT reference.
#pragma once

#include <optional>
#include <span>

#include "loom/core/array.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/cluster_shell.hpp"
#include "loom/spectral/shell_separable.hpp"

namespace loom::spectral {

// How the route runs: `threads` per block and a kernel built for `per_sm` blocks per SM (256 threads with 2 or 4,
// or 512 with 1), the products on the FP64 tensor cores (256 threads, 2 per SM) or as register tiles, the shared
// rows padded against bank conflicts or not, `blocks` (1..8) blocks per cluster, the radial derivative from
// the blocks' own input in shared memory (lines split by whole theta columns; with the tensor cores) or not, the
// tensor-core products in strips (cluster_strips.hpp; kernels for 256 threads and 3 or 4 blocks per SM, 512
// threads and 2, or 1024 and 1) or one tile per warp.
struct ClusterOptions {
  int threads = 256, per_sm = 2;
  bool tensor_cores = false, padded = false;
  int blocks = cluster::max_blocks;
  bool shared_radial = false;
  bool strips = false;
  bool prefetch_jacobian = false;  // the block's inverse Jacobian into L2 at the start
  // the Fourier coefficients split between blocks at b n_phi / blocks even inside a matrix group (cos and sin of
  // one m): both blocks stage the group's matrices, the largest block's count falls to ceil(n_phi / blocks)
  bool split_groups = false;
};

class ClusterShell {
 public:
  // The route of a separable gradient plan whose matrices are host pointers, with `components` components per
  // cluster; none when a phi DFT lacks the half-period symmetry or a block would need more than `max_shared`
  // bytes of shared memory.
  static std::optional<ClusterShell> make(const sweep::Separable& host, int components, Index max_shared,
                                          const ClusterOptions& options = {});

  // Shared bytes per block at most, from the shapes alone (every q its own matrix group): what `supports` needs
  // before any matrix exists.
  static Index shared_bound(Index n_r, Index n_theta, Index n_phi, int components,
                            const ClusterOptions& options = {});
  // How the route runs by default (the fastest variant measured on the H200, docs/performance.md) and the
  // components per cluster for a call of `total` components with it: two when that still gives every SM a
  // block (two blocks of about 100 KB fit an SM), else one.
  static ClusterOptions default_options();
  static int components_for(Index total);
  // The route the strategy runs for a call of `total` components: for 33 or more, on one shell two components
  // per cluster of 8 on the tensor cores in strips with padded rows and split groups on blocks of 512 threads,
  // for launches of 2 or more shells one component per cluster of 8 in strips at four blocks per SM with split
  // groups (the fastest variants measured, docs/performance.md, fourteenth session), then the next fastest,
  // where it fits and a compiled fixed instance runs it; else default_options() with components_for(total) (or
  // fewer components where that does not fit). None when nothing fits. `shells`: the shells of one launch
  // (cluster::Shells), for candidates measured best only from some number of shells on.
  static std::optional<ClusterShell> make_default(const sweep::Separable& host, Index total, Index max_shared,
                                                  int shells = 1);
  // The shells of one launch that make_default treats alike with `shells` (the largest candidate threshold not
  // above it): a plan kept for one launch size serves every size of the same class.
  static int shell_class(int shells);

  // The plan with the matrices on side w (uploaded on the first device call).
  const cluster::Plan& plan(core::Where w) const;
  int components() const { return shapes_.components; }

 private:
  ClusterShell() = default;
  cluster::Plan shapes_;  // no pointers
  core::Array<double> radial_, forward_, inverse_, per_q_;
  core::Array<int> group_q_, group_of_;
  mutable cluster::Plan host_, device_;
  mutable bool device_ready_ = false;
};

// Minimal traffic and flops of the route's gradient of `components` components on n_r x n_theta x n_phi points
// (with the chain rule when `cartesian`): the input, the outputs and the inverse Jacobian once; the halved DFTs,
// the per-m theta products, the radial derivative and eq. 8.
perf::Work cluster_gradient_work(Index n_r, Index n_theta, Index n_phi, Index components, bool cartesian);

// The table of shells for one launch of plan p: maps[s], jacobians[s] (null: the logical gradient) and radials[s]
// (the radial matrix of shell s's own plan, on the plan's side; none: p's for every shell) of each shell, at most
// cluster::max_shells, every map of the same number of components.
cluster::Shells shell_table(const cluster::Plan& p, std::span<const sweep::ComponentMap> maps,
                            std::span<const double* const> jacobians, std::span<const double* const> radials = {});

namespace cpu {
// Every cluster's blocks one step at a time, one lane, the clusters in the kernel's order (jacobian null: the
// logical gradient).
void cluster_gradient(const cluster::Plan& p, const cluster::Shells& shells);
void cluster_gradient(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian);
}  // namespace cpu

namespace gpu {
// Whether this device runs thread-block clusters and this build holds the kernel's sm_90 code (false after
// disable_clusters(true): the tests' stand-in for an older device).
bool clusters_available();
void disable_clusters(bool disabled);
// One launch: map.components() / p.components clusters (rounded up) of p.blocks blocks. Device pointers.
void cluster_gradient(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian);
// One launch for every shell of the table: shells.clusters() clusters (the launch's fixed cost paid once, and
// count times the blocks to spread over the SMs).
void cluster_gradient(const cluster::Plan& p, const cluster::Shells& shells);
// An empty kernel launched as cluster_gradient launches the plan (same grid, clusters, threads and dynamic shared
// memory): the fixed cost of the launch, which the gradient's single call cannot go below.
void cluster_floor(const cluster::Plan& p, Index components);
// How many of the plan's clusters the device holds at once (cudaOccupancyMaxActiveClusters; 0 where clusters do
// not run): fewer than the call's clusters means a second wave.
int max_active_clusters(const cluster::Plan& p);
}  // namespace gpu

}  // namespace loom::spectral
