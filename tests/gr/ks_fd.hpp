// Sixth-order central finite differences of the analytic Kerr-Schild fields along x^i, for tests that check the
// closed-form derivatives and the vacuum equations at single points independently of the spectral grid.
#pragma once

#include <array>
#include <functional>
#include <vector>

namespace loom::gr::testing {

// d/dx^axis of a vector-valued f at x, by the 7-point stencil with step h.
inline std::vector<double> central_difference(const std::function<std::vector<double>(const double (&)[3])>& f,
                                              const double (&x)[3], int axis, double h) {
  static constexpr double weights[3] = {45.0 / 60, -9.0 / 60, 1.0 / 60};  // for offsets 1, 2, 3
  std::vector<double> out;
  for (int k = 1; k <= 3; ++k) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[axis] += k * h;
    xm[axis] -= k * h;
    const auto fp = f(xp), fm = f(xm);
    if (out.empty()) out.assign(fp.size(), 0.0);
    for (std::size_t c = 0; c < fp.size(); ++c) out[c] += weights[k - 1] * (fp[c] - fm[c]) / h;
  }
  return out;
}

}  // namespace loom::gr::testing
