// The fast multipole method (the paper's section on the FMM): an adaptive multisection tree, P2M and M2M up
// the tree, a dual tree traversal collecting M2L and P2P pairs, the pairs evaluated in batches, L2L and L2P
// down the tree; on the CPU (OpenMP) or the GPU (CUDA, with single-precision P2P and M2L kernels). Kernels:
// Laplace potential and gradient, and the vortex method's Biot-Savart velocity and stretching with the
// Gaussian cutoff (near field regularised, far field from three expansions of alpha/r, the curl taken at L2P).
// Optional periodic images (3^3 near images in the traversal, further image levels through the multipoles).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/fmm/kernels/kernel.hpp"
#include "loom/fmm/precision.hpp"
#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/traversal.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm {

struct Options {
  int order = 10;      // p: expansions keep degrees n < p (p(p+1)/2 terms)
  double theta = 0.4;  // multipole acceptance criterion |dX| theta > R_A + R_B
  int ncrit = 64;      // most bodies per leaf
  core::Backend backend = core::Backend::cpu;
  Precision precision = Precision::single;  // CUDA backend: the P2P and M2L kernels' arithmetic (precision.hpp)
  int m2l_block = 0;   // CUDA backend: orders m of a local coefficient each M2L thread sums (1, 2, 4; 0: the default)
  double guard = 6.0;  // Biot-Savart: M2L only for cells also this many core radii sigma apart
  // Build the tree and the interaction lists on the backend (gpu/device_tree.hpp, gpu/device_lists.hpp: on the
  // GPU for the CUDA backend, the same code on the host's thrust for the CPU) instead of the host's multisection
  // and dual traversal; the same cells for bodies without ties, the same lists. Needs a CUDA build.
  bool tree_on_backend = false;
  // Periodic boundaries on a cube [box_lower, box_lower + period)^3 (every body must lie inside).
  bool periodic = false;
  double period = 0;
  Vec3d box_lower{};
  int image_levels = 6;  // further image levels beyond the 3^3 near images (each 3x larger)
  // Periodic: remove the surface terms of the cube-order lattice sum (the dipole's linear potential and the
  // constant from the second moment), giving Ewald's sums with tinfoil boundary. Periodic sums assume a
  // neutral system (sum q = 0; for Biot-Savart sum alpha = 0).
  bool tinfoil = true;
  bool operator==(const Options&) const = default;
};

// Checks the options (order in [1, max_order], theta in (0, 1), ncrit >= 1, ...); throws UsageError.
void validate(const Options& options);

// The CUDA M2L's orders per thread when Options::m2l_block is 0, for order p and `ncomp` expansions per cell
// (gpu/m2l.cu).
int default_m2l_block(int order, int ncomp);

// Seconds. build and traversal are the set-up: the tree once per set of positions, the interaction lists (on
// the GPU with sending them) once per tree for Laplace, and for Biot-Savart again whenever the cells' largest
// core radii change (the far-field guard depends on them); a call that reuses them reports the set-up's times
// again. The four phases are device time on the GPU; transfer is the strengths' upload and the results'
// download and reordering (on the GPU the reordering runs on the device; Biot-Savart's host pass over the core
// radii overlaps the upload and is counted with it); call is the wall time of the whole evaluation call (everything but
// the build). build_host is the part of build that Options::tree_on_backend spends on the host: the tree copied
// there and its arrays adopted (not a phase of its own: inside build).
struct Timings {
  double build = 0, upward = 0, traversal = 0, m2l = 0, p2p = 0, downward = 0, transfer = 0, call = 0;
  double build_host = 0;
  double evaluation() const { return upward + m2l + p2p + downward; }
  double total() const { return build + upward + traversal + m2l + p2p + downward + transfer; }
};

struct Statistics {
  Index bodies = 0;
  int cells = 0, leaves = 0, levels = 0;
  Index m2l_pairs = 0, p2p_pairs = 0;
  double p2p_interactions = 0;  // body-body interactions evaluated directly
};

struct LaplaceResult {
  std::vector<double> potential;  // phi_i = sum_{j != i} q_j / |x_i - x_j|
  std::vector<Vec3d> gradient;    // grad_{x_i} phi_i
  Timings time;
  Statistics stats;
};

struct BiotSavartResult {
  std::vector<Vec3d> velocity;    // u_i = (1/4pi) sum_j g(rho)/|r|^3 (alpha_j x r)
  std::vector<Vec3d> stretching;  // (alpha_i . grad) u (x_i)
  Timings time;
  Statistics stats;
};

namespace detail {
class ExtraSources;
}

// Per cell of a tree, the work of one kernel's interaction lists: the M2L pairs into it, and the sources each of
// its bodies meets by P2P (the source cells' body counts summed).
struct ListWork {
  std::vector<double> m2l, sources;
};

// An FMM over one set of bodies (sources and targets). The tree is built once by set_positions() and reused
// by every evaluation until the positions change (the vortex method reinitialises onto the same lattice).
class Evaluator {
 public:
  explicit Evaluator(Options options);
  ~Evaluator();
  Evaluator(Evaluator&&) noexcept;
  Evaluator& operator=(Evaluator&&) noexcept;

  void set_positions(std::span<const Vec3d> positions);
  // Options::tree_on_backend: the tree built there with the root cut in root_rounds (1..3) rounds of bisection
  // instead of three (gpu::build_tree), so that an elongated domain's root children are near-cubic pieces.
  void set_positions(std::span<const Vec3d> positions, int root_rounds);
  // The same with a tree built elsewhere over the positions (gpu/device_tree.hpp's, or a re-fitted one); the
  // build time reported is that of taking it over.
  void set_tree(Tree tree);
  LaplaceResult laplace(std::span<const double> charges);
  BiotSavartResult biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma);
  // The same into an earlier result, whose vectors keep their memory when the body count is unchanged: a time
  // stepper's repeated calls then write no freshly allocated pages (faulting in hundreds of MB of new pages,
  // on one thread, cost more than their transfer from the GPU).
  // extra: sources beyond these bodies whose field is added in the same passes (engine/extra_sources.hpp; the
  // FMM over ranks adds the received cells and bodies so); null: none.
  void laplace(std::span<const double> charges, LaplaceResult& result, detail::ExtraSources* extra = nullptr);
  void biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma, BiotSavartResult& result,
                   detail::ExtraSources* extra = nullptr);
  // The Gaussian RBF sum w_i = sum_j alpha_j zeta_sigma_j(x_i - x_j) (P2P only, pairs within cutoff * sigma).
  std::vector<Vec3d> gaussian_sum(std::span<const Vec3d> alpha, std::span<const double> sigma, double cutoff = 8);

  // A new expansion order, or GPU precision, keeping the tree and the interaction lists (they depend on neither).
  void set_order(int order);
  void set_precision(Precision precision);

  // Options::tree_on_backend on the CUDA backend: whether the interaction lists are also copied to the host, for
  // the extra sources that read them (detail::ExtraSources::after_upward: the ranks' body costs). Off by default:
  // the lists then go from the traversal to the passes on the device as they are, never through the host.
  void set_host_lists(bool host_lists);
  // Options::tree_on_backend: whether the tree's host form (tree()) holds its bodies' order and positions, from
  // the next set_positions on. On by default; off, tree() holds the cells alone (Tree::cells_only) and on the GPU
  // the bodies never cross to the host, for a caller that reads only the cells (the FMM over ranks on one rank).
  // The passes read the bodies from the engine's arrays either way.
  void set_host_bodies(bool host_bodies);
  // Options::tree_on_backend on the CUDA backend without host lists: whether each traversal also counts its
  // lists' work per cell on the device (list_work), for the ranks' body costs. Off by default.
  void set_list_work(bool list_work);
  // The work of kernel k's lists as the last evaluation used them, when counted (set_list_work); else null.
  const ListWork* list_work(Kernel k) const;

  const Tree& tree() const;
  const Options& options() const;

  struct State;  // (named by the evaluator's helpers)

 private:
  std::unique_ptr<State> s_;
};

// One-shot conveniences.
LaplaceResult laplace(std::span<const Vec3d> positions, std::span<const double> charges, const Options& options);
BiotSavartResult biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha,
                             std::span<const double> sigma, const Options& options);

}  // namespace loom::fmm
