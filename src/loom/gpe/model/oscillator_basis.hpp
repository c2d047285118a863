// Orthonormal eigenfunctions of the harmonic oscillator and their Gauss rules: Hermite functions along z and
// normalised Laguerre functions of rho^2 for angular momentum m. The stationary-vortex solver (eq. 14 of the
// DEC-GPE paper) expands f(rho, z) in them, so the trap part of the operator is diagonal and exact.
// The three-term recurrences run with a separate logarithmic scale, so that neither the tiny Gaussian factor
// far out nor the large Gauss weights there overflow or underflow.
#pragma once

#include <span>
#include <vector>

namespace loom::gpe {

// h_k(s), k < out.size(): orthonormal on the real line, h_0 = pi^(-1/4) exp(-s^2/2).
void hermite_functions(double s, std::span<double> out);

// l_n(x) = sqrt(n!/(n+m)!) x^(m/2) exp(-x/2) L_n^(m)(x), n < out.size(): orthonormal on [0, inf) with dx.
void laguerre_functions(double x, int m, std::span<double> out);

// The Gauss rule of `points` nodes for such a family u_k: for k, l < points,
//   sum_j W_j u_k(x_j) u_l(x_j) = delta_kl   with   1/W_j = sum_{k < points} u_k(x_j)^2  (Christoffel).
// Stored without the weights themselves (they overflow far out): `scaled` holds u_k(x_j) sqrt(W_j) for
// k < modes (node-major, points x modes), the columns of an orthogonal matrix; inv_weights holds 1/W_j.
struct FunctionRule {
  int points = 0, modes = 0;
  std::vector<double> nodes;
  std::vector<double> inv_weights;
  std::vector<double> scaled;
};
FunctionRule hermite_rule(int points, int modes);
FunctionRule laguerre_rule(int m, int points, int modes);

}  // namespace loom::gpe
