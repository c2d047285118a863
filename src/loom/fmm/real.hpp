// The small numeric types of the FMM kernels, usable on host and device: Complex<Real> for solid-harmonic
// coefficients, Vec3<Real> for positions and vectors, and math wrappers that pick the device or host function.
// Kernels are templates on Real (float on the GPU's fast path, double elsewhere; DESIGN.md, "Precision").
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::fmm {

template <class Real>
LOOM_HOST_DEVICE inline Real sqrt_of(Real x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4)
    return sqrtf(x);
  else
    return sqrt(x);
#else
  return std::sqrt(x);
#endif
}

// 1/sqrt(x): the device's reciprocal square root (rsqrtf: 2 ulp), exact division on the host.
template <class Real>
LOOM_HOST_DEVICE inline Real rsqrt_of(Real x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4)
    return rsqrtf(x);
  else
    return rsqrt(x);
#else
  return Real(1) / std::sqrt(x);
#endif
}

template <class Real>
LOOM_HOST_DEVICE inline Real exp_of(Real x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4)
    return expf(x);
  else
    return exp(x);
#else
  return std::exp(x);
#endif
}

template <class Real>
LOOM_HOST_DEVICE inline Real erf_of(Real x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 4)
    return erff(x);
  else
    return erf(x);
#else
  return std::erf(x);
#endif
}

template <class Real>
struct Complex {
  Real re = 0, im = 0;
  LOOM_HOST_DEVICE friend Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
  LOOM_HOST_DEVICE friend Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
  LOOM_HOST_DEVICE friend Complex operator*(Complex a, Complex b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  LOOM_HOST_DEVICE friend Complex operator*(Real s, Complex a) { return {s * a.re, s * a.im}; }
  LOOM_HOST_DEVICE friend Complex operator*(Complex a, Real s) { return {s * a.re, s * a.im}; }
  LOOM_HOST_DEVICE Complex& operator+=(Complex b) {
    re += b.re;
    im += b.im;
    return *this;
  }
  LOOM_HOST_DEVICE Complex& operator-=(Complex b) {
    re -= b.re;
    im -= b.im;
    return *this;
  }
};

template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> conj(Complex<Real> a) {
  return {a.re, -a.im};
}
// a * conj(b)
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> mul_conj(Complex<Real> a, Complex<Real> b) {
  return {a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im};
}

template <class Real>
struct Vec3 {
  Real x = 0, y = 0, z = 0;
  LOOM_HOST_DEVICE Real& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  LOOM_HOST_DEVICE Real operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  friend bool operator==(const Vec3&, const Vec3&) = default;
  LOOM_HOST_DEVICE friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  LOOM_HOST_DEVICE friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  LOOM_HOST_DEVICE friend Vec3 operator*(Real s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
  LOOM_HOST_DEVICE Vec3& operator+=(Vec3 b) {
    x += b.x;
    y += b.y;
    z += b.z;
    return *this;
  }
  LOOM_HOST_DEVICE Vec3& operator-=(Vec3 b) {
    x -= b.x;
    y -= b.y;
    z -= b.z;
    return *this;
  }
};

template <class Real>
LOOM_HOST_DEVICE inline Real dot(Vec3<Real> a, Vec3<Real> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class Real>
LOOM_HOST_DEVICE inline Vec3<Real> cross(Vec3<Real> a, Vec3<Real> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class Real>
LOOM_HOST_DEVICE inline Real norm2(Vec3<Real> a) {
  return dot(a, a);
}

using Vec3d = Vec3<double>;

}  // namespace loom::fmm
