// The pseudo-spectral Navier-Stokes model of `loom hit` in the periodic box [0, 2 pi)^3 on n^3 points: the
// wavenumbers of the real-to-complex layout, the dealiasing masks, the curl, the projection onto divergence-free
// fields and the viscous integrating factor. Each formula once, LOOM_HOST_DEVICE, for the OpenMP loops and the
// CUDA kernels alike (DESIGN.md, "One formula, two backends").
#pragma once

#include <cmath>

#include "loom/core/complex.hpp"
#include "loom/core/host_device.hpp"

namespace loom::hit {

using core::Complex;

struct Wavevector {
  double x = 0, y = 0, z = 0;
  LOOM_HOST_DEVICE double norm2() const { return x * x + y * y + z * z; }
  LOOM_HOST_DEVICE double operator[](int c) const { return c == 0 ? x : c == 1 ? y : z; }
};

// The grid of n^3 points x_j = 2 pi j / n, x fastest in memory (index x + n (y + n z)), and its modes in FFTW's
// and cuFFT's real-to-complex layout: kx in [0, n/2] fastest (index kx + (n/2+1) (jy + n jz)).
struct SpectralGrid {
  Index n = 0;  // points per direction, even
  LOOM_HOST_DEVICE Index half() const { return n / 2 + 1; }
  LOOM_HOST_DEVICE Index points() const { return n * n * n; }
  LOOM_HOST_DEVICE Index modes() const { return half() * n * n; }
  LOOM_HOST_DEVICE double spacing() const { return 2 * M_PI / double(n); }
  // The signed wavenumber of FFT index j: 0..n/2-1, then -n/2..-1. The Nyquist index n/2 counts as -n/2.
  LOOM_HOST_DEVICE Index signed_index(Index j) const { return j < n / 2 ? j : j - n; }
  LOOM_HOST_DEVICE Wavevector wavevector(Index m) const {
    const Index kx = m % half(), rest = m / half();
    return {double(kx), double(signed_index(rest % n)), double(signed_index(rest / n))};
  }
  // The weight of mode m in sums over the full spectrum: the kx = 0 and kx = n/2 planes hold their own conjugates,
  // every other stored mode stands for itself and its conjugate (Parseval over the half spectrum).
  LOOM_HOST_DEVICE double hermitian_weight(Index m) const {
    const Index kx = m % half();
    return kx == 0 || kx == n / 2 ? 1.0 : 2.0;
  }
};

// Which modes are kept. two_thirds: Orszag's 2/3 rule, |k_i| < n/3 in each direction, so that no product of two
// kept modes aliases onto a kept mode (3 K < n). phase_shift: the spherical truncation |k| < sqrt(2) n / 3 of
// Patterson and Orszag (1971), which with two evaluations on grids shifted by half a cell removes the aliases
// the sphere lets through. Both drop the Nyquist modes (n/2 > sqrt(2) n / 3).
enum class Dealiasing { two_thirds, phase_shift };

LOOM_HOST_DEVICE inline bool retained(Dealiasing d, Index n, Wavevector k) {
  const double nn = double(n);
  if (d == Dealiasing::two_thirds)
    return 3 * std::fabs(k.x) < nn && 3 * std::fabs(k.y) < nn && 3 * std::fabs(k.z) < nn;
  return 9 * k.norm2() < 2 * nn * nn;
}

// The largest wavenumber every kept direction resolves, for k_max eta: n/3 (2/3 rule), sqrt(2) n / 3 (sphere).
inline double resolved_wavenumber(Dealiasing d, Index n) {
  return d == Dealiasing::two_thirds ? double(n) / 3 : std::sqrt(2.0) * double(n) / 3;
}

struct ModeVector {
  Complex x, y, z;
};

// Component c of omega_hat = i k x u_hat: i (k_a u_b - k_b u_a) with (c, a, b) a cyclic permutation of (x, y, z),
// given u's components a and b (the cuFFT load callbacks read only those).
LOOM_HOST_DEVICE inline Complex curl_component(Wavevector k, int c, Complex ua, Complex ub) {
  return core::times_i(k[(c + 1) % 3] * ub - k[(c + 2) % 3] * ua);
}

// omega_hat = i k x u_hat (the spectral curl).
LOOM_HOST_DEVICE inline ModeVector curl(Wavevector k, const ModeVector& u) {
  return {curl_component(k, 0, u.y, u.z), curl_component(k, 1, u.z, u.x), curl_component(k, 2, u.x, u.y)};
}

// P(k) a = a - k (k . a) / |k|^2: removes the gradient part (the pressure and the |u|^2/2 of the rotational form);
// the mean (k = 0) is kept as it is.
LOOM_HOST_DEVICE inline ModeVector project(Wavevector k, const ModeVector& a) {
  const double k2 = k.norm2();
  if (k2 == 0) return a;
  const Complex kdota = k.x * a.x + k.y * a.y + k.z * a.z;
  const Complex s = (1.0 / k2) * kdota;
  return {a.x - k.x * s, a.y - k.y * s, a.z - k.z * s};
}

// The viscous factor over a time tau: exp(-nu |k|^2 tau), the exact solution of du/dt = -nu k^2 u.
LOOM_HOST_DEVICE inline double viscous_decay(double nu, Wavevector k, double tau) {
  return std::exp(-nu * k.norm2() * tau);
}

// The rotational form of the nonlinear term, u x omega, at one point (the gradient of p + |u|^2/2 is removed by
// the projection afterwards).
struct PointVector {
  double x, y, z;
};
LOOM_HOST_DEVICE inline PointVector cross(const PointVector& a, const PointVector& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// The phase e^{i k . shift} that moves a field to the grid shifted by `shift` (all components alike).
LOOM_HOST_DEVICE inline Complex shift_phase(Wavevector k, double shift) {
  const double phase = (k.x + k.y + k.z) * shift;
  return {std::cos(phase), std::sin(phase)};
}

}  // namespace loom::hit
