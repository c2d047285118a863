// Fields and comparisons shared by the tests of `loom hit`: a single Fourier mode, solvers built from a velocity
// or from the seeded random field, and the largest difference of two mode arrays.
#pragma once

#include <algorithm>
#include <cmath>

#include "loom/core/array.hpp"
#include "loom/hit/initial.hpp"
#include "loom/hit/solver.hpp"

namespace loom::test {

// u = a sin(k . x) with a . k = 0: the nonlinear term is a gradient, so u decays as e^{-nu |k|^2 t} exactly.
inline core::Array<double> single_mode(hit::SpectralGrid g, hit::Wavevector k, hit::PointVector a, double decay = 1) {
  const Index n = g.n, N = g.points();
  core::Array<double> u(3 * std::size_t(N));
  double* v = u.write(core::Where::host);
  for (Index i = 0; i < N; ++i) {
    const double x = g.spacing() * double(i % n), y = g.spacing() * double((i / n) % n),
                 z = g.spacing() * double(i / (n * n));
    const double s = decay * std::sin(k.x * x + k.y * y + k.z * z);
    v[i] = a.x * s, v[N + i] = a.y * s, v[2 * N + i] = a.z * s;
  }
  return u;
}

inline hit::Solver random_solver(core::Backend b, Index n, hit::SolverOptions o, std::uint64_t seed = 7,
                                 double k_peak = 3) {
  hit::Solver s(b, {n}, o);
  s.set_modes(hit::random_solenoidal({n}, o.dealiasing, hit::SpectrumShape::exponential, k_peak, 0.5, seed));
  return s;
}

inline double max_difference(const core::Array<hit::Complex>& a, const core::Array<hit::Complex>& b) {
  const auto x = a.host(), y = b.host();
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, core::abs(x[i] - y[i]));
  return d;
}

inline double max_abs(const core::Array<hit::Complex>& a) {
  double d = 0;
  for (const auto& v : a.host()) d = std::max(d, core::abs(v));
  return d;
}

}  // namespace loom::test
