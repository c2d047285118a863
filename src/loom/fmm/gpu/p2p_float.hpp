// The arithmetic of the GPU's single-precision P2P, shared by the CUDA kernel and its host emulation
// (tests/fmm/test_float_path.cpp). Float keeps the paper's ~1e-7 accuracy only if three things are done:
//  1. Positions as two floats (hi + lo, 48 bits) relative to the target cell's centre, so r = x_i - x_j is
//     exact to a float rounding of r itself. One float per coordinate loses eps |x - c| (|x - c| ~ the cell's
//     size), which for the close pairs that dominate a gradient is eps |x - c| / |r| of the pair's 1/r^2: the
//     committed kernel's 4e-6 (cube) and 1.5e-5 (sphere, where close pairs are common) gradient errors.
//  2. rsqrtf (2 ulp) refined by one Newton step, so 1/r^3 is good to ~1 ulp.
//  3. Sums in three levels: runs of p2p_run sources in float, the runs of a tile (64 or 128 sources) in float,
//     the tiles in double. A tile summed in one float chain loses eps times its running sum per term; where a
//     close pair dominates or terms cancel (the potential on a shell) that was 4e-7; runs of 8 make it 1e-7
//     for half an add per pair.
#pragma once

#include "loom/fmm/pair_kernels.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

constexpr int p2p_run = 8;  // sources summed in a float chain of their own within a tile

// The float nearest x. On the host the value passes an empty asm barrier: GCC 12's SLP vectoriser folds
// double(float(x)) back to x (observed at -O2/-O3 on x86-64: x - double(float(x)) became 0), which would
// silently drop the low part of a split. Device code needs no barrier.
LOOM_HOST_DEVICE inline float round_to_float(double x) {
  float f = static_cast<float>(x);
#if !defined(__CUDA_ARCH__) && (defined(__GNUC__) || defined(__clang__))
  asm("" : "+m"(f));
#endif
  return f;
}

// A position (or offset) as hi + lo, both Real; for Real = double lo is zero.
template <class Real>
struct SplitVec {
  Vec3<Real> hi, lo;
};

template <class Real>
LOOM_HOST_DEVICE inline SplitVec<Real> split(Vec3d v) {
  if constexpr (sizeof(Real) == 4) {
    const Vec3<float> hi{round_to_float(v.x), round_to_float(v.y), round_to_float(v.z)};
    return {hi, {float(v.x - double(hi.x)), float(v.y - double(hi.y)), float(v.z - double(hi.z))}};
  } else {
    return {{Real(v.x), Real(v.y), Real(v.z)}, {}};
  }
}

// x_i - x_j from their splits: the hi difference is exact when the two are close (Sterbenz), and otherwise
// rounds relative to |r|; the lo difference restores the bits the hi parts lost.
template <class Real>
LOOM_HOST_DEVICE inline Vec3<Real> split_difference(const Vec3<Real>& hi_i, const Vec3<Real>& lo_i,
                                                    const Vec3<Real>& hi_j, const Vec3<Real>& lo_j) {
  if constexpr (sizeof(Real) == 4) {
    return {(hi_i.x - hi_j.x) + (lo_i.x - lo_j.x), (hi_i.y - hi_j.y) + (lo_i.y - lo_j.y),
            (hi_i.z - hi_j.z) + (lo_i.z - lo_j.z)};
  } else {
    return hi_i - hi_j;
  }
}

// 1/sqrt(r2) > 0 from a first guess y (the device's rsqrtf, <= 2 ulp), by one Newton step
// y (1 + (1 - r2 y^2)/2): the error becomes ~1.5 e^2 plus the rounding of y^2 (about 1 ulp in all).
template <class Real>
LOOM_HOST_DEVICE inline Real newton_rsqrt(Real r2, Real y) {
  if constexpr (sizeof(Real) == 4) {
    const Real e = Real(1) - r2 * (y * y);
    return y + (Real(0.5) * y) * e;
  } else {
    return y;  // the double path's rsqrt is exact to rounding already
  }
}

// 1/|r| from r2 = |r|^2 by the refined reciprocal square root, 0 for r = 0; `rsqrt` gives the first guess
// (rsqrt_of on host and device; the host emulation can pass a model of the device's rounding).
template <class Real, class Rsqrt>
LOOM_HOST_DEVICE inline Real refined_inverse_distance(Real r2, const Rsqrt& rsqrt) {
  return r2 > Real(0) ? newton_rsqrt(r2, rsqrt(r2)) : Real(0);
}

// The Laplace pair of pair_kernels.hpp with the refined reciprocal square root.
template <class Real, class Rsqrt>
LOOM_HOST_DEVICE inline void laplace_pair_refined(Vec3<Real> r, Real q, Real& phi, Vec3<Real>& grad,
                                                  const Rsqrt& rsqrt) {
  laplace_pair_with_inverse(r, q, refined_inverse_distance(norm2(r), rsqrt), phi, grad);
}

// The Biot-Savart pair of pair_kernels.hpp given 1/sigma_j, with the refined reciprocal square root (`single`)
// or the bare first guess (`single-fast`).
template <class Real, class Rsqrt>
LOOM_HOST_DEVICE inline void biot_savart_pair_refined(Vec3<Real> r, Vec3<Real> alpha_j, Real inv_sigma_j,
                                                      Vec3<Real> alpha_i, BiotSavartSums<Real>& sums,
                                                      const Rsqrt& rsqrt) {
  const Real r2 = norm2(r), inv_r = newton_rsqrt(r2, rsqrt(r2));  // finite at r2 = 0, and not selected
  biot_savart_pair_with_inverses(r, r2 > Real(0) ? inv_r : Real(0), alpha_j, inv_sigma_j, alpha_i, sums);
}

template <class Real, class Rsqrt>
LOOM_HOST_DEVICE inline void biot_savart_pair_fast(Vec3<Real> r, Vec3<Real> alpha_j, Real inv_sigma_j,
                                                   Vec3<Real> alpha_i, BiotSavartSums<Real>& sums, const Rsqrt& rsqrt) {
  const Real r2 = norm2(r);
  biot_savart_pair_with_inverses(r, r2 > Real(0) ? rsqrt(r2) : Real(0), alpha_j, inv_sigma_j, alpha_i, sums);
}

// The first guess of 1/sqrt(x) for the float Biot-Savart pair: rsqrt.approx.ftz (one MUFU) of x clamped to the
// smallest normal float, without the four instructions by which rsqrtf handles subnormal x. That changes 1/|r| only
// for pairs closer than 1.1e-19 (and gives a finite value at r = 0), and those take the cutoff's series branch,
// where 1/|r| enters through rho ~ 0 alone: the pair is unchanged. Not for the Laplace pair, whose 1/|r| it caps.
struct DeviceRsqrtOfNormal {
  LOOM_HOST_DEVICE float operator()(float x) const {
    constexpr float smallest_normal = 1.17549435e-38f;
    x = x > smallest_normal ? x : smallest_normal;
#if defined(__CUDA_ARCH__)
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return rsqrt_of(x);
#endif
  }
};

struct DeviceRsqrt {
  template <class Real>
  LOOM_HOST_DEVICE Real operator()(Real x) const {
    return rsqrt_of(x);
  }
};

}  // namespace loom::fmm
