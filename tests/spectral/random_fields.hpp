// Reproducible random data for the spectral tests.
#pragma once

#include <random>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/host_device.hpp"

namespace loom::spectral::fields {

inline std::vector<double> random_values(Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = uni(rng);
  return v;
}

// Valid on the host.
inline core::Array<double> random_array(Index n, unsigned seed) {
  return core::Array<double>::from(random_values(n, seed));
}

}  // namespace loom::spectral::fields
