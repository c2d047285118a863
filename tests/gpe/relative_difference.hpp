// max_i |a_i - b_i| / max_i |b_i|: how far a field (real or complex) is from a reference, relative to the
// reference's largest value; 1 when the sizes differ or there is nothing to compare.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/complex.hpp"

namespace loom::test {

template <class T>
double max_relative_difference(std::span<const T> a, std::span<const T> b) {
  using core::abs;
  using std::abs;
  if (a.size() != b.size() || a.empty()) return 1;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, double(abs(a[i] - b[i])));
    scale = std::max(scale, double(abs(b[i])));
  }
  return diff / scale;
}

template <class T>
double max_relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  return max_relative_difference(std::span<const T>(a), std::span<const T>(b));
}

template <class T>
double max_relative_difference(const core::Array<T>& a, const core::Array<T>& b) {
  return max_relative_difference(a.host(), b.host());
}

}  // namespace loom::test
