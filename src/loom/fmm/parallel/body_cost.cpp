#include "loom/fmm/parallel/body_cost.hpp"

#include <algorithm>

#include "loom/comm/collectives.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {

void CellWork::add(const CellWork& other) {
  for (std::size_t c = 0; c < m2l.size() && c < other.m2l.size(); ++c) {
    m2l[c] += other.m2l[c];
    sources[c] += other.sources[c];
  }
}

CellWork local_work(const Tree& tree, const InteractionLists& lists) {
  const auto ncells = tree.cells().size();
  CellWork w{std::vector<double>(ncells, 0.0), std::vector<double>(ncells, 0.0)};
  if (tree.size() == 0 || lists.m2l_offset.size() < ncells + 1) return w;
  const auto& cells = tree.cells();
  for (std::size_t c = 0; c < ncells; ++c) {
    w.m2l[c] = double(lists.m2l_offset[c + 1] - lists.m2l_offset[c]);
    for (Index k = lists.p2p_offset[c]; k < lists.p2p_offset[c + 1]; ++k)
      w.sources[c] += double(cells[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])].count);
  }
  return w;
}

CostRates measured_rates(const comm::Communicator& comm, const Tree& tree, const CellWork& local, const Timings& t) {
  // seconds and counts of the three kinds, summed over the ranks
  std::vector<double> sums{t.p2p, t.m2l, t.upward + t.downward, 0.0, 0.0, double(tree.size())};
  const auto& cells = tree.cells();
  for (std::size_t c = 0; c < cells.size(); ++c) {
    sums[3] += double(cells[c].count) * local.sources[c];
    sums[4] += local.m2l[c];
  }
  comm::all_reduce(comm, sums, comm::Reduce::sum);
  auto rate = [](double seconds, double count) { return count > 0 ? seconds / count : 0.0; };
  return {rate(sums[0], sums[3]), rate(sums[1], sums[4]), rate(sums[2], sums[5])};
}

std::vector<double> body_cost(const Tree& tree, const CellWork& work, const CostRates& rates) {
  const auto& cells = tree.cells();
  // each cell's M2L per body, accumulated from the root down (cells are stored parents first)
  std::vector<double> share(cells.size(), 0.0);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const Cell& a = cells[c];
    share[c] = (a.parent >= 0 ? share[static_cast<std::size_t>(a.parent)] : 0.0) +
               (a.count > 0 ? work.m2l[c] / double(a.count) : 0.0);
  }
  std::vector<double> cost(static_cast<std::size_t>(tree.size()), 0.0);
  const auto& order = tree.order();
  for (int leaf : tree.leaves()) {
    const Cell& l = cells[static_cast<std::size_t>(leaf)];
    const double c = rates.pair * work.sources[static_cast<std::size_t>(leaf)] +
                     rates.m2l * share[static_cast<std::size_t>(leaf)] + rates.body;  // (4)
    for (Index i = l.begin; i < l.begin + l.count; ++i) cost[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = c;
  }
  return cost;
}

double cost_imbalance(const comm::Communicator& comm, std::span<const double> cost) {
  double mine = 0;
  for (double c : cost) mine += c;
  return imbalance(comm::all_gather(comm, std::span<const double>(&mine, 1)));
}

}  // namespace loom::fmm::parallel
