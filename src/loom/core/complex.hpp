// A complex number usable in host and device code alike (std::complex is not, in CUDA kernels). Plain aggregate:
// trivially copyable, 16 bytes, so arrays of it live in core::Array and move as whole 16-byte words.
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::core {

struct alignas(16) Complex {
  double re = 0, im = 0;
};

LOOM_HOST_DEVICE constexpr Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
LOOM_HOST_DEVICE constexpr Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
LOOM_HOST_DEVICE constexpr Complex operator-(Complex a) { return {-a.re, -a.im}; }
LOOM_HOST_DEVICE constexpr Complex operator*(Complex a, Complex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
LOOM_HOST_DEVICE constexpr Complex operator*(double s, Complex a) { return {s * a.re, s * a.im}; }
LOOM_HOST_DEVICE constexpr Complex operator*(Complex a, double s) { return {s * a.re, s * a.im}; }
LOOM_HOST_DEVICE constexpr Complex& operator+=(Complex& a, Complex b) { return a = a + b; }
LOOM_HOST_DEVICE constexpr Complex& operator-=(Complex& a, Complex b) { return a = a - b; }
LOOM_HOST_DEVICE constexpr Complex conj(Complex a) { return {a.re, -a.im}; }
LOOM_HOST_DEVICE constexpr double norm2(Complex a) { return a.re * a.re + a.im * a.im; }  // |a|^2
LOOM_HOST_DEVICE constexpr Complex times_i(Complex a) { return {-a.im, a.re}; }        // i a
LOOM_HOST_DEVICE inline double abs(Complex a) { return std::sqrt(norm2(a)); }
LOOM_HOST_DEVICE inline Complex polar(double r, double phase) { return {r * std::cos(phase), r * std::sin(phase)}; }

}  // namespace loom::core
