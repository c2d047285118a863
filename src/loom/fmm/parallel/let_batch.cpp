#include "loom/fmm/parallel/let_batch.hpp"

#include <cstdint>

#include "loom/core/error.hpp"

namespace loom::fmm::parallel {

void plan_lets(const Tree& tree, std::span<const double> cell_sigma, const LetCriterion& criterion,
               std::vector<LetMessage>& messages) {
  const auto n = static_cast<std::int64_t>(messages.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t k = 0; k < n; ++k) {
    LetMessage& m = messages[static_cast<std::size_t>(k)];
    m.plan.clear();
    m.count = plan_let(tree, cell_sigma, m.receiver, criterion, m.shift, &m.plan);
  }
}

std::vector<int> sent_cells(const std::vector<LetMessage>& messages, std::size_t ncells, std::vector<int>& slot) {
  slot.assign(ncells, -1);
  std::vector<int> out;
  for (const LetMessage& m : messages)
    for (const LetEntry& e : m.plan)
      if (slot[static_cast<std::size_t>(e.cell)] < 0) {
        slot[static_cast<std::size_t>(e.cell)] = static_cast<int>(out.size());
        out.push_back(e.cell);
      }
  return out;
}

std::vector<std::size_t> message_offsets(const std::vector<LetMessage>& messages, int order, int ncomp) {
  std::vector<std::size_t> at(messages.size() + 1, 0);
  for (std::size_t k = 0; k < messages.size(); ++k)
    at[k + 1] = at[k] + static_cast<std::size_t>(messages[k].count.doubles(order, ncomp));
  return at;
}

bool write_messages(const LetSource& source, const std::vector<LetMessage>& messages, std::span<const std::size_t> at,
                    double* buffer, LetPart part, int threads) {
  const auto n = static_cast<std::int64_t>(messages.size());
  bool sized = true;
#pragma omp parallel for schedule(dynamic, 1) reduction(&& : sized) num_threads(threads)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto u = static_cast<std::size_t>(k);
    const LetMessage& m = messages[u];
    sized = sized && write_let(source, m.plan, m.shift, buffer + at[u], part) == buffer + at[u + 1];
  }
  return sized;
}

std::size_t write_lets(const LetSource& source, const std::vector<LetMessage>& messages, std::vector<double>& out,
                       int threads) {
  const std::vector<std::size_t> at = message_offsets(messages, source.order, source.ncomp);
  LOOM_REQUIRE(write_messages(source, messages, at, grow_to(out, at.back()), LetPart::all, threads),
               "write_lets: a LET written differs from its plan's size");
  return at.back();
}

}  // namespace loom::fmm::parallel
