#include "loom/dec/structure_facts.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "loom/dec/crystal.hpp"
#include "loom/dec/equal_work.hpp"

namespace loom::dec {

const char* const equal_work_scale_definition =
    "equal work: the structure scale at which integrating one time unit costs per unit volume what the cubic grid "
    "of edge 1 costs. paper (the default; its code, Table 1): m_s F (F h / (2 s^2) + P) operations per structure, F "
    "= floor(mean faces per cell), h = the largest |F|/(|E*||B|), P = 0 here, and the dual edge its code prints; "
    "eq11: sum_i #J_i / dt with dt of eq. 11, max_i (1/|B_i|) sum_F |F|/|E*| / s^2, and the mean dual edge. "
    "Unit-scale lengths are for make_crystal's cell (cube of edge 1; Z: hexagonal a = c = 1); see "
    "src/loom/dec/equal_work.hpp";

nlohmann::json structure_facts(const ReplicableStructure& s) {
  std::set<int> faces;
  double vmin = s.cells.front().volume, vmax = vmin, vsum = 0;
  for (const auto& c : s.cells) {
    faces.insert(static_cast<int>(c.faces.size()));
    vmin = std::min(vmin, c.volume);
    vmax = std::max(vmax, c.volume);
    vsum += c.volume;
  }
  const auto edges = dual_edge_statistics(s);
  const auto work = work_figures(s);
  const double scale = equal_work_scale(s, EqualWorkRule::paper),
               eq11 = equal_work_scale(s, EqualWorkRule::eq11);
  nlohmann::json j;
  j["grid"] = std::string(to_string(s.grid));
  j["source"] = make_crystal(s.grid).source;
  j["structure_size"] = {s.size.x, s.size.y, s.size.z};
  j["structure_volume"] = s.volume();
  j["primal_vertices"] = s.primal_vertices.size();
  j["cells_per_structure"] = s.cell_count();
  j["faces_per_cell"] = std::vector<int>(faces.begin(), faces.end());
  j["cell_volume_min"] = vmin;
  j["cell_volume_max"] = vmax;
  j["cell_volume_sum"] = vsum;
  j["dual_edge_min"] = edges.min;
  j["dual_edge_mean"] = edges.mean;
  j["dual_edge_max"] = edges.max;
  j["max_laplacian_diagonal"] = work.max_diagonal;
  j["stability_time_step"] = stability_time_step(s);
  j["operations_per_structure"] = work.operations_per_step;
  j["face_count"] = work.face_count;
  j["max_face_weight"] = work.max_face_weight;
  j["equal_work_rule"] = "paper";
  j["work_per_time_unit"] = structure_work_per_time_unit(EqualWorkRule::paper, s, 1, 0) / s.volume();
  j["equal_work_scale"] = scale;
  j["equal_work_dual_edge"] = reported_dual_edge(s.scaled(scale), EqualWorkRule::paper);
  j["equal_work_dual_edge_mean"] = scale * edges.mean;
  j["equal_work_dual_edge_min"] = scale * edges.min;
  j["equal_work_dual_edge_max"] = scale * edges.max;
  j["equal_work_eq11"] = {{"work_per_time_unit", work.work_per_time_unit()},
                          {"scale", eq11},
                          {"dual_edge", reported_dual_edge(s.scaled(eq11), EqualWorkRule::eq11)}};
  j["paper_table1_dual_edge"] = paper_table1_dual_edge(s.grid);
  j["scale_definition"] = equal_work_scale_definition;
  return j;
}

}  // namespace loom::dec
