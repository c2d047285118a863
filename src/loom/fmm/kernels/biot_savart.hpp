// The vortex method's Biot-Savart kernel with the Gaussian cutoff (a kernel policy, kernel.hpp): the velocity
// u_i = (1/4pi) sum_j g(rho)/|r|^3 (alpha_j x r) and the stretching (alpha_i . grad) u (x_i). Three expansions
// per cell (the vector potential psi of alpha/r), the curl taken at L2P; outputs 4 pi u, then 4 pi stretching.
#pragma once

#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/kernels/kernel.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {

struct BiotSavartKernel {
  static constexpr Kernel id = Kernel::biot_savart;
  static constexpr int ncomp = 3, nout = 6;
  static constexpr bool far_field = true, guarded = true;

  // 4 pi u = curl psi; 4 pi (alpha.grad)u_a = alpha_k eps_abc d_k d_b psi_c (H_c: the Hessian of psi_c).
  LOOM_HOST_DEVICE static void l2p(int p, Vec3d v, const Complex<double>* L, int nt, const double* strength, Index n,
                                   Index i, double* out) {
    LocalField<double> f[3];
    fmm::l2p<2>(p, 3, v, L, nt, f);
    const double ax = strength[i], ay = strength[n + i], az = strength[2 * n + i];
    out[i] = f[2].gradient.y - f[1].gradient.z;
    out[n + i] = f[0].gradient.z - f[2].gradient.x;
    out[2 * n + i] = f[1].gradient.x - f[0].gradient.y;
    // Hessian entries: 0 xx, 1 xy, 2 xz, 3 yy, 4 yz, 5 zz; h(c, k, b) = d_k d_b psi_c
    auto h = [&](int comp, int k, int b) {
      const int lo = k < b ? k : b, hi = k < b ? b : k;
      const int index = lo == 0 ? hi : (lo == 1 ? 2 + hi : 5);
      return f[comp].hessian[index];
    };
    const double a[3] = {ax, ay, az};
    double s[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      s[0] += a[k] * (h(2, k, 1) - h(1, k, 2));
      s[1] += a[k] * (h(0, k, 2) - h(2, k, 0));
      s[2] += a[k] * (h(1, k, 0) - h(0, k, 1));
    }
    out[3 * n + i] = s[0];
    out[4 * n + i] = s[1];
    out[5 * n + i] = s[2];
  }

  // Adds to target i the sources [j0, j1); (xi, yi, zi): the target minus the sources' periodic shift. The pair
  // takes 1/sigma_j (b.inv_sigma: n divisions instead of one per pair).
  static void p2p_cpu(const P2pRows& b, Index i, double xi, double yi, double zi, Index j0, Index j1) {
    const Index n = b.n;
    const double* s = b.strength;
    const Vec3d alpha_i{s[i], s[n + i], s[2 * n + i]};
    BiotSavartSums<double> sums;
    for (Index j = j0; j < j1; ++j) {
      const Vec3d r{xi - b.x[j], yi - b.y[j], zi - b.z[j]};
      biot_savart_pair_with_inverses(r, inverse_distance(norm2(r)), Vec3d{s[j], s[n + j], s[2 * n + j]}, b.inv_sigma[j],
                                     alpha_i, sums);
    }
    const Vec3d u = sums.velocity, st = sums.stretching(alpha_i);
    b.out[i] += u.x;
    b.out[n + i] += u.y;
    b.out[2 * n + i] += u.z;
    b.out[3 * n + i] += st.x;
    b.out[4 * n + i] += st.y;
    b.out[5 * n + i] += st.z;
  }
};

}  // namespace loom::fmm
