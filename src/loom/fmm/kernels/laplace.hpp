// The Laplace kernel (a kernel policy, kernel.hpp): phi_i = sum_{j != i} q_j / |x_i - x_j| and its gradient.
// One expansion per cell; outputs potential, gradient x, y, z.
#pragma once

#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/kernels/kernel.hpp"
#include "loom/fmm/kernels/rsqrt_cpu.hpp"

namespace loom::fmm {

struct LaplaceKernel {
  static constexpr Kernel id = Kernel::laplace;
  static constexpr int ncomp = 1, nout = 4;
  static constexpr bool far_field = true, guarded = false;

  // Body i at v = x_i - (its leaf's centre) from the leaf's local expansion L: writes its four outputs.
  LOOM_HOST_DEVICE static void l2p(int p, Vec3d v, const Complex<double>* L, int nt, const double*, Index n, Index i,
                                   double* out) {
    LocalField<double> f;
    fmm::l2p<1>(p, 1, v, L, nt, &f);
    out[i] = f.value;
    out[n + i] = f.gradient.x;
    out[2 * n + i] = f.gradient.y;
    out[3 * n + i] = f.gradient.z;
  }

  // Adds to target i the sources [j0, j1); (xi, yi, zi): the target minus the sources' periodic shift.
  static void p2p_cpu(const P2pRows& b, Index i, double xi, double yi, double zi, Index j0, Index j1) {
    const double *x = b.x, *y = b.y, *z = b.z, *q = b.strength;
    double phi = 0, gx = 0, gy = 0, gz = 0;
#pragma omp simd reduction(+ : phi, gx, gy, gz)
    for (Index j = j0; j < j1; ++j) {
      const double dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
      const double r2 = dx * dx + dy * dy + dz * dz;
      const double inv_r = r2 > 0 ? rsqrt_newton(r2) : 0.0;
      const double q_inv_r = q[j] * inv_r;
      const double q_inv_r3 = q_inv_r * inv_r * inv_r;
      phi += q_inv_r;
      gx -= q_inv_r3 * dx;
      gy -= q_inv_r3 * dy;
      gz -= q_inv_r3 * dz;
    }
    const Index n = b.n;
    b.out[i] += phi;
    b.out[n + i] += gx;
    b.out[2 * n + i] += gy;
    b.out[3 * n + i] += gz;
  }
};

}  // namespace loom::fmm
