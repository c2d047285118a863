// Work per time unit and the equal-work scale; see equal_work.hpp for the definitions.
#include "loom/dec/equal_work.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace loom::dec {

WorkFigures work_figures(const ReplicableStructure& structure) {
  WorkFigures w;
  for (const auto& cell : structure.cells) {
    w.operations_per_step += static_cast<double>(cell.faces.size() + 1);
    w.max_diagonal = std::max(w.max_diagonal, cell.laplacian_diagonal());
  }
  w.volume = structure.volume();
  return w;
}

double stability_time_step(const ReplicableStructure& structure) { return 1.0 / work_figures(structure).max_diagonal; }

double equal_work_scale(const ReplicableStructure& structure) {
  const ReplicableStructure& cubic = replicable_structure(GridType::cubic);
  // Compare the unit-scale figures: W(1) of this grid is W(scale) * scale^5.
  const double w = work_figures(structure).work_per_time_unit() * std::pow(structure.scale, 5);
  const double w_cubic = work_figures(cubic).work_per_time_unit();
  return std::pow(w / w_cubic, 0.2);
}

EdgeStatistics dual_edge_statistics(const ReplicableStructure& structure) {
  EdgeStatistics e{std::numeric_limits<double>::max(), 0, std::numeric_limits<double>::lowest()};
  std::size_t n = 0;
  for (const auto& cell : structure.cells)
    for (const auto& f : cell.faces) {
      e.min = std::min(e.min, f.dual_length);
      e.max = std::max(e.max, f.dual_length);
      e.mean += f.dual_length;
      ++n;
    }
  e.mean /= static_cast<double>(n);
  return e;
}

double paper_table1_dual_edge(GridType grid) {
  switch (grid) {
    case GridType::cubic:
      return 1.00;
    case GridType::fcc:
      return 1.09;
    case GridType::bcc:
      return 0.80;
    case GridType::a15:
      return 0.93;
    case GridType::c15:
      return 0.68;
    case GridType::z:
      return 0.99;
  }
  return 0;
}

}  // namespace loom::dec
