// Partitioning the bodies of all ranks by recursive multisection (the paper's section on partitioning): a
// domain shared by q parts is cut along its longest side into k slabs, k the smallest prime factor of q, at the
// coordinates that give each slab 1/k of the domain's weight, and each slab is cut again for q/k parts, until
// every part has its own box. The cut coordinates come from a parallel nth-element with no global sort: a few
// sample coordinates from every rank bracket the cut, exact global weights below the samples (MPI_Allreduce)
// narrow the bracket, until no body lies inside it. Weights are the bodies' costs (1 each: counts).
// The parts need not be the ranks: the model of many ranks (issue 22, item 5) partitions for P virtual ranks
// inside one process.
#pragma once

#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm::parallel {

// A half-open box [lower, upper).
struct Box {
  Vec3d lower, upper;
  bool contains(Vec3d x) const {
    for (int d = 0; d < 3; ++d)
      if (!(x[d] >= lower[d] && x[d] < upper[d])) return false;
    return true;
  }
};

struct Partition {
  std::vector<Box> domains;  // one per part; disjoint, together the bodies' bounding box
  std::vector<int> part;     // the part of each local body
};

// Collective over `comm`: every rank passes its own bodies and weights (weights empty: 1 each).
Partition multisection(const comm::Communicator& comm, std::span<const Vec3d> x, std::span<const double> weight,
                       int parts);

// The largest part's weight over the mean part's weight (1: balanced), from the parts' total weights.
double imbalance(std::span<const double> part_weight);

}  // namespace loom::fmm::parallel
