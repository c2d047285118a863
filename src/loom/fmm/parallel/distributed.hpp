// The FMM over the bodies of all ranks (issue 22): each rank holds some of the bodies (after multisection.hpp's
// partitioning, so that its domain is compact) and gets the sums over all bodies at its own. Each rank builds
// its tree and plans the local essential tree every other rank needs (let.hpp: the selection walk needs no
// multipoles). A thread of its own (let_writer.hpp) then writes the LETs while the local FMM (Evaluator, on the
// options' backend) runs: everything but the multipoles at once, the multipoles once the upward pass has made
// them (on the GPU only the sent cells' cross PCIe), each receiver's message posted as soon as it is complete
// (comm/message_exchange.hpp); after the local M2L and P2P (the evaluation runs its near field first for them)
// the writer is joined, the exchange finished, and the received cells and bodies join the evaluation as extra
// sources (received_sources.hpp: their M2L into its locals, their P2P into its near field, on its backend). No multipole is computed twice and no tree is copied.
// Periodic boundaries: each rank sends the LETs of its tree's 27 near images (shifted, let.hpp) to every other
// rank, and runs its local FMM with its own 27 images but no far images; the far images of the whole box come
// from the box's moments summed over the ranks (MPI_Allreduce) and are added with the received cells
// (engine/periodic_images.hpp).
// A rank's buffers of a step (its LETs planned, written, received and parsed, the sent multipoles gathered, the
// scratch of the local L2P before it joins the near field) live in a RankFmm and are kept from call to call,
// grown only when a call needs more (let_batch.hpp grow_to): a time stepper's or a benchmark's second call
// faults no fresh pages in for them (writing 72 MB of LETs into fresh pages took 0.40 s on the build box, into
// kept ones 0.012 s: docs/performance.md). A call's peak memory is that of a fresh call (plus at most 1/16 of
// these buffers); between calls they hold the largest call's (kept_bytes). The local FMM's evaluator is kept too,
// while the options stay the same (its tree and lists until the next call's tree; on the GPU its pinned arena
// and lists on the device), not counted in kept_bytes.
#pragma once

#include <memory>
#include <span>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/received_sources.hpp"

namespace loom::fmm::parallel {

// One rank's view of one evaluation: seconds per phase, and what it sent and received.
// The named phases add up to `total` but for what no stopwatch holds (unnamed(), printed so that it shows).
struct RankReport {
  double tree = 0;           // the local tree (and its host arrays for the passes)
  double tree_host = 0;      // of tree, with the tree built on the backend: its host copy adopted (Timings::build_host)
  double let_build = 0;      // the LETs' work on the rank's thread: patches, selection walk, sent multipoles gathered
  double let_write = 0;      // the writing of the LETs, on the writer's thread (behind the local FMM)
  double let_wait = 0;       // the rank's thread waiting for the writer after the local P2P: the writing not hidden
  double communication = 0;  // the patches' gather, the exchange of counts and the wait for the LETs after the writer
  double local = 0;          // the local FMM without its tree (its phases in local_time)
  double remote = 0;         // the received cells' field: parsing, walk, far and near parts (remote_time)
  double cost = 0;           // every body's cost for the next partitioning, when asked
  double release = 0;        // the LET writer's threads ended at the call's end (the local evaluator is kept)
  double total = 0;          // the whole call, as its caller sees it
  ReceivedTimes remote_time;
  Timings local_time;
  Statistics local_stats;  // the local FMM's pairs and direct interactions (remote_pairs: the received ones)
  Index bodies = 0, let_cells_sent = 0, let_bodies_sent = 0, let_cells_received = 0, let_bodies_received = 0;
  double let_doubles_sent = 0;
  LetFieldCounts remote_pairs;
  double unnamed() const {
    return total - (tree + let_build + communication + local + remote + cost + release);
  }
};

// A rank's evaluations, its buffers kept between them (above). Each call is collective over the communicator:
// the sums over every rank's bodies at this rank's bodies, in this rank's order; with `cost`, every body's cost
// (body_cost.hpp) for the next partitioning. Calls may change the options and the bodies.
class RankFmm {
 public:
  explicit RankFmm(comm::Communicator comm);
  ~RankFmm();
  RankFmm(RankFmm&&) noexcept;
  RankFmm& operator=(RankFmm&&) noexcept;

  LaplaceResult laplace(const Options& options, std::span<const Vec3d> x, std::span<const double> charges,
                        RankReport* report = nullptr, BodyCost* cost = nullptr);
  BiotSavartResult biot_savart(const Options& options, std::span<const Vec3d> x, std::span<const Vec3d> alpha,
                               std::span<const double> sigma, RankReport* report = nullptr, BodyCost* cost = nullptr);
  // The same into the caller's result, whose vectors are kept when they have the size already (a time stepper's
  // or a benchmark's next call faults no fresh pages in for them).
  void laplace(const Options& options, std::span<const Vec3d> x, std::span<const double> charges,
               LaplaceResult& result, RankReport* report = nullptr, BodyCost* cost = nullptr);
  void biot_savart(const Options& options, std::span<const Vec3d> x, std::span<const Vec3d> alpha,
                   std::span<const double> sigma, BiotSavartResult& result, RankReport* report = nullptr,
                   BodyCost* cost = nullptr);
  // The bytes its kept buffers hold now.
  double kept_bytes() const;
  const comm::Communicator& communicator() const { return comm_; }

  struct Buffers;

 private:
  comm::Communicator comm_;
  std::unique_ptr<Buffers> b_;
};

// One call on fresh buffers (a RankFmm of its own).
LaplaceResult laplace(const comm::Communicator& comm, const Options& options, std::span<const Vec3d> x,
                      std::span<const double> charges, RankReport* report = nullptr, BodyCost* cost = nullptr);
BiotSavartResult biot_savart(const comm::Communicator& comm, const Options& options, std::span<const Vec3d> x,
                             std::span<const Vec3d> alpha, std::span<const double> sigma,
                             RankReport* report = nullptr, BodyCost* cost = nullptr);

}  // namespace loom::fmm::parallel
