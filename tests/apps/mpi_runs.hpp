// Runs of the loom executable under mpiexec and comparisons of their CSV outputs, for the command-line tests of
// the systems that run on several ranks. The test target defines LOOM_EXECUTABLE and LOOM_MPIEXEC.
#pragma once

#include <cmath>
#include <sstream>
#include <vector>

#include "apps/run_loom.hpp"

namespace loom::test {

// `loom args` on `ranks` ranks (one: without mpiexec), one OpenMP thread per rank.
inline RunResult run_on_ranks(int ranks, const std::string& args) {
  return ranks == 1 ? run_loom(args) : run_loom_on_ranks(ranks, args);
}

inline std::vector<std::vector<double>> csv_rows(const std::filesystem::path& file) {
  std::istringstream in(slurp(file));
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// max over columns of max |a - b| / max |b| (columns whose values are all 0 compare absolutely); `skip`: column.
inline double csv_difference(const std::filesystem::path& a, const std::filesystem::path& b, int skip = -1) {
  const auto ra = csv_rows(a), rb = csv_rows(b);
  if (ra.size() != rb.size() || ra.empty()) return 1;
  double worst = 0;
  for (std::size_t c = 0; c < ra[0].size(); ++c) {
    if (int(c) == skip) continue;
    double diff = 0, scale = 0;
    for (std::size_t r = 0; r < ra.size(); ++r) {
      if (ra[r].size() != rb[r].size()) return 1;
      diff = std::max(diff, std::abs(ra[r][c] - rb[r][c]));
      scale = std::max(scale, std::abs(rb[r][c]));
    }
    worst = std::max(worst, scale > 0 ? diff / scale : diff);
  }
  return worst;
}

}  // namespace loom::test
