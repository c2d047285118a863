// Test and benchmark bodies: uniform in a cube, on a spherical shell, and clustered (Plummer), from a seeded
// generator that gives the same bodies on every machine (splitmix64, no std distributions).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

enum class Distribution {
  cube,     // uniform in [-1, 1)^3
  sphere,   // uniform on the unit sphere's surface
  plummer,  // Plummer model of scale radius 1 (density ~ (1 + r^2)^{-5/2}), the outer 0.1% of mass cut off
};
Distribution parse_distribution(std::string_view text);  // "cube", "sphere", "plummer"; UsageError otherwise
std::string_view to_string(Distribution d);

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_;
};

std::vector<Vec3d> make_positions(Distribution d, Index n, std::uint64_t seed);
// n values uniform in [lo, hi).
std::vector<double> make_uniform(Index n, double lo, double hi, std::uint64_t seed);
// n vectors with components uniform in [lo, hi).
std::vector<Vec3d> make_uniform_vectors(Index n, double lo, double hi, std::uint64_t seed);

}  // namespace loom::fmm
