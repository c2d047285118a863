// Each body's cost in one evaluation over ranks, the weights of the next partitioning (issue 22, item 1:
// clustered bodies balanced by work, not by count). A body's cost is its share of the evaluation's work at the
// rates the ranks measured:
//   cost_i = t_pair * s(L_i) + t_m2l * sum_{A ancestor of L_i or L_i} m2l(A) / |A| + t_body         (4)
// with L_i the body's leaf, s(L) the sources each of L's bodies meets directly (P2P pairs, local and received:
// |B| each), m2l(A) the M2L pairs into cell A (local and received) shared by its |A| bodies, and t_body the
// P2M and L2P per body. The rates are the ranks' kernel seconds over their counts, summed over the ranks (the
// same rates everywhere), unless given.
#pragma once

#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::parallel {

struct CostRates {
  double pair = 0, m2l = 0, body = 0;  // seconds per body-body interaction, per M2L pair, per body
  bool given() const { return pair > 0 || m2l > 0 || body > 0; }
};

// What an evaluation over ranks reports when asked: the rates (in: given ones are used, zero: measured; out:
// the rates used) and every body's cost (4), in the caller's order.
struct BodyCost {
  CostRates rates;
  std::vector<double> seconds;
};

// Per cell: M2L pairs into it, and (leaves) the sources each of its bodies meets by P2P.
struct CellWork {
  std::vector<double> m2l, sources;
  void add(const CellWork& other);
};

// The local FMM's work per cell from its interaction lists (those the evaluation used: distributed.cpp takes
// them from its upward pass, not from a second traversal).
CellWork local_work(const Tree& tree, const InteractionLists& lists);

// Collective: the rates (seconds per pair, per M2L, per body) from every rank's local kernels' times and work.
CostRates measured_rates(const comm::Communicator& comm, const Tree& tree, const CellWork& local, const Timings& time);

// (4) for every body of the tree, in the caller's order.
std::vector<double> body_cost(const Tree& tree, const CellWork& work, const CostRates& rates);

// Collective: the largest rank's total cost over the mean rank's (1: balanced).
double cost_imbalance(const comm::Communicator& comm, std::span<const double> cost);

}  // namespace loom::fmm::parallel
