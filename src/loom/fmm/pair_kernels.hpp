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
  Real g_over_rho3 = 0;  // g(rho) / rho^3
  Real f_over_rho5 = 0;  // (3 g(rho) - rho g'(rho)) / rho^5
};

// g/rho^3 and (3g - rho g')/rho^5. Above rho = 8.5, g = 1 to rounding (no erf, no exp). Below rho = 1/2 both
// come from their power series (exact to rounding), because the closed forms cancel catastrophically there:
//   g/rho^3             = sqrt(2/pi) sum_{k>=0} t_k / (2k+3),   t_k = (-rho^2/2)^k / k!
//   (3g - rho g')/rho^5 = sqrt(2/pi) sum_{k>=0} t_k / (2k+5)
template <class Real>
LOOM_HOST_DEVICE inline CutoffFactors<Real> gaussian_cutoff(Real rho) {
  constexpr double sqrt_2_over_pi = 0.79788456080286535588;
  CutoffFactors<Real> out;
  if (rho < Real(0.5)) {
    const Real x = Real(-0.5) * rho * rho;
    Real t = 1, g = 0, f = 0;  // t = x^k / k!
    for (int k = 0; k <= 10; ++k) {
      if (k > 0) t *= x / Real(k);
      g += t / Real(2 * k + 3);
      f += t / Real(2 * k + 5);
    }
    out.g_over_rho3 = Real(sqrt_2_over_pi) * g;
    out.f_over_rho5 = Real(sqrt_2_over_pi) * f;
    return out;
  }
  if (rho > Real(8.5)) {  // g = 1 - O(rho e^{-rho^2/2}) = 1 to within 1.4e-15: the singular kernel
    const Real inv = Real(1) / rho, inv3 = inv * inv * inv;
    out.g_over_rho3 = inv3;
    out.f_over_rho5 = Real(3) * inv3 * inv * inv;
    return out;
  }
  const Real e = Real(sqrt_2_over_pi) * rho * exp_of(Real(-0.5) * rho * rho);  // sqrt(2/pi) rho e^{-rho^2/2}
  const Real erf_term = erf_of(rho * Real(0.70710678118654752440));
  const Real g = erf_term - e;
  const Real rho2 = rho * rho;
  out.g_over_rho3 = g / (rho2 * rho);
  out.f_over_rho5 = (Real(3) * erf_term - (rho2 + Real(3)) * e) / (rho2 * rho2 * rho);
  return out;
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
  const Real r2 = norm2(r);
  laplace_pair_with_inverse(r, q, r2 > Real(0) ? rsqrt_of(r2) : Real(0), phi, grad);
}

// Adds 4 pi times the regularised velocity and stretching at body i from body j.
template <class Real>
LOOM_HOST_DEVICE inline void biot_savart_pair(Vec3<Real> r, Vec3<Real> alpha_j, Real sigma_j, Vec3<Real> alpha_i,
                                              Vec3<Real>& velocity, Vec3<Real>& stretching) {
  const Real r2 = norm2(r);
  if (!(r2 > Real(0))) return;
  const Real inv_sigma = Real(1) / sigma_j;
  const Real rho = sqrt_of(r2) * inv_sigma;
  const CutoffFactors<Real> k = gaussian_cutoff(rho);
  const Real inv_s2 = inv_sigma * inv_sigma;
  const Real g_r3 = k.g_over_rho3 * inv_s2 * inv_sigma;           // g/|r|^3
  const Real f_r5 = k.f_over_rho5 * inv_s2 * inv_s2 * inv_sigma;  // F
  const Vec3<Real> a_cross_r = cross(alpha_j, r);
  velocity += g_r3 * a_cross_r;
  stretching += g_r3 * cross(alpha_j, alpha_i);
  stretching -= (f_r5 * dot(alpha_i, r)) * a_cross_r;  // F (alpha_i . r)(r x alpha_j)
}

template <class Real>
LOOM_HOST_DEVICE inline void gaussian_pair(Vec3<Real> r, Vec3<Real> alpha_j, Real sigma_j, Vec3<Real>& w) {
  constexpr double inv_two_pi_32 = 0.063493635934240969785;  // (2 pi)^{-3/2}
  const Real inv_s2 = Real(1) / (sigma_j * sigma_j);
  const Real zeta = Real(inv_two_pi_32) * inv_s2 * sqrt_of(inv_s2) * exp_of(Real(-0.5) * norm2(r) * inv_s2);
  w += zeta * alpha_j;
}

}  // namespace loom::fmm
