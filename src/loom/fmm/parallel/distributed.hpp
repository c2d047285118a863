// The FMM over the bodies of all ranks (issue 22): each rank holds some of the bodies (after multisection.hpp's
// partitioning, so that its domain is compact) and gets the sums over all bodies at its own. Each rank builds
// its tree and plans the local essential tree every other rank needs (let.hpp: the selection walk needs no
// multipoles); the local FMM (Evaluator, on the options' backend) runs its upward pass, after which the rank
// writes its LETs with those multipoles (on the GPU only the sent cells' cross PCIe) and posts the exchange
// (MPI_Ialltoallv); its M2L runs while the LETs are in flight; then the received cells and bodies join its
// evaluation as extra sources (received_sources.hpp: their M2L into its locals, their P2P into its near field,
// on its backend). No multipole is computed twice and no tree is copied: one rank does exactly its local FMM.
// Periodic boundaries: each rank sends the LETs of its tree's 27 near images (shifted, let.hpp) to every other
// rank, and runs its local FMM with its own 27 images but no far images; the far images of the whole box come
// from the box's moments summed over the ranks (MPI_Allreduce) and are added with the received cells
// (engine/periodic_images.hpp).
#pragma once

#include <span>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/received_sources.hpp"

namespace loom::fmm::parallel {

// One rank's view of one evaluation: seconds per phase, and what it sent and received.
struct RankReport {
  double tree = 0;           // the local tree (and its host arrays for the passes)
  double let_build = 0;      // the LETs for the other ranks: patches, selection walk, their multipoles and bodies
  double communication = 0;  // the patches' gather, the exchange of counts and the wait for the LETs after the local M2L
  double local = 0;          // the local FMM without its tree (its phases in local_time)
  double remote = 0;         // the received cells' field: parsing, walk, far and near parts (remote_time)
  double cost = 0;           // every body's cost for the next partitioning, when asked
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
