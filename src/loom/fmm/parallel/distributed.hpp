// The FMM over the bodies of all ranks (issue 22): each rank holds some of the bodies (after multisection.hpp's
// partitioning, so that its domain is compact) and gets the sums over all bodies at its own. Each rank builds
// its tree and multipoles, selects the local essential tree every other rank needs (let.hpp) and posts the
// exchange (MPI_Ialltoallv); the local FMM (Evaluator, on the options' backend) runs its upward pass and M2L
// while the LETs are in flight; then the received cells and bodies join its evaluation as extra sources
// (received_sources.hpp: their M2L into its locals, their P2P into its near field, on its backend). Periodic boundaries: each rank
// sends the LETs of its tree's 27 near images (shifted, let.hpp) to every other rank, and runs its local FMM
// with its own 27 images but no far images; the far images of the whole box come from the box's moments summed
// over the ranks (MPI_Allreduce) and are added with the received cells (engine/periodic_images.hpp).
#pragma once

#include <span>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/received_sources.hpp"

namespace loom::fmm::parallel {

// One rank's view of one evaluation: seconds per phase, and what it sent and received.
struct RankReport {
  double let_build = 0;      // tree, multipoles and the LETs selected for the other ranks
  double communication = 0;  // the exchange of counts and the wait for the LETs after the local M2L
  double local = 0;          // the local FMM (its phases in local_time)
  double remote = 0;         // the received cells' field: parsing, walk, far and near parts (remote_time)
  ReceivedTimes remote_time;
  Timings local_time;
  Statistics local_stats;  // the local FMM's pairs and direct interactions (remote_pairs: the received ones)
  Index bodies = 0, let_cells_sent = 0, let_bodies_sent = 0, let_cells_received = 0, let_bodies_received = 0;
  double let_doubles_sent = 0;
  LetFieldCounts remote_pairs;
};

// Collective over `comm`: the sums over every rank's bodies at this rank's bodies, in this rank's order; with
// `cost`, every body's cost (body_cost.hpp) for the next partitioning.
LaplaceResult laplace(const comm::Communicator& comm, const Options& options, std::span<const Vec3d> x,
                      std::span<const double> charges, RankReport* report = nullptr, BodyCost* cost = nullptr);
BiotSavartResult biot_savart(const comm::Communicator& comm, const Options& options, std::span<const Vec3d> x,
                             std::span<const Vec3d> alpha, std::span<const double> sigma,
                             RankReport* report = nullptr, BodyCost* cost = nullptr);

}  // namespace loom::fmm::parallel
