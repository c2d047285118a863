// Work per time unit and the equal-work scale under the paper's and loom's conventions; see equal_work.hpp.
#include "loom/dec/equal_work.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::dec {

std::string_view to_string(EqualWorkRule rule) { return rule == EqualWorkRule::paper ? "paper" : "eq11"; }

std::vector<std::string> equal_work_rule_names() { return {"paper", "eq11"}; }

EqualWorkRule parse_equal_work_rule(std::string_view text, std::string_view key) {
  for (EqualWorkRule r : {EqualWorkRule::paper, EqualWorkRule::eq11})
    if (to_string(r) == text) return r;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of paper, eq11"));
}

WorkFigures work_figures(const ReplicableStructure& structure) {
  WorkFigures w;
  double faces = 0;
  for (const auto& cell : structure.cells) {
    faces += static_cast<double>(cell.faces.size());
    w.operations_per_step += static_cast<double>(cell.faces.size() + 1);
    w.max_diagonal = std::max(w.max_diagonal, cell.laplacian_diagonal());
    for (const auto& f : cell.faces) w.max_face_weight = std::max(w.max_face_weight, f.weight() / cell.volume);
  }
  w.cells = static_cast<double>(structure.cells.size());
  w.face_count = std::floor(faces / w.cells);
  w.volume = structure.volume();
  return w;
}

double stability_time_step(const ReplicableStructure& structure) { return 1.0 / work_figures(structure).max_diagonal; }

double structure_work_per_time_unit(EqualWorkRule rule, const ReplicableStructure& structure, double scale,
                                    double max_potential) {
  const WorkFigures w = work_figures(structure);
  const double to_unit = structure.scale * structure.scale;  // h and D scale as 1/s^2
  const double s2 = scale * scale;
  if (rule == EqualWorkRule::paper)  // m_s F (F h / (2 s^2) + P)
    return w.cells * w.face_count * (w.face_count * w.max_face_weight * to_unit / (2 * s2) + max_potential);
  return w.operations_per_step * (w.max_diagonal * to_unit / s2 + 2 * max_potential);  // sum #J (D / s^2 + 2 P)
}

namespace {

// Operations per time unit and unit volume of the grid at `scale`.
double work_density(EqualWorkRule rule, const ReplicableStructure& structure, double scale, double max_potential) {
  const double unit_volume = structure.volume() / std::pow(structure.scale, 3);
  return structure_work_per_time_unit(rule, structure, scale, max_potential) / (unit_volume * std::pow(scale, 3));
}

}  // namespace

double equal_work_scale(const ReplicableStructure& structure, EqualWorkRule rule, double cubic_scale,
                        double max_potential) {
  const double target = work_density(rule, replicable_structure(GridType::cubic), cubic_scale, max_potential);
  if (max_potential == 0)  // the density is W(1) / s^5
    return std::pow(work_density(rule, structure, 1, 0) / target, 0.2);
  double lo = 1e-3 * cubic_scale, hi = 1e3 * cubic_scale;  // the density falls as the scale grows
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = std::sqrt(lo * hi);
    (work_density(rule, structure, mid, max_potential) > target ? lo : hi) = mid;
  }
  return std::sqrt(lo * hi);
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

namespace {

// The rank, among the grid's distinct dual edge lengths in increasing order, of the edge the paper's code prints
// as DUAL_EDGE_LENGTH (mesh.h: the first face of the first cell of its mesh). Cubic, FCC and BCC have one length.
std::size_t paper_edge_rank(GridType grid) {
  switch (grid) {
    case GridType::a15:
      return 2;  // of 4: the most frequent (96 of 184 faces)
    case GridType::z:
      return 4;  // of 8
    default:
      return 0;  // C15: the shortest of 4
  }
}

}  // namespace

double reported_dual_edge(const ReplicableStructure& structure, EqualWorkRule rule) {
  const EdgeStatistics stats = dual_edge_statistics(structure);
  if (rule == EqualWorkRule::eq11) return stats.mean;
  std::vector<double> lengths;
  for (const auto& cell : structure.cells)
    for (const auto& f : cell.faces) lengths.push_back(f.dual_length);
  std::sort(lengths.begin(), lengths.end());
  std::vector<double> distinct{lengths.front()};
  for (double l : lengths)
    if (l > distinct.back() * (1 + 1e-9)) distinct.push_back(l);
  const std::size_t rank = paper_edge_rank(structure.grid);
  LOOM_REQUIRE(rank < distinct.size(), "reported_dual_edge: fewer distinct dual edges than the paper's grid has");
  return distinct[rank];
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
