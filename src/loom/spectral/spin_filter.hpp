// The tensor-consistent angular filter of a shell (issue 19): every spatial index of a tensor projected onto
// the complex triad, each triad component truncated in spin-weighted spherical harmonics, the tensor rebuilt.
//
// At the angular point (theta, phi): n = (sin t cos p, sin t sin p, cos t), e_theta, e_phi, and
//   m = (e_theta + i e_phi) / sqrt 2,   e_0 = n, e_1 = m, e_2 = conj(m);  n.n = m.conj(m) = 1, m.m = 0.   (1)
// A spatial tensor T_{i1..ik} (Cartesian components) has triad components
//   T_A = T_{i1..ik} e_{A1}^{i1} ... e_{Ak}^{ik},   A in {0, 1, 2}^k,                                  (2)
// and T_{i1..ik} = Re sum_A T_A conj(e_{A1}^{i1}) ... conj(e_{Ak}^{ik}) (the dual basis of (1) is its conjugate;
// the sum is real for a real T). T_A has spin weight s(A) = #{A_j = 1} - #{A_j = 2}: under a rotation of the
// tangent frame m -> e^{i psi} m it takes the factor e^{i s psi} (Newman-Penrose; e.g. m^i d_i Y_lm is
// proportional to eth Y_lm, a spin-1 function of degree l). A spin-s function is expanded in
//   sY_lm(theta, phi) = lambda^s_lm(theta) e^{i m phi},   l >= max(|m|, |s|),
//   lambda^s_lm proportional to sin^a(theta/2) cos^b(theta/2) P_{l - max(|m|,|s|)}^{(a, b)}(cos theta),        (3)
//   a = |m + s|, b = |m - s|
// (the Wigner function d^l_{m,-s}(theta) up to sign, written with the Jacobi polynomial P^{(a,b)}; e.g.
// Goldberg et al., J. Math. Phys. 8, 2155 (1967), and the Wigner d-matrix in Jacobi form, Edmonds' "Angular
// momentum in quantum mechanics" eq. 4.1.23); 2 pi int lambda^2 sin theta d theta = 1. The filter keeps l <= l_keep:
//   F_m(theta_i) = (1/N_phi) sum_j f(theta_i, phi_j) e^{-i m phi_j},          |m| <= l_keep,               (4)
//   G_m(theta_k) = sum_i P^s_m[k][i] F_m(theta_i),
//   P^s_m[k][i] = 2 pi w_i sum_{l = max(|m|,|s|)}^{l_keep} lambda^s_lm(theta_k) lambda^s_lm(theta_i),   (5)
//   f'(theta_k, phi_j) = sum_m G_m(theta_k) e^{i m phi_j},
// w_i the Gauss-Legendre weights in cos theta. The product lambda_l lambda_l' sin theta is a polynomial of degree
// l + l' in cos theta times d(cos theta), so the N_theta-point rule is exact for l, l' <= N_theta - 1 and (5) is an
// exact orthogonal projection on the grid (P^2 = P). The normalisation of (3) is taken from the same rule.
// Rebuilt from filtered triad components, the tensor is the orthogonal projection (in the quadrature inner
// product summed over components) of the grid tensor onto the tensor harmonics of degree <= l_keep
// (Bruegmann, J. Comput. Phys. 2013, arXiv:1104.3408: the spin-weighted tensor filter; the spectral-BH paper,
// its line 11: SpEC's consistent truncation in tensor spherical harmonics). Spin 0 with rank 0 is the scalar
// Y_lm truncation. Time indices (a = 0) are scalars under rotations: a spacetime tensor splits into spatial
// tensors, one per pattern of time indices (spatial_blocks).
//
// Why not the scalar truncation of each Cartesian component: that keeps orbital degree <= l_keep per component,
// a different space (n_i Y_l has orbital content l +- 1), and it does not commute with the pointwise split into
// normal and tangential parts (n^i T_i filtered is not the normal part of the filtered T_i), which defines the
// characteristic fields at the horizon. Both filters commute with rotations of the field.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

namespace rings {
class Fft;
}

// Which angular truncation the shells' filter applies: each component's scalar Y_lm (the paper's Heaviside), or
// the tensor-consistent one above.
enum class AngularFilter { scalar, tensor };
std::string_view to_string(AngularFilter f);
// UsageError naming `key` unless scalar or tensor.
AngularFilter parse_angular_filter(std::string_view text, std::string_view key);

// Jacobi polynomial P_n^{(a, b)}(x) by its three-term recurrence (Abramowitz-Stegun 22.7.1).
double jacobi(int n, int a, int b, double x);

// The projector (5) for spin s and azimuthal order m on the sphere's theta points, row-major [k * N_theta + i];
// zero when max(|m|, |s|) > l_keep.
std::vector<double> spin_projector(const SphereBasis& sphere, int s, int m, int l_keep);

// A spatial tensor of rank k inside a field of components: for each Cartesian index tuple (row-major, 3^k
// tuples, the last index fastest) its stored component, and for each distinct stored component the first tuple
// that names it (the one the rebuilt value is taken from).
struct SpatialBlock {
  int rank = 0;
  std::vector<int> component;      // 3^k
  std::vector<int> stored, tuple;  // distinct stored components and their tuples
};

// The spatial blocks of a tensor of `shape` stored from component `offset`: one per pattern of time indices in
// its spacetime slots (a symmetric pattern counted once), e.g. T_aa: T_00 (rank 0), T_0i (1), T_ij (2).
std::vector<SpatialBlock> spatial_blocks(const TensorShape& shape, int offset);

inline constexpr int max_spin_rank = 3;

// Basis vector e_A (1), component i, from the frame n, e_theta, e_phi at one point (9 values); the reference
// triad_transform is tested against.
LOOM_HOST_DEVICE inline void triad_basis(const double* frame, int a, int i, double& re, double& im) {
  constexpr double h = 0.70710678118654752440;
  if (a == 0) {
    re = frame[i];
    im = 0;
    return;
  }
  re = h * frame[3 + i];
  im = (a == 1 ? h : -h) * frame[6 + i];
}

LOOM_HOST_DEVICE inline int power_of_3(int k) { return k == 0 ? 1 : k == 1 ? 3 : k == 2 ? 9 : 27; }

// Eq. (2) (forward: out_A = sum_t x_t prod_j e_{A_j}^{t_j}) or its inverse (out_t = sum_A x_A prod_j
// conj(e_{A_j}^{t_j})) on the 3^k complex values (re, im) of one point, in place, one index slot at a time;
// multi-indices base 3, the last slot least significant. Each slot's map factors as the real rotation R (rows n,
// e_theta, e_phi: frame) to the orthonormal spherical frame and a constant complex step (e_1 = (e_theta +
// i e_phi) / sqrt 2, e_2 = conj e_1): forward y_0 = x_0, y_1 = h (x_1 + i x_2), y_2 = h (x_1 - i x_2); inverse
// x_theta = h (y_1 + y_2), x_phi = i h (y_2 - y_1), then R^T (h = 1/sqrt 2). `real_side`: the input (forward) or
// the output (inverse) is real, so the rotation acts on re only (a quarter of the complex products).
// Compile-time ranks: the loops unroll and a point's 3^k values stay in registers on the device.
template <int Rank>
inline constexpr int triad_count = Rank == 0   ? 1
                                   : Rank == 1 ? 3
                                   : Rank == 2 ? 9
                                               : 27;

// One slot (the digit of weight Stride) of the rotation R or R^T, then of the complex step.
template <int Rank, int Stride>
LOOM_HOST_DEVICE inline void rotate_slot(const double* frame, bool transpose, double* x) {
  constexpr int count = triad_count<Rank>;
  LOOM_UNROLL
  for (int high = 0; high < count; high += 3 * Stride) LOOM_UNROLL
  for (int base = high; base < high + Stride; ++base) {  // the multi-indices with digit 0 in this slot
    const double a = x[base], b = x[base + Stride], c = x[base + 2 * Stride];
    LOOM_UNROLL
    for (int o = 0; o < 3; ++o)
      x[base + o * Stride] = transpose ? frame[o] * a + frame[3 + o] * b + frame[6 + o] * c
                                       : frame[3 * o] * a + frame[3 * o + 1] * b + frame[3 * o + 2] * c;
  }
}

template <int Rank, int Stride>
LOOM_HOST_DEVICE inline void combine_slot(bool inverse, double* re, double* im) {
  constexpr double h = 0.70710678118654752440;
  constexpr int count = triad_count<Rank>;
  LOOM_UNROLL
  for (int high = 0; high < count; high += 3 * Stride) LOOM_UNROLL
  for (int base = high; base < high + Stride; ++base) {
    const int p1 = base + Stride, p2 = base + 2 * Stride;
    const double r1 = re[p1], i1 = im[p1], r2 = re[p2], i2 = im[p2];
    if (!inverse) {
      re[p1] = h * (r1 - i2), im[p1] = h * (i1 + r2);
      re[p2] = h * (r1 + i2), im[p2] = h * (i1 - r2);
    } else {
      re[p1] = h * (r1 + r2), im[p1] = h * (i1 + i2);
      re[p2] = h * (i1 - i2), im[p2] = h * (r2 - r1);
    }
  }
}

template <int Rank>
LOOM_HOST_DEVICE inline void triad_rotate(const double* frame, bool transpose, double* x) {
  if constexpr (Rank > 0) rotate_slot<Rank, 1>(frame, transpose, x);
  if constexpr (Rank > 1) rotate_slot<Rank, 3>(frame, transpose, x);
  if constexpr (Rank > 2) rotate_slot<Rank, 9>(frame, transpose, x);
}

template <int Rank>
LOOM_HOST_DEVICE inline void triad_combine(bool inverse, double* re, double* im) {
  if constexpr (Rank > 0) combine_slot<Rank, 1>(inverse, re, im);
  if constexpr (Rank > 1) combine_slot<Rank, 3>(inverse, re, im);
  if constexpr (Rank > 2) combine_slot<Rank, 9>(inverse, re, im);
}

template <int Rank>
LOOM_HOST_DEVICE inline void triad_transform(const double* frame, bool inverse, double* re, double* im,
                                             bool real_side = false) {
  if (!inverse) {
    triad_rotate<Rank>(frame, false, re);
    if (!real_side) triad_rotate<Rank>(frame, false, im);
    triad_combine<Rank>(false, re, im);
  } else {
    triad_combine<Rank>(true, re, im);
    triad_rotate<Rank>(frame, true, re);
    if (!real_side) triad_rotate<Rank>(frame, true, im);
  }
}

// The same for a rank known at run time.
LOOM_HOST_DEVICE inline void triad_transform(const double* frame, int rank, bool inverse, double* re, double* im,
                                             bool real_side = false) {
  switch (rank) {
    case 0:
      return triad_transform<0>(frame, inverse, re, im, real_side);
    case 1:
      return triad_transform<1>(frame, inverse, re, im, real_side);
    case 2:
      return triad_transform<2>(frame, inverse, re, im, real_side);
    default:
      return triad_transform<3>(frame, inverse, re, im, real_side);
  }
}

LOOM_HOST_DEVICE inline int spin_of(int rank, int a) {
  int s = 0;
  for (int j = 0; j < rank; ++j, a /= 3) s += a % 3 == 1 ? 1 : a % 3 == 2 ? -1 : 0;
  return s;
}

// Which triad fields are filtered. A real tensor's triad components come in conjugate pairs, T_{A*} = conj(T_A)
// (A* swaps the indices 1 and 2, e_2 = conj(e_1)), and a tensor symmetric in two slots has T_A = T_{sigma A} for
// the swap sigma; the filter commutes with both (P^{-s}_m = P^s_{-m}, from a and b in (3) trading places), so
// only one representative of each class is filtered: 31 of the 65 triad fields of the GH variables (14 of 26
// for two T_aa, 17 of 39 for Phi_iab). The five-loop reference form filters all (`all`).
struct SpinAliases {
  int count = 0;               // fields filtered
  core::Array<int> source;     // per triad field: the filtered field it is read from
  core::Array<int> conjugate;  // per triad field: 1 where it is the conjugate of its source
  core::Array<int> first;      // per filtered field: the triad field it is taken from
  core::Array<int> spin;       // per filtered field: its spin weight
};

// The tensor filter of one shell for fields of `components` components holding the given spatial blocks (every
// component in exactly one block). Tables built on the host; the GPU's copies on first use. Not thread-safe
// (scratch arrays). apply: to_triad and rebuild are core::parallel_for loops on either backend (spin_filter.cpp),
// the ring sets between them have one form per backend (spin_filter_rings.hpp: FFTW on the host, a block per
// ring set on the device). apply_direct: the twelfth session's five loops (direct phi sums, every triad field),
// kept as the reference the ring forms are tested against.
class SpinFilter {
 public:
  SpinFilter(const Shell& shell, int l_keep, const std::vector<SpatialBlock>& blocks, Index components);
  ~SpinFilter();
  SpinFilter(SpinFilter&&) noexcept;
  SpinFilter& operator=(SpinFilter&&) noexcept;
  // In place; field on the backend's side, components * N values.
  void apply(core::Backend backend, double* field) const;
  void apply_direct(core::Backend backend, double* field) const;
  int l_keep() const { return l_keep_; }
  int spin_fields() const { return fields_; }
  int filtered_fields() const { return t_.reduced.count; }

  // The flattened tables (host arrays; read on either side).
  struct Tables {
    Index n = 0;
    int n_r = 0, n_theta = 0, n_phi = 0, l_keep = 0, fields = 0, blocks = 0, stored = 0;
    core::Array<double> frame;                                  // 9 per angular point it + N_theta ip
    core::Array<double> projector;                              // [(s + 3) (2 L + 1) + m + L] N_theta^2, L = l_keep
    core::Array<double> twiddle;                                // e^{-i m phi_j}: [(m + L) N_phi + j] (re, im)
    core::Array<int> block_rank, block_field, block_component;  // per block; first component-table entry
    core::Array<int> component;                                 // the blocks' tuple -> stored tables, concatenated
    core::Array<int> written;  // per tuple entry of `component`: 1 where its component is rebuilt from it
    SpinAliases all, reduced;  // every triad field filtered; one per class (above)
  };
  const Tables& tables() const { return t_; }

 private:
  void set_blocks(const std::vector<SpatialBlock>& blocks, Index components);
  int l_keep_, fields_ = 0;
  Tables t_;
  std::unique_ptr<rings::Fft> fft_;
  // Scratch: the filtered triad fields (2 F N), and for apply_direct their phi coefficients before and after (5).
  mutable core::Array<double> spin_, coeff_, kept_;
};

}  // namespace loom::spectral
