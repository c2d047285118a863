// The cluster route's device side in a build without CUDA: the entry throws (no device to run on).
#include "loom/core/error.hpp"
#include "loom/spectral/cluster_route.hpp"

namespace loom::spectral::gpu {

void cluster_gradient(const cluster::Plan&, const sweep::ComponentMap&, const double*) {
  throw Error("spectral: this build has no CUDA (the cluster route's device side)");
}

}  // namespace loom::spectral::gpu
