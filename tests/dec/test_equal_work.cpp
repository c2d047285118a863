// The equal-work scale (src/loom/dec/equal_work.*, Table 1 of the DEC-GPE paper) under the paper's and loom's
// rules against closed forms from the known cells of the cubic, BCC and FCC grids, the defining property
// W_g(s_g) = W_cubic(1) recounted from the flat stencil on every grid, and Table 1 itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "loom/core/error.hpp"
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
  EXPECT_DOUBLE_EQ(w.face_count, 6);
  EXPECT_DOUBLE_EQ(w.max_face_weight, 1);
  EXPECT_DOUBLE_EQ(stability_time_step(s), 1.0 / 6);
  EXPECT_DOUBLE_EQ(structure_work_per_time_unit(EqualWorkRule::paper, s, 1, 0), 6 * 6 * 1 / 2.0);
  EXPECT_DOUBLE_EQ(structure_work_per_time_unit(EqualWorkRule::eq11, s, 1, 0), 42);
  EXPECT_DOUBLE_EQ(structure_work_per_time_unit(EqualWorkRule::paper, s, 0.5, 10), 6 * (6 * 4 / 2.0 + 10));
  EXPECT_DOUBLE_EQ(structure_work_per_time_unit(EqualWorkRule::eq11, s, 0.5, 10), 7 * (6 * 4 + 20));
  for (EqualWorkRule r : {EqualWorkRule::paper, EqualWorkRule::eq11}) {
    EXPECT_NEAR(equal_work_scale(s, r), 1.0, 1e-15);
    EXPECT_NEAR(equal_work_scale(s, r, 0.1, 70), 0.1, 1e-12);  // with a potential too
  }
}

// BCC: 12 tetrahedra of volume 1/12, 4 faces of area sqrt2/4 each, dual edges sqrt2/4: weight 1, diagonal 48,
// Hodge weight |F|/(|E*||B|) = 12. FCC: 4 octahedra (8 faces) + 8 tetrahedra (4 faces), dual edges sqrt3/4, the
// tetrahedra's faces of weight 1/2 over volume 1/24: diagonal 48, Hodge weight 12, 64/12 faces per cell (5).
//   eq11:  s^5 = W(1) / 42,       W(1) = sum #J * max D
//   paper: s^5 = m F^2 h / (6^2),  the cubic's m F^2 h = 36
TEST(EqualWork, ClosedFormsForBccAndFcc) {
  const auto& bcc = replicable_structure(GridType::bcc);
  const auto& fcc = replicable_structure(GridType::fcc);
  const double s_bcc = std::pow(12 * 5 * 48 / 42.0, 0.2);
  EXPECT_NEAR(equal_work_scale(bcc, EqualWorkRule::eq11), s_bcc, 1e-12);
  EXPECT_NEAR(s_bcc * std::sqrt(2.0) / 4, 0.8235, 1e-4);
  const double s_fcc = std::pow((4 * 9 + 8 * 5) * 48 / 42.0, 0.2);
  EXPECT_NEAR(equal_work_scale(fcc, EqualWorkRule::eq11), s_fcc, 1e-12);
  EXPECT_NEAR(s_fcc * std::sqrt(3.0) / 4, 1.0575, 1e-4);
  const double p_bcc = std::pow(12 * 4 * 4 * 12 / 36.0, 0.2), p_fcc = std::pow(12 * 5 * 5 * 12 / 36.0, 0.2);
  EXPECT_NEAR(equal_work_scale(bcc), p_bcc, 1e-12);  // the paper's rule is the default
  EXPECT_NEAR(equal_work_scale(fcc, EqualWorkRule::paper), p_fcc, 1e-12);
  EXPECT_NEAR(p_fcc, 2.51, 0.005);  // the width of the paper's FCC structure (its mesh.h)
  EXPECT_NEAR(reported_dual_edge(fcc, EqualWorkRule::paper), std::sqrt(3.0) / 4, 1e-14);
  EXPECT_NEAR(reported_dual_edge(bcc, EqualWorkRule::eq11), std::sqrt(2.0) / 4, 1e-14);
}

// At the equal-work scale every grid costs per unit volume what the cubic grid costs at scale 1 (paper: 6 * 6 * 1
// / 2 = 18, eq11: 7 * 6 = 42), recounted from the flat stencil (entries, weights and 1/|B| at that scale) rather
// than from the structure's faces.
TEST(EqualWork, ScaledGridsCostWhatTheCubicCosts) {
  for (GridType g : all_grid_types()) {
    const auto& unit = replicable_structure(g);
    for (EqualWorkRule rule : {EqualWorkRule::paper, EqualWorkRule::eq11}) {
      const double scale = equal_work_scale(unit, rule);
      const ReplicableStructure s = unit.scaled(scale);
      EXPECT_NEAR(equal_work_scale(s, rule), scale, 1e-12 * scale) << to_string(g);  // invariant under rescaling
      const Stencil stencil(s);
      const StencilView v = stencil.view(core::Where::host);
      double max_diagonal = 0, max_weight = 0;
      for (int i = 0; i < v.cells; ++i) {
        double d = 0;
        for (int f = v.first[i]; f < v.first[i + 1]; ++f) {
          d += v.entries[f].weight;
          max_weight = std::max(max_weight, v.entries[f].weight * v.inverse_volume[i]);
        }
        max_diagonal = std::max(max_diagonal, d * v.inverse_volume[i]);
      }
      const double cells = stencil.cells(), faces = std::floor(double(stencil.entry_count()) / cells);
      if (rule == EqualWorkRule::eq11)
        EXPECT_NEAR((stencil.entry_count() + cells) / s.volume() * max_diagonal, 42.0, 1e-9) << to_string(g);
      else
        EXPECT_NEAR(cells * faces * faces * max_weight / 2 / s.volume(), 18.0, 1e-9) << to_string(g);
    }
  }
}

// Table 1 of the paper from the lattices, with the paper's convention and no potential (the accuracy case's trap
// lowers each figure by 1-2%: tests/gpe/test_equal_work_accuracy_case.cpp): within 2% on every grid. loom's own
// rule (eq. 11, mean edge) misses it by up to 26% (C15 0.86 against 0.68).
TEST(EqualWork, PaperRuleReproducesTableOne) {
  double worst_eq11 = 0;
  for (GridType g : all_grid_types()) {
    const auto& unit = replicable_structure(g);
    const double table = paper_table1_dual_edge(g);
    const double paper =
        reported_dual_edge(unit.scaled(equal_work_scale(unit, EqualWorkRule::paper)), EqualWorkRule::paper);
    EXPECT_NEAR(paper, table, 0.02 * table) << to_string(g);
    const double eq11 =
        reported_dual_edge(unit.scaled(equal_work_scale(unit, EqualWorkRule::eq11)), EqualWorkRule::eq11);
    worst_eq11 = std::max(worst_eq11, std::abs(eq11 / table - 1));
  }
  EXPECT_GT(worst_eq11, 0.1);
}

// The edge the paper prints for A15, C15 and Z (mesh.h's DUAL_EDGE_LENGTH divided by its structure width: 0.93322
// / 3.91, 0.68764 / 5.39, 0.99181 / 3.70) is one of the lattice's dual edges, named by its rank.
TEST(EqualWork, PaperReportedEdgeIsTheOneItsCodePrints) {
  EXPECT_NEAR(reported_dual_edge(replicable_structure(GridType::a15), EqualWorkRule::paper), 0.93322 / 3.91, 1e-5);
  EXPECT_NEAR(reported_dual_edge(replicable_structure(GridType::c15), EqualWorkRule::paper), 0.68764 / 5.39, 1e-5);
  EXPECT_NEAR(reported_dual_edge(replicable_structure(GridType::z), EqualWorkRule::paper), 0.99181 / 3.70, 1e-5);
  EXPECT_EQ(parse_equal_work_rule("eq11", "grid.equal_work_rule"), EqualWorkRule::eq11);
  EXPECT_THROW(parse_equal_work_rule("mean", "grid.equal_work_rule"), UsageError);
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
