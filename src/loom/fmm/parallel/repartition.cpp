#include "loom/fmm/parallel/repartition.hpp"

#include "loom/core/error.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/exchange.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {

bool repartition(const comm::Communicator& comm, std::vector<double>& rows, int width, std::vector<double>& cost,
                 double threshold, double* imbalance) {
  const auto w = static_cast<std::size_t>(width);
  LOOM_REQUIRE(width >= 3 && rows.size() == cost.size() * w, "repartition: one cost per row of `width` values");
  const double before = cost_imbalance(comm, cost);
  if (imbalance) *imbalance = before;
  if (!(before > threshold)) return false;
  std::vector<Vec3d> x(cost.size());
  std::vector<double> with_cost;
  with_cost.reserve(rows.size() + cost.size());
  for (std::size_t i = 0; i < cost.size(); ++i) {
    x[i] = {rows[i * w], rows[i * w + 1], rows[i * w + 2]};
    with_cost.insert(with_cost.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * w),
                     rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * w));
    with_cost.push_back(cost[i]);
  }
  const Partition p = multisection(comm, x, cost, comm.size());
  const std::vector<double> got = exchange_rows(comm, with_cost, width + 1, p.part);
  rows.clear();
  cost.clear();
  for (std::size_t at = 0; at < got.size(); at += w + 1) {
    rows.insert(rows.end(), got.begin() + static_cast<std::ptrdiff_t>(at), got.begin() + static_cast<std::ptrdiff_t>(at + w));
    cost.push_back(got[at + w]);
  }
  return true;
}

}  // namespace loom::fmm::parallel
