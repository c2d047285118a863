#include "loom/fmm/parallel/exchange.hpp"

#include "loom/comm/collectives.hpp"
#include "loom/core/error.hpp"

namespace loom::fmm::parallel {

std::vector<double> exchange_rows(const comm::Communicator& comm, std::span<const double> rows, int width,
                                  std::span<const int> part) {
  const auto w = static_cast<std::size_t>(width);
  LOOM_REQUIRE(width > 0 && rows.size() == part.size() * w, "exchange_rows: one part per row of `width` values");
  const auto ranks = static_cast<std::size_t>(comm.size());
  std::vector<int> counts(ranks, 0), at(ranks, 0);
  for (int r : part) {
    LOOM_REQUIRE(r >= 0 && static_cast<std::size_t>(r) < ranks, "exchange_rows: part outside the ranks");
    counts[static_cast<std::size_t>(r)] += width;
  }
  for (std::size_t r = 1; r < ranks; ++r) at[r] = at[r - 1] + counts[r - 1];
  std::vector<double> send(rows.size());
  for (std::size_t i = 0; i < part.size(); ++i) {
    auto& to = at[static_cast<std::size_t>(part[i])];
    for (std::size_t k = 0; k < w; ++k) send[static_cast<std::size_t>(to) + k] = rows[i * w + k];
    to += width;
  }
  comm::AllToAll exchange(comm, std::move(send), std::move(counts));
  return std::move(exchange.wait());
}

}  // namespace loom::fmm::parallel
