// Private to src/loom/comm: where each rank's part of a packed buffer begins, from the parts' counts.
#pragma once

#include <limits>
#include <span>
#include <vector>

#include "loom/core/error.hpp"

namespace loom::comm::detail {

// offsets[r] = counts[0] + ... + counts[r - 1]; the total must fit an MPI int.
inline std::vector<int> offsets_of(std::span<const int> counts) {
  std::vector<int> offsets(counts.size(), 0);
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    LOOM_REQUIRE(counts[r] >= 0, "comm: a negative count");
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  LOOM_REQUIRE(total <= std::numeric_limits<int>::max(), "comm: more than 2^31 values on one rank");
  return offsets;
}

}  // namespace loom::comm::detail
