// The relative L2 difference of two expansions' coefficients, sqrt(sum |a_k - b_k|^2 / sum |b_k|^2), for the
// operator tests that compare an implementation's multipole or local coefficients with the plain operators'.
#pragma once

#include <cmath>
#include <vector>

#include "loom/fmm/expansions/harmonics.hpp"

namespace loom::fmm::test {

inline double relative_difference(const std::vector<Complex<double>>& a, const std::vector<Complex<double>>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i].re - b[i].re) * (a[i].re - b[i].re) + (a[i].im - b[i].im) * (a[i].im - b[i].im);
    den += b[i].re * b[i].re + b[i].im * b[i].im;
  }
  return std::sqrt(num / den);
}

}  // namespace loom::fmm::test
