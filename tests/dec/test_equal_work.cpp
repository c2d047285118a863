// The equal-work scale (src/loom/dec/equal_work.*, Table 1 of the DEC-GPE paper) against closed forms from the
// known cells of the cubic, BCC and FCC grids, and the defining property W_g(s_g) = W_cubic(1) recounted from
// the flat stencil on every grid.
#include <gtest/gtest.h>

#include <cmath>

#include "loom/dec/equal_work.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/stencil.hpp"

namespace loom::dec {
namespace {

TEST(EqualWork, CubicIsTheReference) {
  const auto& s = replicable_structure(GridType::cubic);
  const auto w = work_figures(s);
  EXPECT_DOUBLE_EQ(w.operations_per_step, 7);  // 6 faces + the cell itself
  EXPECT_DOUBLE_EQ(w.max_diagonal, 6);         // 6 faces of weight 1/1, volume 1
  EXPECT_DOUBLE_EQ(stability_time_step(s), 1.0 / 6);
  EXPECT_NEAR(equal_work_scale(s), 1.0, 1e-15);
}

// BCC: 12 tetrahedra of volume 1/12, 4 faces of area sqrt2/4 each, dual edges sqrt2/4: weight 1, diagonal 48.
// FCC: 4 octahedra (8 faces) + 8 tetrahedra (4 faces), weights 1/2, diagonal 24 and 48; sum #J = 4*9 + 8*5.
// s = (W(1) / 42)^(1/5), equal-work dual edge = s * edge.
TEST(EqualWork, ClosedFormsForBccAndFcc) {
  const double s_bcc = std::pow(12 * 5 * 48 / 42.0, 0.2);
  EXPECT_NEAR(equal_work_scale(replicable_structure(GridType::bcc)), s_bcc, 1e-12);
  EXPECT_NEAR(s_bcc * std::sqrt(2.0) / 4, 0.8235, 1e-4);
  const double s_fcc = std::pow((4 * 9 + 8 * 5) * 48 / 42.0, 0.2);
  EXPECT_NEAR(equal_work_scale(replicable_structure(GridType::fcc)), s_fcc, 1e-12);
  EXPECT_NEAR(s_fcc * std::sqrt(3.0) / 4, 1.0575, 1e-4);
}

// At s_g every grid costs 42 operations per time unit and volume, counted from the flat stencil (entries and
// 1/|B| at that scale) rather than from the structure's faces.
TEST(EqualWork, ScaledGridsCostWhatTheCubicCosts) {
  for (GridType g : all_grid_types()) {
    const auto& unit = replicable_structure(g);
    const double scale = equal_work_scale(unit);
    const ReplicableStructure s = unit.scaled(scale);
    EXPECT_NEAR(equal_work_scale(s), scale, 1e-12 * scale) << to_string(g);  // invariant under rescaling
    const Stencil stencil(s);
    const StencilView v = stencil.view(core::Where::host);
    double max_diagonal = 0;
    for (int i = 0; i < v.cells; ++i) {
      double d = 0;
      for (int f = v.first[i]; f < v.first[i + 1]; ++f) d += v.entries[f].weight;
      max_diagonal = std::max(max_diagonal, d * v.inverse_volume[i]);
    }
    const double operations = double(stencil.entry_count() + stencil.cells());
    EXPECT_NEAR(operations / s.volume() * max_diagonal, 42.0, 1e-9) << to_string(g);
  }
}

// Why Table 1 is not reproduced (equal_work.hpp): FCC and BCC have the same cells per volume and the same
// largest diagonal, so at equal work their scales differ only through the operations per cell. Even with every
// operation in the faces (FCC 16/3 faces per cell, BCC 4), the FCC/BCC dual-edge ratio stays far below the
// paper's 1.09 / 0.80.
TEST(EqualWork, PaperTableOneFccToBccRatioIsOutOfReach) {
  const auto& fcc = replicable_structure(GridType::fcc);
  const auto& bcc = replicable_structure(GridType::bcc);
  EXPECT_EQ(fcc.cell_count() / fcc.volume(), bcc.cell_count() / bcc.volume());
  EXPECT_DOUBLE_EQ(work_figures(fcc).max_diagonal, work_figures(bcc).max_diagonal);
  double faces_fcc = 0, faces_bcc = 0;
  for (const auto& c : fcc.cells) faces_fcc += double(c.faces.size());
  for (const auto& c : bcc.cells) faces_bcc += double(c.faces.size());
  const double edge_ratio = dual_edge_statistics(fcc).mean / dual_edge_statistics(bcc).mean;  // sqrt(3/2)
  const double largest = edge_ratio * std::pow(faces_fcc / faces_bcc, 0.2);
  const double paper = paper_table1_dual_edge(GridType::fcc) / paper_table1_dual_edge(GridType::bcc);
  EXPECT_NEAR(largest, std::sqrt(1.5) * std::pow(4.0 / 3, 0.2), 1e-12);  // 1.297
  EXPECT_LT(largest, paper - 0.05);  // 1.30 < 1.36
  // What loom's definition gives lies below that bound.
  const double ours =
      equal_work_scale(fcc) * dual_edge_statistics(fcc).mean / (equal_work_scale(bcc) * dual_edge_statistics(bcc).mean);
  EXPECT_LT(ours, largest);
}

TEST(EqualWork, DualEdgeStatistics) {
  const auto e = dual_edge_statistics(replicable_structure(GridType::bcc));
  EXPECT_NEAR(e.min, std::sqrt(2.0) / 4, 1e-14);
  EXPECT_NEAR(e.max, std::sqrt(2.0) / 4, 1e-14);
  const auto c = dual_edge_statistics(replicable_structure(GridType::c15));
  EXPECT_LT(c.min, c.mean);
  EXPECT_LT(c.mean, c.max);
}

}  // namespace
}  // namespace loom::dec
