// The FMM resident where the bodies are (issue 21): positions, strengths and core radii in, potentials,
// gradients, velocities and stretchings out, all on the backend's side (device pointers on the CUDA backend);
// the tree built (gpu/device_tree.hpp) or re-fitted there, the lists traversed there (gpu/device_lists.hpp),
// the passes run there, so that only counts and a few small cell or expansion records cross the bus. A time
// stepper calls set_positions once, then move_positions every step: the tree is re-fitted while its cells
// cost little more than a fresh one, and rebuilt by the rule of move_positions. On the CPU backend the
// tree and lists are the same backend code on thrust's host system and the passes the CPU engine's (the host
// path, through fmm::Evaluator): that is the form the CPU tests check. Needs a CUDA build (thrust).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>

#include "loom/fmm/accuracy_budget.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm {

// What crossed the bus in a resident evaluator's calls: its own reads of counts and small records, and every
// lazy copy of an array it holds (core::Array's transfer counts). The tree build's and the traversal's scans
// read one count each (exclusive_scan_on) and are not counted here.
struct BusTraffic {
  std::size_t copies = 0, bytes = 0, largest = 0;
  void add(std::size_t b) {
    ++copies;
    bytes += b;
    largest = std::max(largest, b);
  }
};

class ResidentEvaluator {
 public:
  explicit ResidentEvaluator(Options options);  // options.backend: where the caller's arrays are
  ~ResidentEvaluator();
  ResidentEvaluator(ResidentEvaluator&&) noexcept;
  ResidentEvaluator& operator=(ResidentEvaluator&&) noexcept;

  // The error-target mode (accuracy_budget.hpp): from the next set_positions on, each new tree takes the order,
  // theta and ncrit that the budget chooses for this gradient error and the body count (the options' others kept);
  // 0 turns it off (the options' order, theta and ncrit again). UsageError for a target the table cannot meet.
  void set_error_target(double target);
  // The last choice of the error-target mode (order 0 when off).
  const BudgetChoice& budget() const;

  // n bodies at x (the caller's order, on the backend's side): a new tree.
  void set_positions(const Vec3d* x, Index n);
  // The same bodies moved to x: the tree re-fitted (gpu::refit: the cells keep their bodies, their centres and
  // radii are measured again, so the acceptance test and the error hold), or rebuilt when the last evaluation
  // on a re-fitted tree did more than max_cost times the work of the first evaluation after the last build
  // (work_ratio(); max_cost < 1: rebuilt every call), or when the re-fit left a leaf wider than twice the build's
  // widest (a body that jumped: its lists, and their memory, would grow without bound). Returns whether it rebuilt.
  // Periodic: x wrapped into the box; the tree holds a body that crossed a face at its image beside its leaf
  // (gpu::refit), which leaves the sums unchanged for a neutral box (sum q = 0, sum alpha = 0) only; rebuilt when
  // that put a body more than a tenth of the period outside the box (the far images' accuracy).
  bool move_positions(const Vec3d* x, double max_cost);

  // All pointers on the backend's side, n elements each (the caller's order).
  void laplace(const double* charges, double* potential, Vec3d* gradient);
  void biot_savart(const Vec3d* alpha, const double* sigma, Vec3d* velocity, Vec3d* stretching);

  Index size() const;
  const Options& options() const;
  const Timings& time() const;       // of the last evaluation; build: the last set_positions or move_positions
  const Statistics& stats() const;   // of the last evaluation
  BusTraffic bus() const;            // since construction
  double growth() const;             // the bound on the cells' growth since the last build
  // The last evaluation's work over the first evaluation's after the last build, of the same kernel: the larger
  // of the ratios of the near-field body pairs (p2p_interactions) and of the M2L pairs. A re-fitted tree's cells
  // only grow, so fewer pairs pass the acceptance test; the ratio bounds the passes' time ratio (1: a fresh tree).
  double work_ratio() const;
  int builds() const;                // trees built so far
  int refits() const;                // re-fits so far

  struct State;

 private:
  std::unique_ptr<State> s_;
};

}  // namespace loom::fmm
