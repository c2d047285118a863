// The paper's "equal work" placement of a grid (section 5.1 and Table 1 of the DEC-GPE paper): the length scale
// at which integrating one time unit costs as many arithmetic operations, per unit volume, as the cubic grid of
// dual edge 1, when each grid runs at its own stability time step (eq. 11).
//
// Definitions (a structure at scale s, lengths relative to make_crystal's unit cell):
//   operations per step per volume   N(s)  = sum_i #J_i / (V s^3),  #J_i = #dB_i + 1 (section 4: the faces and i)
//   stability step, eq. (11), U = 0  dt(s) = 1 / (2 max_i M_ii) = s^2 / max_i D_i,
//                                    D_i = (1/|B_i|) sum_F |F|/|E*|   (M = -1/2 Lap, so 2 M_ii = D_i)
//   work per time unit per volume    W(s)  = N(s) / dt(s) = W(1) / s^5
// The equal-work scale s_g solves W_g(s_g) = W_cubic(1): s_g = (W_g(1) / W_cubic(1))^(1/5). The cubic grid's
// W(1) = 7 * 6 = 42. The potential term of M_ii is left out: it depends on the problem, not on the grid.
// The reported "equal-work dual edge" is s_g times the mean dual edge (over every face of every cell).
//
// This gives 1, 1.057, 0.824, 0.862, 0.858, 0.848 (cubic, FCC, BCC, A15, C15, Z; min..max for the last three
// 0.54..1.16, 0.67..1.08, 0.68..1.21), not Table 1's 1, 1.09, 0.80, 0.93, 0.68, 0.99. Table 1 cannot follow from
// eq. (11) and this operation count with any per-cell cost: FCC and BCC have the same cell density (12 per cube)
// and the same max D_i (48), so their scales differ only through the operations per cell, by at most
// (16/3 / 4)^(1/5) (all cost in the faces); Table 1's FCC/BCC ratio 1.09 / 0.80 needs (1.36 / 1.22)^5 = 1.7. A
// problem-dependent potential in M_ii only moves every grid towards the fixed-step ratios (FCC 0.96, BCC 0.72).
#pragma once

#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {

struct WorkFigures {
  double operations_per_step = 0;  // sum_i #J_i over one structure
  double max_diagonal = 0;         // max_i D_i (at the structure's scale)
  double volume = 0;               // V (at the structure's scale)
  double work_per_time_unit() const { return operations_per_step / volume * max_diagonal; }  // W
};

WorkFigures work_figures(const ReplicableStructure& structure);

// The stability time step of eq. (11) for the Laplacian part of M: 1 / max_i D_i.
double stability_time_step(const ReplicableStructure& structure);

// s_g of the header comment (1 for the cubic grid).
double equal_work_scale(const ReplicableStructure& structure);

// Dual edge lengths |E*| over every face of every cell (min, mean, max), at the structure's scale.
struct EdgeStatistics {
  double min = 0, mean = 0, max = 0;
};
EdgeStatistics dual_edge_statistics(const ReplicableStructure& structure);

// Table 1 of the DEC-GPE paper (the paper's figures, for comparison in reports): dual edge lengths at equal work.
double paper_table1_dual_edge(GridType grid);

}  // namespace loom::dec
