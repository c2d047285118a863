// An independent long double evaluation of the Gaussian-cutoff Biot-Savart pair (pair_kernels.hpp), for the tests of
// its double and float arithmetic: the cutoff factors from a long power series below rho = 2 and from erfl/expl
// above, where neither cancels by more than a factor ~60 (so both are good to ~1e-17), and the pair built from them.
#pragma once

#include <cmath>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm::test {

using LongVec = Vec3<long double>;

struct LongCutoff {
  long double g_over_rho3, f_over_rho5;  // g/rho^3 and (3g - rho g')/rho^5
};

// The series with t_k = (-rho^2/2)^k / k! summed until the terms vanish (the notes' g; as in pair_kernels.hpp's
// comment, but summed term by term, not by Horner from stored coefficients), or the closed forms of the notes.
inline LongCutoff long_double_cutoff(long double rho, bool closed_form) {
  const long double c = std::sqrt(2.0L / 3.14159265358979323846264338327950288L), x = rho * rho;
  if (!closed_form) {
    long double t = 1, g = 0, f = 0;
    for (int k = 0; k < 200 && (k < 2 || std::abs(t) > 1e-40L); ++k) {
      if (k > 0) t *= -x / (2 * k);
      g += t / (2 * k + 3);
      f += t / (2 * k + 5);
    }
    return {c * g, c * f};
  }
  const long double e = c * rho * std::exp(-x / 2), erf_term = std::erf(rho / std::sqrt(2.0L));
  return {(erf_term - e) / (x * rho), (3 * erf_term - (x + 3) * e) / (x * x * rho)};
}

inline LongCutoff long_double_cutoff(long double rho) { return long_double_cutoff(rho, rho >= 2); }

// 4 pi times the velocity and stretching at body i from body j (r = x_i - x_j, sigma_j), in long double.
inline void long_double_pair(LongVec r, LongVec alpha_j, long double sigma_j, LongVec alpha_i, LongVec& velocity,
                             LongVec& stretching) {
  const long double d = std::sqrt(norm2(r)), rho = d / sigma_j;
  const LongCutoff k = long_double_cutoff(rho);
  const long double g_r3 = k.g_over_rho3 / (sigma_j * sigma_j * sigma_j);
  const long double f_r5 = k.f_over_rho5 / (sigma_j * sigma_j * sigma_j * sigma_j * sigma_j);
  const LongVec a_cross_r = cross(alpha_j, r);
  velocity = g_r3 * a_cross_r;
  stretching = g_r3 * cross(alpha_j, alpha_i) - (f_r5 * dot(alpha_i, r)) * a_cross_r;
}

struct PairErrors {
  double velocity = 0, stretching = 0;          // worst relative errors
  double velocity_rho = 0, stretching_rho = 0;  // where
};

// The worst errors of a Real pair evaluation `pair(r, alpha_j, inv_sigma_j, alpha_i, velocity, stretching)` against
// long_double_pair over `samples` random geometries: rho log-uniform in [1e-3, 30], sigma log-uniform in [1e-3, 1],
// random directions and strengths in [-1, 1]^3. The reference takes the Real inputs as they are (sigma_j = 1 /
// inv_sigma_j), so only the pair's arithmetic counts. Errors are relative to the size of each term: |g/|r|^3|
// |alpha_j| |r| for the velocity, |g/|r|^3| |alpha_j| |alpha_i| + |F| |alpha_i| |alpha_j| |r|^2 for the stretching.
template <class Real, class Pair>
PairErrors worst_pair_errors(int samples, std::uint64_t seed, const Pair& pair) {
  Random rng(seed);
  PairErrors worst;
  auto to_long = [](Vec3<Real> v) { return LongVec{v.x, v.y, v.z}; };
  auto norm = [](LongVec v) { return std::sqrt(norm2(v)); };
  for (int k = 0; k < samples; ++k) {
    const double rho = 1e-3 * std::pow(3e4, rng.uniform(0, 1)), sigma = std::exp(rng.uniform(std::log(1e-3), 0));
    Vec3d dir{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    dir = (1 / std::sqrt(norm2(dir))) * dir;
    const Vec3<Real> r{Real(rho * sigma * dir.x), Real(rho * sigma * dir.y), Real(rho * sigma * dir.z)};
    const Vec3<Real> alpha_j{Real(rng.uniform(-1, 1)), Real(rng.uniform(-1, 1)), Real(rng.uniform(-1, 1))};
    const Vec3<Real> alpha_i{Real(rng.uniform(-1, 1)), Real(rng.uniform(-1, 1)), Real(rng.uniform(-1, 1))};
    const Real inv_sigma = Real(1 / sigma);
    Vec3<Real> u{}, s{};
    pair(r, alpha_j, inv_sigma, alpha_i, u, s);
    const LongVec lr = to_long(r), aj = to_long(alpha_j), ai = to_long(alpha_i);
    const long double ls = 1 / static_cast<long double>(inv_sigma), d = norm(lr);
    LongVec lu, lst;
    long_double_pair(lr, aj, ls, ai, lu, lst);
    const LongCutoff c = long_double_cutoff(d / ls);
    const long double g_r3 = c.g_over_rho3 / (ls * ls * ls), f_r5 = c.f_over_rho5 / (ls * ls * ls * ls * ls);
    const double eu = double(norm(to_long(u) - lu) / (std::abs(g_r3) * norm(aj) * d));
    const double es = double(norm(to_long(s) - lst) /
                             (std::abs(g_r3) * norm(aj) * norm(ai) + std::abs(f_r5) * norm(ai) * norm(aj) * d * d));
    if (eu > worst.velocity) worst = {eu, worst.stretching, double(d / ls), worst.stretching_rho};
    if (es > worst.stretching) worst = {worst.velocity, es, worst.velocity_rho, double(d / ls)};
  }
  return worst;
}

}  // namespace loom::fmm::test
