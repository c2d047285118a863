// Where issue 19's excision-surface mode comes from: the spectrum of the linearised GH operator of the inner shell
// reduced to one ray (radial_model.hpp), dense, by LAPACK's dgeev. Printed: the largest growth rate (the real part
// of the eigenvalues of the semi-discrete operator, or log|mu| / dt of the one-step propagator with a filter)
// against N_r, the filter and the excision radius, and where the growing eigenvector lives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "radial_model.hpp"

extern "C" void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr,
                       double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr, double* work,
                       const int* lwork, int* info);

namespace loom::gr::testing {
namespace {

struct Spectrum {
  std::vector<double> re, im;
  Dense vectors{0};
};

Spectrum eigen(Dense m) {
  const int n = m.n;
  Spectrum s;
  s.re.resize(n), s.im.resize(n);
  s.vectors = Dense(n);
  int lwork = -1, info = 0, one = 1;
  double query = 0, unused = 0;
  dgeev_("N", "V", &n, m.a.data(), &n, s.re.data(), s.im.data(), &unused, &one, s.vectors.a.data(), &n, &query,
         &lwork, &info);
  lwork = int(query);
  std::vector<double> work(lwork);
  dgeev_("N", "V", &n, m.a.data(), &n, s.re.data(), s.im.data(), &unused, &one, s.vectors.a.data(), &n, work.data(),
         &lwork, &info);
  EXPECT_EQ(info, 0);
  return s;
}

enum class Target { none, step, stage, rates };

// The one-step map of Dormand-Prince 5(4) (dormand_prince.cpp's tableau) for d_t u = J u with the filter F on
// the chosen target.
Dense propagator(const RadialOperator& op, const Dense& f, Target target, double dt) {
  static constexpr double a[6][5] = {{},
                                     {1.0 / 5},
                                     {3.0 / 40, 9.0 / 40},
                                     {44.0 / 45, -56.0 / 15, 32.0 / 9},
                                     {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
                                     {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656}};
  static constexpr double b[6] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};
  const int n = op.interior.n;
  Dense j = target == Target::rates ? product(f, op.interior) : op.interior;
  for (std::size_t i = 0; i < j.a.size(); ++i) j.a[i] += op.penalty.a[i];
  std::vector<Dense> k;
  for (int s = 0; s <= 6; ++s) {
    const double* row = s < 6 ? a[s] : b;
    Dense y(n);
    for (int i = 0; i < n; ++i) y(i, i) = 1;
    for (int q = 0; q < s; ++q)
      for (std::size_t i = 0; i < y.a.size(); ++i) y.a[i] += dt * row[q] * k[q].a[i];
    if (target == Target::stage || (s == 6 && target == Target::step)) y = product(f, y);
    if (s == 6) return y;
    k.push_back(product(j, y));
  }
  return Dense(0);
}

struct Growth {
  double rate = 0, frequency = 0;
  std::vector<double> profile;  // the eigenvector's largest |component| per radial index, normalised
  int mode = 0;                 // its largest component at the excision surface
};

// The fastest-growing eigenvalue of the semi-discrete operator (target none) or of the one-step propagator.
Growth fastest(const RadialModel& m, double alpha, int order, Target target, double dt) {
  const RadialOperator op = radial_operator(m);
  Dense matrix = op.interior;
  if (target == Target::none)
    for (std::size_t i = 0; i < matrix.a.size(); ++i) matrix.a[i] += op.penalty.a[i];
  else
    matrix = propagator(op, radial_filter(m, alpha, order), target, dt);
  const Spectrum s = eigen(matrix);
  Growth g;
  g.rate = -1e300;
  int best = 0;
  for (int i = 0; i < matrix.n; ++i) {
    const double rate = target == Target::none ? s.re[i] : std::log(std::hypot(s.re[i], s.im[i])) / dt;
    const double freq = target == Target::none ? s.im[i] : std::atan2(s.im[i], s.re[i]) / dt;
    if (rate > g.rate) g.rate = rate, g.frequency = freq, best = i;
  }
  g.profile.assign(m.n, 0.0);
  double top = 0, at0 = 0;
  for (int p = 0; p < m.n; ++p)
    for (int c = 0; c < state_size; ++c) {
      const double v = std::abs(s.vectors(state_size * p + c, best));
      g.profile[p] = std::max(g.profile[p], v);
      top = std::max(top, v);
      if (p == 0 && v > at0) at0 = v, g.mode = c;
    }
  for (double& v : g.profile) v /= top;
  return g;
}

void print(const char* what, const Growth& g) {
  std::printf("%-44s rate %+.4f  freq %.3f  comp %2d  profile", what, g.rate, g.frequency, g.mode);
  for (double v : g.profile) std::printf(" %.2f", v);
  std::printf("\n");
}

RadialModel paper_ray() {
  RadialModel m;
  m.hole = {1, {0.2, 0.3, 0.4}};
  return m;
}

TEST(GhRadialSpectrum, Explore) {
  // The local (frozen-coefficient, k = 0) growth: the largest real part of the eigenvalues of each point's A_i.
  RadialModel m = paper_ray();
  m.n = 12;
  m.direction[0] = 0.6, m.direction[1] = -0.8, m.direction[2] = 0;
  const RadialOperator op = radial_operator(m);
  for (int i = 0; i < m.n; ++i) {
    const Spectrum s = eigen(op.local[i]);
    double top = -1e300;
    for (double v : s.re) top = std::max(top, v);
    std::printf("r = %.3f: largest Re eig(A) %+.4f\n", op.radii[i], top);
  }
  print("whole", fastest(m, 0, 32, Target::none, 0.033));
}

}  // namespace
}  // namespace loom::gr::testing
