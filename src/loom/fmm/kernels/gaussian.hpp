// The Gaussian RBF sum as a kernel policy (kernel.hpp).
#pragma once

#include "loom/fmm/kernels/kernel.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {

// The Gaussian RBF sum w_i = sum_j alpha_j zeta_sigma_j(x_i - x_j) (the vortex method's reinitialisation): P2P
// only, over the pairs within a cutoff; outputs w.
struct GaussianKernel {
  static constexpr Kernel id = Kernel::biot_savart;  // the same strengths and core radii
  static constexpr int ncomp = 3, nout = 3;
  static constexpr bool far_field = false, guarded = true;

  static void p2p_cpu(const P2pRows& b, Index i, double xi, double yi, double zi, Index j0, Index j1) {
    const Index n = b.n;
    const double* s = b.strength;
    Vec3d w{};
    for (Index j = j0; j < j1; ++j)
      gaussian_pair(Vec3d{xi - b.x[j], yi - b.y[j], zi - b.z[j]}, Vec3d{s[j], s[n + j], s[2 * n + j]}, b.sigma[j], w);
    b.out[i] += w.x;
    b.out[n + i] += w.y;
    b.out[2 * n + i] += w.z;
  }
};

}  // namespace loom::fmm
