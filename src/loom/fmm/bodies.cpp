// Body distributions for tests and benchmarks.
#include "loom/fmm/bodies.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "loom/core/error.hpp"

namespace loom::fmm {

Distribution parse_distribution(std::string_view text) {
  if (text == "cube") return Distribution::cube;
  if (text == "sphere") return Distribution::sphere;
  if (text == "plummer") return Distribution::plummer;
  throw UsageError("dist = \"" + std::string(text) + "\": expected one of cube, sphere, plummer");
}

std::string_view to_string(Distribution d) {
  switch (d) {
    case Distribution::cube:
      return "cube";
    case Distribution::sphere:
      return "sphere";
    case Distribution::plummer:
      return "plummer";
  }
  return "?";
}

namespace {
Vec3d random_direction(Random& rng) {
  const double z = rng.uniform(-1, 1);
  const double phi = rng.uniform(0, 2 * std::numbers::pi);
  const double s = std::sqrt(std::max(0.0, 1 - z * z));
  return {s * std::cos(phi), s * std::sin(phi), z};
}
}  // namespace

std::vector<Vec3d> make_positions(Distribution d, Index n, std::uint64_t seed) {
  Random rng(seed);
  std::vector<Vec3d> x(static_cast<std::size_t>(n));
  for (auto& p : x) {
    switch (d) {
      case Distribution::cube:
        p = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
        break;
      case Distribution::sphere:
        p = random_direction(rng);
        break;
      case Distribution::plummer: {
        // the mass inside r is u = r^3 / (1 + r^2)^{3/2}: r = 1 / sqrt(u^{-2/3} - 1)
        const double u = rng.uniform(1e-10, 0.999);
        p = (1.0 / std::sqrt(std::pow(u, -2.0 / 3.0) - 1.0)) * random_direction(rng);
        break;
      }
    }
  }
  return x;
}

std::vector<double> make_uniform(Index n, double lo, double hi, std::uint64_t seed) {
  Random rng(seed);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& q : v) q = rng.uniform(lo, hi);
  return v;
}

std::vector<Vec3d> make_uniform_vectors(Index n, double lo, double hi, std::uint64_t seed) {
  Random rng(seed);
  std::vector<Vec3d> v(static_cast<std::size_t>(n));
  for (auto& a : v) a = {rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi)};
  return v;
}

}  // namespace loom::fmm
