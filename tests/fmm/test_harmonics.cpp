// The solid harmonics and each translation operator (src/loom/fmm/expansions/harmonics.hpp, operators.hpp) against
// direct evaluation of sums of q/|x - y|: the addition theorems, the derivative ladder against finite differences,
// P2M/M2M/M2L/L2L/L2P, and the error of the expansions falling with the order p at the geometric rate set by
// the ratio of cell radii to distance.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {
namespace {

using C = Complex<double>;

struct Cluster {
  std::vector<Vec3d> x;
  std::vector<double> q;
};

// n charges in [-1, 1) at uniform random points of the ball of radius a around c.
Cluster cluster(Vec3d c, double a, int n, std::uint64_t seed) {
  Random rng(seed);
  Cluster k;
  while (static_cast<int>(k.x.size()) < n) {
    const Vec3d v{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    if (norm2(v) > 1) continue;
    k.x.push_back(c + a * v);
    k.q.push_back(rng.uniform(-1, 1));
  }
  return k;
}

struct Field {
  double phi = 0;
  Vec3d grad{};
  double hess[6] = {0, 0, 0, 0, 0, 0};
};

// Direct potential, gradient and Hessian of sum q/|x - y| at x.
Field direct(const Cluster& k, Vec3d x) {
  Field f;
  for (std::size_t j = 0; j < k.x.size(); ++j) {
    const Vec3d r = x - k.x[j];
    const double r2 = norm2(r), inv_r = 1 / std::sqrt(r2), inv_r3 = inv_r / r2, inv_r5 = inv_r3 / r2;
    f.phi += k.q[j] * inv_r;
    f.grad -= (k.q[j] * inv_r3) * r;
    const int idx[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (int h = 0; h < 6; ++h) {
      const int a = idx[h][0], b = idx[h][1];
      f.hess[h] += k.q[j] * (3 * r[a] * r[b] * inv_r5 - (a == b ? inv_r3 : 0));
    }
  }
  return f;
}

std::vector<C> p2m_about(const Cluster& k, Vec3d c, int p) {
  std::vector<C> M(static_cast<std::size_t>(term_count(p)));
  for (std::size_t j = 0; j < k.x.size(); ++j) p2m(p, 1, k.x[j] - c, &k.q[j], M.data(), term_count(p));
  return M;
}

TEST(Harmonics, AdditionTheoremOfOneOverR) {
  const int p = 40;
  std::vector<C> R(static_cast<std::size_t>(term_count(p))), I(R.size());
  const Vec3d x{0.9, -1.3, 1.1}, y{0.1, 0.2, -0.15};
  regular_harmonics(p, y, R.data());
  irregular_harmonics(p, x, I.data());
  double sum = 0;
  for (int n = 0; n < p; ++n)
    for (int m = -n; m <= n; ++m) sum += (conj(harmonic_at(R.data(), p, n, m)) * harmonic_at(I.data(), p, n, m)).re;
  EXPECT_NEAR(sum, 1 / std::sqrt(norm2(x - y)), 1e-14);
}

TEST(Harmonics, RegularHarmonicsAgreeWithLegendreFunctions) {
  // R_n^m = r^n P_n^m(cos t) e^{i m phi} / (n+m)!, with std::assoc_legendre (which omits the (-1)^m phase)
  const int p = 12;
  const Vec3d v{0.3, -0.4, 0.5};
  std::vector<C> R(static_cast<std::size_t>(term_count(p))), I(R.size());
  regular_harmonics(p, v, R.data());
  irregular_harmonics(p, v, I.data());
  const double r = std::sqrt(norm2(v)), ct = v.z / r, phi = std::atan2(v.y, v.x);
  for (int n = 0; n < p; ++n)
    for (int m = 0; m <= n; ++m) {
      const double pnm = ((m & 1) ? -1.0 : 1.0) * std::assoc_legendre(unsigned(n), unsigned(m), ct);
      const double a = std::pow(r, n) * pnm / std::tgamma(n + m + 1);
      const double b = std::tgamma(n - m + 1) * pnm / std::pow(r, n + 1);
      EXPECT_NEAR(R[term(n, m)].re, a * std::cos(m * phi), 1e-13 * std::abs(a) + 1e-300) << n << " " << m;
      EXPECT_NEAR(R[term(n, m)].im, a * std::sin(m * phi), 1e-13 * std::abs(a) + 1e-300) << n << " " << m;
      EXPECT_NEAR(I[term(n, m)].re, b * std::cos(m * phi), 1e-12 * std::abs(b)) << n << " " << m;
      EXPECT_NEAR(I[term(n, m)].im, b * std::sin(m * phi), 1e-12 * std::abs(b)) << n << " " << m;
    }
}

TEST(Harmonics, TranslationTheorems) {
  const int p = 10, q = 60;
  const Vec3d a{0.3, 0.1, -0.2}, b{-0.1, 0.25, 0.12}, x{0.9, -1.3, 1.1};
  std::vector<C> Ra(static_cast<std::size_t>(term_count(q))), Rb(Ra.size()), Rab(Ra.size()), Ix(Ra.size()),
      Ixb(Ra.size());
  regular_harmonics(q, a, Ra.data());
  regular_harmonics(q, b, Rb.data());
  regular_harmonics(q, a + b, Rab.data());
  irregular_harmonics(q, x, Ix.data());
  irregular_harmonics(q, x - b, Ixb.data());
  for (int n = 0; n < p; ++n)
    for (int m = -n; m <= n; ++m) {
      C s{}, t{};
      for (int k = 0; k <= n; ++k)
        for (int l = -k; l <= k; ++l) s += harmonic_at(Ra.data(), q, k, l) * harmonic_at(Rb.data(), q, n - k, m - l);
      for (int k = 0; k + n < q; ++k)
        for (int l = -k; l <= k; ++l)
          t += conj(harmonic_at(Rb.data(), q, k, l)) * harmonic_at(Ix.data(), q, n + k, m + l);
      const C exact_r = harmonic_at(Rab.data(), q, n, m), exact_i = harmonic_at(Ixb.data(), q, n, m);
      const double scale_r = std::pow(0.5, n) / std::tgamma(n + 1), scale_i = std::tgamma(n + m + 1);
      EXPECT_NEAR(s.re, exact_r.re, 1e-14 * scale_r) << n << " " << m;
      EXPECT_NEAR(s.im, exact_r.im, 1e-14 * scale_r) << n << " " << m;
      EXPECT_NEAR(t.re, exact_i.re, 1e-10 * scale_i) << n << " " << m;
      EXPECT_NEAR(t.im, exact_i.im, 1e-10 * scale_i) << n << " " << m;
    }
}

TEST(Harmonics, DerivativeLadderMatchesFiniteDifferences) {
  const int p = 9;
  const Vec3d y{0.3, -0.2, 0.4};
  const double h = 1e-5;
  std::vector<C> R(static_cast<std::size_t>(term_count(p))), Rp(R.size()), Rm(R.size());
  regular_harmonics(p, y, R.data());
  for (int axis = 0; axis < 3; ++axis) {
    Vec3d yp = y, ym = y;
    yp[axis] += h;
    ym[axis] -= h;
    regular_harmonics(p, yp, Rp.data());
    regular_harmonics(p, ym, Rm.data());
    for (int n = 1; n < p; ++n)
      for (int m = 0; m <= n; ++m) {
        const C fd = (1 / (2 * h)) * (Rp[term(n, m)] - Rm[term(n, m)]);
        const C lo = harmonic_at(R.data(), p, n - 1, m - 1), hi = harmonic_at(R.data(), p, n - 1, m + 1);
        C ladder;
        if (axis == 0) ladder = 0.5 * (hi - lo);
        if (axis == 1) ladder = C{0, -0.5} * (lo + hi);
        if (axis == 2) ladder = harmonic_at(R.data(), p, n - 1, m);
        EXPECT_NEAR(fd.re, ladder.re, 1e-9) << axis << " " << n << " " << m;
        EXPECT_NEAR(fd.im, ladder.im, 1e-9) << axis << " " << n << " " << m;
      }
  }
}

// P2M then evaluation of the multipole series at distance d from a cluster of radius a: the error of order p
// is bounded by (a/d)^p times the total charge over (d - a) at every point, and its RMS over directions falls
// with every order.
TEST(Operators, MultipoleErrorFallsGeometricallyWithOrder) {
  const Vec3d c{0.1, -0.2, 0.3};
  const double a = 0.5, d = 1.7, ratio = a / d;
  const Cluster k = cluster(c, a, 200, 1);
  const Cluster directions = cluster({0, 0, 0}, 1, 50, 7);
  double qsum = 0;
  for (double q : k.q) qsum += std::abs(q);
  double previous = 1e300;
  for (int p = 2; p <= 16; p += 2) {
    const auto M = p2m_about(k, c, p);
    double sum2 = 0;
    for (const Vec3d& u : directions.x) {
      const Vec3d x = c + (d / std::sqrt(norm2(u))) * u;
      const double err = std::abs(m2p_value(p, x - c, M.data()) - direct(k, x).phi);
      EXPECT_LE(err, qsum / (d - a) * std::pow(ratio, p)) << "p = " << p;
      sum2 += err * err;
    }
    const double rms = std::sqrt(sum2 / double(directions.x.size()));
    EXPECT_LT(rms, previous) << "p = " << p;
    previous = rms;
  }
  EXPECT_LT(previous, 1e-8);
}

TEST(Operators, M2MIsExactTranslation) {
  const int p = 12;
  const Cluster k = cluster({0.2, 0.1, -0.1}, 0.3, 50, 2);
  const Vec3d child{0.2, 0.1, -0.1}, parent{-0.1, 0.3, 0.2};
  const auto Mc = p2m_about(k, child, p);
  const auto Mp_direct = p2m_about(k, parent, p);
  std::vector<C> Mp(Mc.size());
  m2m(p, 1, child - parent, Mc.data(), Mp.data(), term_count(p));
  for (int t = 0; t < term_count(p); ++t) {
    EXPECT_NEAR(Mp[t].re, Mp_direct[t].re, 1e-13 * (1 + std::abs(Mp_direct[t].re))) << t;
    EXPECT_NEAR(Mp[t].im, Mp_direct[t].im, 1e-13 * (1 + std::abs(Mp_direct[t].im))) << t;
  }
}

// M2L followed by L2P against the direct potential, gradient and Hessian, for a source cluster of radius a and
// targets within b of the local centre: the error falls like ((a + b)/d)^p.
TEST(Operators, M2LThenL2PMatchesDirectSum) {
  const Vec3d cb{0, 0, 0}, ca{1.1, -0.9, 1.3};
  const double a = 0.4, b = 0.4, d = std::sqrt(norm2(ca - cb)), ratio = (a + b) / d;
  const Cluster k = cluster(cb, a, 100, 3);
  const Cluster targets = cluster(ca, b, 20, 4);
  std::vector<double> err_phi, err_grad, err_hess;
  for (int p = 4; p <= 16; p += 2) {
    const auto M = p2m_about(k, cb, p);
    std::vector<C> L(M.size());
    m2l(p, 1, ca - cb, M.data(), L.data(), term_count(p));
    double e0 = 0, e1 = 0, e2 = 0, n0 = 0, n1 = 0, n2 = 0;
    for (const Vec3d& x : targets.x) {
      LocalField<double> f;
      l2p<2>(p, 1, x - ca, L.data(), term_count(p), &f);
      const Field g = direct(k, x);
      e0 += (f.value - g.phi) * (f.value - g.phi);
      n0 += g.phi * g.phi;
      e1 += norm2(f.gradient - g.grad);
      n1 += norm2(g.grad);
      for (int h = 0; h < 6; ++h) {
        e2 += (f.hessian[h] - g.hess[h]) * (f.hessian[h] - g.hess[h]);
        n2 += g.hess[h] * g.hess[h];
      }
    }
    err_phi.push_back(std::sqrt(e0 / n0));
    err_grad.push_back(std::sqrt(e1 / n1));
    err_hess.push_back(std::sqrt(e2 / n2));
  }
  for (std::size_t i = 1; i < err_phi.size(); ++i) {
    // two more orders gain at least the factor ratio^2 (with slack 4 for the constants)
    EXPECT_LT(err_phi[i], 4 * err_phi[i - 1] * ratio * ratio) << i;
    EXPECT_LT(err_grad[i], 4 * err_grad[i - 1] * ratio * ratio) << i;
    EXPECT_LT(err_hess[i], 4 * err_hess[i - 1] * ratio * ratio) << i;
  }
  EXPECT_LT(err_phi.back(), 1e-6);
  EXPECT_LT(err_grad.back(), 1e-5);
  EXPECT_LT(err_hess.back(), 1e-4);
}

TEST(Operators, L2LIsExactTranslation) {
  const int p = 10, nt = term_count(p);
  const Vec3d cb{0, 0, 0}, parent{1.5, 1.2, -1.4}, child{1.6, 1.05, -1.3};
  const Cluster k = cluster(cb, 0.3, 30, 5);
  const auto M = p2m_about(k, cb, p);
  std::vector<C> Lp(M.size()), Lc(M.size());
  m2l(p, 1, parent - cb, M.data(), Lp.data(), nt);
  l2l(p, 1, child - parent, Lp.data(), Lc.data(), nt);
  for (const Vec3d& x : {Vec3d{1.62, 1.0, -1.25}, Vec3d{1.55, 1.1, -1.35}}) {
    LocalField<double> fp, fc;
    l2p<2>(p, 1, x - parent, Lp.data(), nt, &fp);
    l2p<2>(p, 1, x - child, Lc.data(), nt, &fc);
    EXPECT_NEAR(fc.value, fp.value, 1e-13 * std::abs(fp.value));
    EXPECT_NEAR(fc.gradient.x, fp.gradient.x, 1e-12 * std::sqrt(norm2(fp.gradient)));
    EXPECT_NEAR(fc.gradient.z, fp.gradient.z, 1e-12 * std::sqrt(norm2(fp.gradient)));
    EXPECT_NEAR(fc.hessian[1], fp.hessian[1], 1e-11 * std::abs(fp.hessian[0]));
  }
}

TEST(Operators, SeveralComponentsAreIndependentExpansions) {
  // ncomp = 3 with strengths (q, 2q, -q) gives three expansions proportional to the single one
  const int p = 8, nt = term_count(p);
  const Cluster k = cluster({0, 0, 0}, 0.5, 20, 6);
  std::vector<C> M1(static_cast<std::size_t>(nt)), M3(static_cast<std::size_t>(3 * nt));
  for (std::size_t j = 0; j < k.x.size(); ++j) {
    const double q3[3] = {k.q[j], 2 * k.q[j], -k.q[j]};
    p2m(p, 1, k.x[j], &k.q[j], M1.data(), nt);
    p2m(p, 3, k.x[j], q3, M3.data(), nt);
  }
  std::vector<C> L1(M1.size()), L3(M3.size());
  m2l(p, 1, Vec3d{2, 1, 1}, M1.data(), L1.data(), nt);
  m2l(p, 3, Vec3d{2, 1, 1}, M3.data(), L3.data(), nt);
  for (int t = 0; t < nt; ++t) {
    EXPECT_NEAR(L3[t + nt].re, 2 * L1[t].re, 1e-14 * (1 + std::abs(L1[t].re)));
    EXPECT_NEAR(L3[t + 2 * nt].im, -L1[t].im, 1e-14 * (1 + std::abs(L1[t].im)));
  }
}

TEST(PairKernels, GaussianCutoffSeriesMatchesClosedForm) {
  // g/rho^3 and (3g - rho g')/rho^5 from the closed form (long double) against the double kernel on both sides
  // of what were its switches at rho = 0.5 and 8.5 (now at 1.25 and 9.5: test_pair_kernels.cpp checks them)
  for (double rho : {0.05, 0.2, 0.49, 0.51, 1.0, 2.0, 4.0, 8.4, 8.6, 12.0}) {
    const long double r = rho, e = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) * r * std::exp(-r * r / 2);
    const long double g = std::erf(r / std::sqrt(2.0L)) - e;
    const long double f = 3 * std::erf(r / std::sqrt(2.0L)) - (r * r + 3) * e;
    const auto k = gaussian_cutoff(rho);
    // the long double closed form itself cancels at small rho; above 8.5 the kernel drops terms below 1e-13
    const double tol = rho < 0.3 ? 1e-6 : (rho > 8.5 ? 2e-13 : 1e-12);
    EXPECT_NEAR(k.g_over_rho3, double(g / (r * r * r)), tol * k.g_over_rho3) << rho;
    EXPECT_NEAR(k.f_over_rho5, double(f / (r * r * r * r * r)), tol * k.f_over_rho5) << rho;
  }
  // the small-rho limits sqrt(2/pi)/3 and sqrt(2/pi)/5
  EXPECT_NEAR(gaussian_cutoff(1e-8).g_over_rho3, std::sqrt(2 / std::numbers::pi) / 3, 1e-15);
  EXPECT_NEAR(gaussian_cutoff(1e-8).f_over_rho5, std::sqrt(2 / std::numbers::pi) / 5, 1e-15);
  EXPECT_NEAR(gaussian_cutoff(10.0).g_over_rho3 * 1000, 1.0, 1e-12);  // g -> 1 far away
}

}  // namespace
}  // namespace loom::fmm
