// The cluster route's device side in a build without CUDA: no clusters, and the entry throws (no device).
#include "loom/core/error.hpp"
#include "loom/spectral/cluster_route.hpp"

namespace loom::spectral::gpu {

bool clusters_available() { return false; }
void disable_clusters(bool) {}

void cluster_gradient(const cluster::Plan&, const sweep::ComponentMap&, const double*) {
  throw Error("spectral: this build has no CUDA (the cluster route's device side)");
}

void cluster_gradient(const cluster::Plan&, const cluster::Shells&) {
  throw Error("spectral: this build has no CUDA (the cluster route's device side)");
}

void cluster_floor(const cluster::Plan&, Index) {
  throw Error("spectral: this build has no CUDA (the cluster route's device side)");
}

int max_active_clusters(const cluster::Plan&) { return 0; }

}  // namespace loom::spectral::gpu
