// The 3+1 split of a spacetime metric psi_ab at one point (LSKOR 2006, section II: lapse N, shift N^i, spatial
// metric g_ij, unit normal t^a), the quantities every GH formula needs. Written once for both backends.
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::gr {

struct ThreePlusOne {
  double lapse = 1;
  double shift[3] = {0, 0, 0};            // N^i
  double inverse_spatial[3][3] = {};      // g^ij
  double inverse[4][4] = {};              // psi^ab
  double normal_up[4] = {1, 0, 0, 0};     // t^a = (1, -N^i) / N
  double normal_down[4] = {-1, 0, 0, 0};  // t_a = (-N, 0, 0, 0)
};

// The inverse of a symmetric 3 x 3 matrix by cofactors.
LOOM_HOST_DEVICE inline void invert_symmetric3(const double (&m)[3][3], double (&inv)[3][3]) {
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2],
               c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02, s = 1 / det;
  inv[0][0] = c00 * s, inv[0][1] = c01 * s, inv[0][2] = c02 * s;
  inv[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * s;
  inv[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * s;
  inv[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * s;
  inv[1][0] = inv[0][1], inv[2][0] = inv[0][2], inv[2][1] = inv[1][2];
}

// g_ij = psi_ij, N^i = g^ij psi_0j, N^2 = -psi_00 + N^i psi_0i; psi^00 = -1/N^2, psi^0i = N^i/N^2,
// psi^ij = g^ij - N^i N^j / N^2.
LOOM_HOST_DEVICE inline ThreePlusOne three_plus_one(const double (&psi)[4][4]) {
  ThreePlusOne s;
  const double g[3][3] = {{psi[1][1], psi[1][2], psi[1][3]},
                          {psi[2][1], psi[2][2], psi[2][3]},
                          {psi[3][1], psi[3][2], psi[3][3]}};
  invert_symmetric3(g, s.inverse_spatial);
  double shift_dot = 0;
  for (int i = 0; i < 3; ++i) {
    s.shift[i] = 0;
    for (int j = 0; j < 3; ++j) s.shift[i] += s.inverse_spatial[i][j] * psi[0][j + 1];
    shift_dot += s.shift[i] * psi[0][i + 1];
  }
  s.lapse = std::sqrt(-psi[0][0] + shift_dot);
  const double n2 = s.lapse * s.lapse;
  s.inverse[0][0] = -1 / n2;
  for (int i = 0; i < 3; ++i) {
    s.inverse[0][i + 1] = s.inverse[i + 1][0] = s.shift[i] / n2;
    for (int j = 0; j < 3; ++j) s.inverse[i + 1][j + 1] = s.inverse_spatial[i][j] - s.shift[i] * s.shift[j] / n2;
  }
  s.normal_up[0] = 1 / s.lapse;
  for (int i = 0; i < 3; ++i) s.normal_up[i + 1] = -s.shift[i] / s.lapse;
  s.normal_down[0] = -s.lapse;
  return s;
}

}  // namespace loom::gr
