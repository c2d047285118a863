// The "equal work" placement of the grids (section 5.1 and Table 1 of the DEC-GPE paper): each grid is scaled so
// that integrating one time unit costs as many arithmetic operations per unit volume as the cubic grid does. Two
// conventions, both computed from the lattices (a structure of m_s cells in a cuboid of volume V, at scale s):
//
// EqualWorkRule::paper — what the paper's published code does (markus-kivioja/GpuDecGpe: each grid's mesh.h and
// the GPUGrossPitaevskii_*.cu drivers), which is how Table 1 was made:
//   F  = floor(sum_i #dB_i / m_s)                the face count per cell (6, 5, 4, 4, 4, 4: FCC's 16/3 rounds down)
//   h  = max over faces of |F| / (|E*| |B_i|)    the largest Hodge weight, at unit scale
//   steps per time unit     n(s) = F h / (2 s^2) + P     (the code's floor(F h / (2 s^2) + P) + 1, less the rounding)
//   operations per step          = m_s F                 (the code's "ALU operations": one per face)
//   work per time unit           = m_s F n(s) per structure
// with P the largest potential term max_i (V_i + g |psi_i|^2) of the problem (0 without one). The step count is
// not eq. (11)'s 2 max_i M_ii = max_i D_i / s^2 + 2P: F h, the largest Hodge weight times the rounded face count,
// equals max_i D_i on the cubic grid but exceeds it where the weights vary (FCC 60 against 48, A15 192 against
// 128), and the potential counts once, not twice. The dual edge that Table 1 reports is one particular edge: the
// code prints the first face of the first cell of its mesh (DUAL_EDGE_LENGTH), an accident of its mesh ordering and
// not a statistic; loom picks the same edge by its rank among the grid's distinct dual edge lengths
// (reported_dual_edge). For the accuracy case (lambda = 1, g = 300, kappa = 10: the cubic grid at 1/20 of the
// effective wavelength, P the trap at the domain's corner plus the peak of g |psi|^2) this gives 1, 1.07, 0.80,
// 0.93, 0.68, 0.99 against Table 1's 1, 1.09, 0.80, 0.93, 0.68, 0.99, and about 6.2e9 operations per time unit
// (the paper: 6e9); without a potential (P = 0) 1, 1.088, 0.812, 0.947, 0.690, 1.004. The paper's structure widths
// (2.51, 2.27, 3.91, 5.39, 3.70 cubic edges) were set by hand to two decimals, where the whole number of
// structures covering the domain makes the work jump by several percent (FCC: 0.985 to 0.926 of the cubic's
// between 2.50 and 2.51); `loom gpe` at 6e9 gives 2.48, 2.27, 3.88, 5.41, 3.71.
//
// EqualWorkRule::eq11 — loom's own reading of the paper's text: the stability step of eq. (11) and the operation
// count of section 4 (#J_i = the faces and i itself):
//   D_i = (1/|B_i|) sum_F |F|/|E*|  (M = -1/2 Lap + U, so 2 M_ii = D_i + 2 U_i)
//   work per time unit = sum_i #J_i / dt = sum_i #J_i (max_i D_i / s^2 + 2 P) per structure
// and the mean dual edge. Without a potential this gives 1, 1.057, 0.824, 0.862, 0.858, 0.848: FCC and BCC have
// the same cell density and the same max D_i, so their scales differ only through the operations per cell, and
// Table 1's FCC/BCC ratio (1.36) is out of reach of eq. (11) with any per-cell cost. It is the more faithful
// measure of the time step loom actually takes (time.dt = 0 uses eq. 11), the paper's the one its figures used.
//
// Without a potential both rules make the work scale as s^-5, so the equal-work scale is a ratio to the cubic
// grid's; with one (P > 0) it depends on the cubic grid's placement and is found by bisection.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {

enum class EqualWorkRule { paper, eq11 };

std::string_view to_string(EqualWorkRule rule);  // "paper", "eq11": the parameter values
std::vector<std::string> equal_work_rule_names();
// Throws UsageError naming `key`, the value and the allowed values.
EqualWorkRule parse_equal_work_rule(std::string_view text, std::string_view key);

struct WorkFigures {               // of one structure, at the structure's scale
  double operations_per_step = 0;  // sum_i #J_i (eq11)
  double max_diagonal = 0;         // max_i D_i
  double face_count = 0;           // F = floor(mean faces per cell) (paper)
  double max_face_weight = 0;      // h = max |F| / (|E*| |B_i|) (paper)
  double cells = 0;                // m_s
  double volume = 0;               // V
  double work_per_time_unit() const { return operations_per_step / volume * max_diagonal; }  // eq11, P = 0
};

WorkFigures work_figures(const ReplicableStructure& structure);

// The stability time step of eq. (11) for the Laplacian part of M: 1 / max_i D_i.
double stability_time_step(const ReplicableStructure& structure);

// Operations per time unit of one structure (the rules above) placed at scale `scale` relative to make_crystal's
// unit cell, with the potential term P = max_potential.
double structure_work_per_time_unit(EqualWorkRule rule, const ReplicableStructure& structure, double scale,
                                    double max_potential);

// The scale (relative to make_crystal's unit cell) at which `structure`'s grid costs per unit volume what the
// cubic grid costs at scale `cubic_scale` (its dual edge), both with the potential term `max_potential`. With the
// defaults: the problem-free figure, 1 for the cubic grid, independent of the structure's own scale.
double equal_work_scale(const ReplicableStructure& structure, EqualWorkRule rule = EqualWorkRule::paper,
                        double cubic_scale = 1, double max_potential = 0);

// Dual edge lengths |E*| over every face of every cell (min, mean, max), at the structure's scale.
struct EdgeStatistics {
  double min = 0, mean = 0, max = 0;
};
EdgeStatistics dual_edge_statistics(const ReplicableStructure& structure);

// The dual edge Table 1 reports under `rule`, at the structure's scale: paper, the edge the paper's code prints
// (see above); eq11, the mean.
double reported_dual_edge(const ReplicableStructure& structure, EqualWorkRule rule);

// Table 1 of the DEC-GPE paper (the paper's figures, for comparison in reports): dual edge lengths at equal work.
double paper_table1_dual_edge(GridType grid);

}  // namespace loom::dec
