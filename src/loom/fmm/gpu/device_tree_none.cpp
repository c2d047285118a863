// Builds without CUDA have no thrust: the backend tree and lists (device_tree.hpp, device_lists.hpp) refuse.
#include "loom/core/error.hpp"
#include "loom/fmm/gpu/device_lists.hpp"
#include "loom/fmm/gpu/device_tree.hpp"

namespace loom::fmm::gpu {
namespace {
[[noreturn]] void refuse() { throw UsageError("fmm: the tree on the backend needs a build with CUDA (thrust)"); }
}  // namespace

BackendTree build_tree(core::Backend, const Vec3d*, Index, int, int) { refuse(); }
double refit(BackendTree&, const Vec3d*, double) { refuse(); }
Index exclusive_scan_on(core::Backend, core::Array<Index>&, Index) { refuse(); }
Tree to_host_tree(const BackendTree&) { refuse(); }
BackendLists traverse_tree(const BackendTree&, const TraversalOptions&) { refuse(); }
core::Array<double> cell_max_sigma(const BackendTree&, const double*, bool) { refuse(); }
PairTargets pair_targets(core::Backend, const core::Array<Index>&, int) { refuse(); }
double p2p_interactions(const BackendTree&, const BackendLists&) { refuse(); }
void cell_work(const BackendTree&, const BackendLists&, std::vector<double>&, std::vector<double>&) { refuse(); }
InteractionLists to_host_lists(const BackendLists&) { refuse(); }

}  // namespace loom::fmm::gpu
