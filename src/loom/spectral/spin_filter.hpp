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

#include <string_view>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

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
  std::vector<int> component;     // 3^k
  std::vector<int> stored, tuple;  // distinct stored components and their tuples
};

// The spatial blocks of a tensor of `shape` stored from component `offset`: one per pattern of time indices in
// its spacetime slots (a symmetric pattern counted once), e.g. T_aa: T_00 (rank 0), T_0i (1), T_ij (2).
std::vector<SpatialBlock> spatial_blocks(const TensorShape& shape, int offset);

inline constexpr int max_spin_rank = 3;

// Basis vector e_A (1), component i, from the frame n, e_theta, e_phi at one point (9 values).
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
// conj(e_{A_j}^{t_j})) on the 3^k complex values (re, im) of one point, in place, one index slot at a time
// (3 k 3^k products instead of 9^k); multi-indices base 3, the last slot least significant.
LOOM_HOST_DEVICE inline void triad_transform(const double* frame, int rank, bool inverse, double* re, double* im) {
  const int count = power_of_3(rank);
  for (int j = 0, stride = 1; j < rank; ++j, stride *= 3)
    for (int base = 0; base < count; ++base) {
      if (base / stride % 3 != 0) continue;
      double xr[3], xi[3];
      for (int q = 0; q < 3; ++q) xr[q] = re[base + q * stride], xi[q] = im[base + q * stride];
      for (int o = 0; o < 3; ++o) {
        double sr = 0, si = 0;
        for (int q = 0; q < 3; ++q) {
          double br, bi;
          triad_basis(frame, inverse ? q : o, inverse ? o : q, br, bi);
          if (inverse) bi = -bi;
          sr += xr[q] * br - xi[q] * bi;
          si += xr[q] * bi + xi[q] * br;
        }
        re[base + o * stride] = sr;
        im[base + o * stride] = si;
      }
    }
}

LOOM_HOST_DEVICE inline int spin_of(int rank, int a) {
  int s = 0;
  for (int j = 0; j < rank; ++j, a /= 3) s += a % 3 == 1 ? 1 : a % 3 == 2 ? -1 : 0;
  return s;
}

// The tensor filter of one shell for fields of `components` components holding the given spatial blocks (every
// component in exactly one block). Tables built on the host; the GPU's copies on first use. Both backends run
// the same loops (spin_filter.cpp, a backend source). Not thread-safe (scratch arrays).
class SpinFilter {
 public:
  SpinFilter(const Shell& shell, int l_keep, const std::vector<SpatialBlock>& blocks, Index components);
  // In place; field on the backend's side, components * N values.
  void apply(core::Backend backend, double* field) const;
  int l_keep() const { return l_keep_; }
  int spin_fields() const { return fields_; }

  // The flattened tables (host arrays; read on either side).
  struct Tables {
    Index n = 0;
    int n_r = 0, n_theta = 0, n_phi = 0, l_keep = 0, fields = 0, blocks = 0, stored = 0;
    core::Array<double> frame;       // 9 per angular point it + N_theta ip
    core::Array<double> projector;   // [(s + 3) (2 L + 1) + m + L] N_theta^2, L = l_keep
    core::Array<double> twiddle;     // e^{-i m phi_j}: [(m + L) N_phi + j] (re, im)
    core::Array<int> block_rank, block_field, block_component;  // per block; first component-table entry
    core::Array<int> component;      // the blocks' tuple -> stored tables, concatenated
    core::Array<int> field_spin;     // spin weight of each triad field
    core::Array<int> stored_block, stored_component, stored_tuple;  // per distinct stored component
  };
  const Tables& tables() const { return t_; }

 private:
  void set_blocks(const std::vector<SpatialBlock>& blocks, Index components);
  int l_keep_, fields_ = 0;
  Tables t_;
  // Scratch: the triad fields before and after (2 F N), their phi coefficients before and after (4)-(5).
  mutable core::Array<double> spin_, filtered_, coeff_, kept_;
};

}  // namespace loom::spectral
