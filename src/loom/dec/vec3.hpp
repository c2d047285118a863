// A 3-vector of doubles for the lattice geometry and the dual-vertex positions, usable in host and device code.
// Plain aggregate (trivially copyable), so arrays of it can live in core::Array and be read by kernels.
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::dec {

struct Vec3 {
  double x = 0, y = 0, z = 0;

  LOOM_HOST_DEVICE constexpr double operator[](int k) const { return k == 0 ? x : (k == 1 ? y : z); }
  LOOM_HOST_DEVICE constexpr double& operator[](int k) { return k == 0 ? x : (k == 1 ? y : z); }
};

LOOM_HOST_DEVICE constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
LOOM_HOST_DEVICE constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
LOOM_HOST_DEVICE constexpr Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
LOOM_HOST_DEVICE constexpr Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
LOOM_HOST_DEVICE constexpr Vec3 operator*(Vec3 a, double s) { return s * a; }
LOOM_HOST_DEVICE constexpr Vec3 operator/(Vec3 a, double s) { return {a.x / s, a.y / s, a.z / s}; }
LOOM_HOST_DEVICE constexpr Vec3& operator+=(Vec3& a, Vec3 b) { return a = a + b; }
LOOM_HOST_DEVICE constexpr Vec3& operator-=(Vec3& a, Vec3 b) { return a = a - b; }
// Component-wise product: a lattice offset (in structures) times the structure's edge lengths.
LOOM_HOST_DEVICE constexpr Vec3 hadamard(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }

LOOM_HOST_DEVICE constexpr double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
LOOM_HOST_DEVICE constexpr Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
LOOM_HOST_DEVICE inline double norm(Vec3 a) { return std::sqrt(dot(a, a)); }

}  // namespace loom::dec
