#include "loom/fmm/parallel/rank_bodies.hpp"

#include "loom/fmm/parallel/exchange.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {

std::vector<double> RankBodies::rows() const {
  std::vector<double> out;
  out.reserve(x.size() * static_cast<std::size_t>(width()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    out.insert(out.end(), {x[i].x, x[i].y, x[i].z});
    for (int d = 0; d < ncomp; ++d) out.push_back(strength[i * static_cast<std::size_t>(ncomp) + static_cast<std::size_t>(d)]);
    out.insert(out.end(), {sigma[i], double(id[i])});
  }
  return out;
}

RankBodies RankBodies::from_rows(std::span<const double> rows, int ncomp) {
  RankBodies b;
  b.ncomp = ncomp;
  const auto w = static_cast<std::size_t>(b.width());
  for (std::size_t at = 0; at + w <= rows.size(); at += w) {
    b.x.push_back({rows[at], rows[at + 1], rows[at + 2]});
    for (std::size_t d = 0; d < static_cast<std::size_t>(ncomp); ++d) b.strength.push_back(rows[at + 3 + d]);
    b.sigma.push_back(rows[at + w - 2]);
    b.id.push_back(static_cast<Index>(rows[at + w - 1]));
  }
  return b;
}

RankBodies scatter_from_root(const comm::Communicator& comm, const RankBodies& all) {
  std::vector<int> part;
  std::vector<double> rows;
  if (comm.is_root()) {
    const auto n = static_cast<Index>(all.x.size());
    for (Index i = 0; i < n; ++i) part.push_back(static_cast<int>(i * comm.size() / n));
    rows = all.rows();
  }
  return RankBodies::from_rows(exchange_rows(comm, rows, all.width(), part), all.ncomp);
}

RankBodies partition_and_move(const comm::Communicator& comm, const RankBodies& mine, std::span<const double> weight) {
  const Partition p = multisection(comm, mine.x, weight, comm.size());
  return RankBodies::from_rows(exchange_rows(comm, mine.rows(), mine.width(), p.part), mine.ncomp);
}

}  // namespace loom::fmm::parallel
