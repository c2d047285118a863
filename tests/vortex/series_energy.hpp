// t -> energy from a periodic loom vortex or loom hit run's series.csv (t rounded to 1e-6), for the tests that
// compare the rows with loom hit's or with an exact decay.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace loom::vortex::test {

inline std::map<double, double> series_energies(const std::filesystem::path& series) {
  std::ifstream in(series);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::istringstream h(line); std::getline(h, line, ',');) names.push_back(line);
  const auto column = [&](const std::string& name) {
    return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const std::size_t t_col = column("t"), e_col = column("energy");
  std::map<double, double> out;
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (std::istringstream r(line); std::getline(r, line, ',');) row.push_back(std::stod(line));
    if (row.size() > std::max(t_col, e_col)) out[std::round(row[t_col] * 1e6) / 1e6] = row[e_col];
  }
  return out;
}

}  // namespace loom::vortex::test
