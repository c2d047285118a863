// The body-body (P2P) interactions, one formula for host and device, templated on the real type:
//   Laplace:       phi_i += q_j / |r|,  grad_i += -q_j r / |r|^3                         (r = x_i - x_j)
//   Biot-Savart:   u_i += g(rho)/|r|^3 (alpha_j x r),  rho = |r|/sigma_j, with the Gaussian cutoff
//                  g(rho) = erf(rho/sqrt2) - sqrt(2/pi) rho e^{-rho^2/2}   (the paper's eq. (1)-(2))
//   stretching:    s_i += g/|r|^3 (alpha_j x alpha_i) + F (alpha_i . r)(r x alpha_j),
//                  F = -(1/|r|) d/d|r| (g/|r|^3) = (3g - rho g')/|r|^5   (the classical (alpha.grad)u form)
//   Gaussian RBF:  w_i += alpha_j (2 pi sigma_j^2)^{-3/2} e^{-|r|^2/(2 sigma_j^2)}
// The 1/(4 pi) of Biot-Savart is applied once per target, not per pair. A pair at r = 0 adds nothing (a body
// and itself, or coincident bodies).
#pragma once

#include "loom/fmm/real.hpp"

namespace loom::fmm {

template <class Real>
struct CutoffFactors {
  Real g_over_rho3 = 0;  // g(rho) / rho^3, or g/|r|^3 (biot_savart_factors)
  Real f_over_rho5 = 0;  // (3 g(rho) - rho g'(rho)) / rho^5, or F = (3g - rho g')/|r|^5
};

// Below series_below the cutoff comes from its power series, because the closed forms cancel there:
// 3 erf - (rho^2 + 3) e, of order rho^5, loses a factor ~250 at rho = 1/2 and ~8 at 1.25. The switch sits where
// series and closed form lose about the same (measured against long double: worst relative error of F 3e-15 in
// double at 1.25, 1e-6 in float at 1.5, against 7e-14 and 5e-5 with the switch at 1/2); pairs that close are rare
// (0.3% of the P2P pairs at sigma = spacing), so the branch seldom splits a warp. Above singular_above the kernel
// is the singular one to rounding: 1 - g = erfc(rho/sqrt2) + e < eps/2 and (rho^2 + 3) e / 3 < eps/2 (double:
// rho = 9.5 gives 6e-18; float: rho = 6.6 gives 2.8e-8); that branch, which skips exp, is what most pairs take
// (79% of the P2P pairs, 60% of the warps' steps entirely, in float at sigma = spacing with the guard of 6 sigma).
template <class Real>
constexpr Real series_below = sizeof(Real) == 4 ? Real(1.5) : Real(1.25);
template <class Real>
constexpr Real singular_above = sizeof(Real) == 4 ? Real(6.6) : Real(9.5);

// The series' coefficients, x = rho^2, t_k = (-x/2)^k / k!:
//   g/rho^3             = sqrt(2/pi) sum_{k>=0} t_k / (2k+3) = sum_k c_k x^k,  c_k = sqrt(2/pi) (-1/2)^k / (k! (2k+3))
//   (3g - rho g')/rho^5 = sqrt(2/pi) sum_{k>=0} t_k / (2k+5) = sum_k d_k x^k,  d_k = sqrt(2/pi) (-1/2)^k / (k! (2k+5))
// computed once in double at compile time. Terms up to series_below, the first dropped one far below rounding
// relative to c_0 = 0.27: k = 17 in double (x/2 = 0.78: 0.78^17/17!/37, 3e-18 of c_0), k = 12 in float
// (x/2 = 1.125: 1.125^12/12!/27, 1e-9 of c_0).
template <class Real>
constexpr int series_terms = sizeof(Real) == 4 ? 12 : 17;

struct CutoffSeries {
  double g[series_terms<double>], f[series_terms<double>];
};

constexpr CutoffSeries cutoff_series() {
  constexpr double sqrt_2_over_pi = 0.79788456080286535588;
  CutoffSeries c{};
  double t = sqrt_2_over_pi;  // sqrt(2/pi) (-1/2)^k / k!
  for (int k = 0; k < series_terms<double>; ++k) {
    if (k > 0) t *= -0.5 / k;
    c.g[k] = t / (2 * k + 3);
    c.f[k] = t / (2 * k + 5);
  }
  return c;
}

// q(rho) = e^{rho^2/2} erfc(rho/sqrt2), so that erfc(rho/sqrt2) = e^{-rho^2/2} q reuses the exponential that e
// needs anyway and erf(rho/sqrt2) = 1 - e^{-rho^2/2} q costs no erf. Coefficients from tools/fit_scaled_erfc.py.
// Float, on its closed form's range series_below<float> = 1.5 to singular_above<float> = 6.6: the degree-12
// polynomial in v = (rho - 4.05)/2.55 interpolating q at the 13 Chebyshev nodes, relative error 2.7e-8 before
// rounding (13 FMAs against ~35 instructions of erff, which has its own exponential).
LOOM_HOST_DEVICE inline float scaled_erfc(float rho) {
  constexpr float c[13] = {0.186714103f,    -0.106315671f,    0.0580663607f,   -0.0305474326f,  0.0155293193f,
                           -0.00763758814f, 0.00365604737f,   -0.00174785572f, 0.000791188534f, -0.000275646214f,
                           0.000122170879f, -0.000112244676f, 4.56984056e-05f};
  const float v = rho * (1 / 2.55f) - 4.05f / 2.55f;
  float p = c[12];
  for (int k = 11; k >= 0; --k) p = p * v + c[k];
  return p;
}
static_assert(series_below<float> == 1.5f && singular_above<float> == 6.6f, "scaled_erfc is fitted on [1.5, 6.6]");

// Double, on [3, 9.5] (scaled_erfc_above to singular_above<double>): P_6(v)/D_6(v) with v = rho/9.5, near-minimax,
// relative error 8e-17 (7e-16 evaluated in double). Its error reaches g and F times erfc(rho/sqrt2)/g < 3e-3, so
// they stay correct to rounding; the coefficients are positive (P's last but tiny), so Horner at v > 0 does not
// cancel. Below rho = 3 (1.25 <= rho < 3: 2% of the P2P pairs) the closed form keeps erf, where e^{-rho^2/2} q
// would no longer be small against 1.
constexpr double scaled_erfc_above = 3;
LOOM_HOST_DEVICE inline double scaled_erfc(double rho) {
  constexpr double p[7] = {0.99995541513936359, 10.623304598345602, 54.480662602665056,    163.79263377846297,
                           289.69927001717019,  266.15193779051509, 1.6470729057944478e-05};
  constexpr double d[7] = {1,
                           18.201231203199161,
                           147.36252158535706,
                           686.85783882331236,
                           1985.3265881100679,
                           3449.2923725402843,
                           3168.9356406580741};
  const double v = rho * (1 / 9.5);
  double num = p[6], den = d[6];
  for (int k = 5; k >= 0; --k) {
    num = num * v + p[k];
    den = den * v + d[k];
  }
  return num / den;
}
static_assert(singular_above<double> == 9.5, "scaled_erfc(double) is fitted on [3, 9.5]");

// g/|r|^3 and F = (3g - rho g')/|r|^5 at rho = |r|/sigma, given inv_r = 1/|r| and inv_sigma = 1/sigma (no
// division, no square root). The notes' closed forms, e = sqrt(2/pi) rho e^{-rho^2/2}:
//   g/|r|^3 = (erf(rho/sqrt2) - e) inv_r^3,   F = (3 erf(rho/sqrt2) - (rho^2 + 3) e) inv_r^5,
// with erf = 1 - e^{-rho^2/2} scaled_erfc (float everywhere, double from rho = 3 on), the series (times
// inv_sigma^3 and inv_sigma^5) below series_below, and 1 inv_r^3, 3 inv_r^5 above singular_above. For inv_r = 0
// (a pair at r = 0) both are 0.
template <class Real>
LOOM_HOST_DEVICE inline CutoffFactors<Real> biot_savart_factors(Real rho, Real inv_r, Real inv_sigma) {
  constexpr double sqrt_2_over_pi = 0.79788456080286535588, inv_sqrt2 = 0.70710678118654752440;
  const Real x = rho * rho;
  if (rho > singular_above<Real>) {  // first: most pairs, and most warps entirely
    const Real s3 = inv_r * inv_r * inv_r;
    return {s3, Real(3) * s3 * inv_r * inv_r};
  }
  Real g, f, s;  // g/|r|^3 = g s^3, F = f s^5
  if (rho < series_below<Real>) {
    constexpr CutoffSeries c = cutoff_series();
    constexpr int last = series_terms<Real> - 1;
    g = Real(c.g[last]);
    f = Real(c.f[last]);
    for (int k = last - 1; k >= 0; --k) {  // Horner in x
      g = g * x + Real(c.g[k]);
      f = f * x + Real(c.f[k]);
    }
    s = inv_r > Real(0) ? inv_sigma : Real(0);
  } else {
    const Real E = exp_of(Real(-0.5) * x), c_rho = Real(sqrt_2_over_pi) * rho;  // e = c_rho E
    if (sizeof(Real) == 8 && rho < Real(scaled_erfc_above)) {
      const Real erf_term = erf_of(rho * Real(inv_sqrt2)), e = c_rho * E;
      g = erf_term - e;
      f = Real(3) * erf_term - (x + Real(3)) * e;
    } else {  // erf = 1 - E q:  g = 1 - E (q + c_rho),  3 erf - (rho^2 + 3) e = 3 - E (3 q + (rho^2 + 3) c_rho)
      const Real q = scaled_erfc(rho);
      g = Real(1) - E * (q + c_rho);
      f = Real(3) - E * (Real(3) * q + (x + Real(3)) * c_rho);
    }
    s = inv_r;
  }
  const Real s2 = s * s, s3 = s2 * s;
  return {g * s3, f * s3 * s2};
}

// g/rho^3 and (3g - rho g')/rho^5 (sigma = 1, |r| = rho), for tests and references.
template <class Real>
LOOM_HOST_DEVICE inline CutoffFactors<Real> gaussian_cutoff(Real rho) {
  return biot_savart_factors(rho, rho > Real(0) ? Real(1) / rho : Real(0), Real(1));
}

// 1/|r| from r2 = |r|^2, 0 for r = 0 (a pair that adds nothing).
template <class Real>
LOOM_HOST_DEVICE inline Real inverse_distance(Real r2) {
  return r2 > Real(0) ? rsqrt_of(r2) : Real(0);
}

// The Laplace pair given inv_r = 1/|r| (0 for r = 0), however it was computed.
template <class Real>
LOOM_HOST_DEVICE inline void laplace_pair_with_inverse(Vec3<Real> r, Real q, Real inv_r, Real& phi, Vec3<Real>& grad) {
  const Real q_inv_r = q * inv_r;
  const Real q_inv_r3 = q_inv_r * inv_r * inv_r;
  phi += q_inv_r;
  grad.x -= q_inv_r3 * r.x;
  grad.y -= q_inv_r3 * r.y;
  grad.z -= q_inv_r3 * r.z;
}

template <class Real>
LOOM_HOST_DEVICE inline void laplace_pair(Vec3<Real> r, Real q, Real& phi, Vec3<Real>& grad) {
  laplace_pair_with_inverse(r, q, inverse_distance(norm2(r)), phi, grad);
}

// 4 pi times the sums over sources j of a target i: the velocity, and the stretching as
//   stretching = weighted_alpha x alpha_i + stretching_f,  weighted_alpha = sum_j g/|r|^3 alpha_j,
//   stretching_f = -sum_j F (alpha_i . r)(alpha_j x r),
// since sum_j g/|r|^3 (alpha_j x alpha_i) = (sum_j g/|r|^3 alpha_j) x alpha_i: three multiply-adds a pair for that
// term instead of a cross product and three (the cross product is taken once per sum).
template <class Real>
struct BiotSavartSums {
  Vec3<Real> velocity, weighted_alpha, stretching_f;
  LOOM_HOST_DEVICE Vec3<Real> stretching(Vec3<Real> alpha_i) const {
    return cross(weighted_alpha, alpha_i) + stretching_f;
  }
};

// Adds body j's share to body i's sums, given inv_r = 1/|r| (0 for r = 0, which adds nothing) and inv_sigma_j =
// 1/sigma_j, however they were computed.
template <class Real>
LOOM_HOST_DEVICE inline void biot_savart_pair_with_inverses(Vec3<Real> r, Real inv_r, Vec3<Real> alpha_j,
                                                            Real inv_sigma_j, Vec3<Real> alpha_i,
                                                            BiotSavartSums<Real>& sums) {
  const CutoffFactors<Real> k = biot_savart_factors(norm2(r) * inv_r * inv_sigma_j, inv_r, inv_sigma_j);
  const Vec3<Real> a_cross_r = cross(alpha_j, r);
  sums.velocity += k.g_over_rho3 * a_cross_r;                          // g/|r|^3 (alpha_j x r)
  sums.weighted_alpha += k.g_over_rho3 * alpha_j;                      // g/|r|^3 alpha_j
  sums.stretching_f -= (k.f_over_rho5 * dot(alpha_i, r)) * a_cross_r;  // F (alpha_i . r)(r x alpha_j)
}

// Adds 4 pi times the regularised velocity and stretching at body i from body j.
template <class Real>
LOOM_HOST_DEVICE inline void biot_savart_pair(Vec3<Real> r, Vec3<Real> alpha_j, Real sigma_j, Vec3<Real> alpha_i,
                                              Vec3<Real>& velocity, Vec3<Real>& stretching) {
  BiotSavartSums<Real> sums;
  biot_savart_pair_with_inverses(r, inverse_distance(norm2(r)), alpha_j, Real(1) / sigma_j, alpha_i, sums);
  velocity += sums.velocity;
  stretching += sums.stretching(alpha_i);
}

template <class Real>
LOOM_HOST_DEVICE inline void gaussian_pair(Vec3<Real> r, Vec3<Real> alpha_j, Real sigma_j, Vec3<Real>& w) {
  constexpr double inv_two_pi_32 = 0.063493635934240969785;  // (2 pi)^{-3/2}
  const Real inv_s2 = Real(1) / (sigma_j * sigma_j);
  const Real zeta = Real(inv_two_pi_32) * inv_s2 * sqrt_of(inv_s2) * exp_of(Real(-0.5) * norm2(r) * inv_s2);
  w += zeta * alpha_j;
}

}  // namespace loom::fmm
