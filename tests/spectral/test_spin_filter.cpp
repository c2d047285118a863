// The tensor-consistent (spin-weighted) angular filter (spin_filter.hpp), checked against things built without
// it: closed forms of Jacobi polynomials; the scalar Y_lm truncation of SphereBasis (its own Legendre
// recurrence); tensor harmonics written from harmonic polynomials p = Re or Im (a.x)^l, a a complex null vector
// (so p restricted to the sphere is a Y_l, its surface gradient grad p - l p n and n x grad p are vector harmonics
// of degree l, and outer products of harmonics of degrees l1, l2 have spin components of degree <= l1 + l2).
// Also the difference from the scalar truncation of each Cartesian component that the filter exists for.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "loom/spectral/spin_filter.hpp"

namespace loom::spectral {
namespace {

using Vec = std::array<double, 3>;
using Complex = std::complex<double>;

TEST(SpinFilter, JacobiPolynomialsMatchClosedForms) {
  for (double x : {-0.9, -0.3, 0.2, 0.7, 1.0}) {
    EXPECT_NEAR(jacobi(2, 0, 0, x), (3 * x * x - 1) / 2, 1e-14);
    EXPECT_NEAR(jacobi(3, 0, 0, x), (5 * x * x * x - 3 * x) / 2, 1e-14);
    EXPECT_NEAR(jacobi(1, 2, 3, x), 3 + 3.5 * (x - 1), 1e-14);
  }
  EXPECT_NEAR(jacobi(4, 2, 1, 1.0), 15, 1e-12);  // P_n^(a,b)(1) = binom(n + a, n)
  EXPECT_NEAR(jacobi(3, 1, 2, -1.0), -10, 1e-12);  // P_n^(a,b)(-1) = (-1)^n binom(n + b, n)
}

// A harmonic polynomial of degree l: Re or Im of (a.x)^l with a = u + i v, u, v orthonormal.
struct Harmonic {
  int l;
  Vec u, v;
  bool imaginary;
  Complex ax(const Vec& x) const { return {u[0] * x[0] + u[1] * x[1] + u[2] * x[2], v[0] * x[0] + v[1] * x[1] + v[2] * x[2]}; }
  double value(const Vec& x) const {
    const Complex z = std::pow(ax(x), l);
    return imaginary ? z.imag() : z.real();
  }
  Vec gradient(const Vec& x) const {
    const Complex z = l == 0 ? Complex(0) : double(l) * std::pow(ax(x), l - 1);
    Vec g;
    for (int i = 0; i < 3; ++i) {
      const Complex c = z * Complex(u[i], v[i]);
      g[i] = imaginary ? c.imag() : c.real();
    }
    return g;
  }
};

Harmonic harmonic(int l, double angle, bool imaginary) {
  const double c = std::cos(angle), s = std::sin(angle);
  // u, v orthonormal and turned by `angle` so that no axis is special.
  const Vec u{c, s * 0.6, s * 0.8}, v{-s, c * 0.6, c * 0.8};
  return {l, u, v, imaginary};
}

// The vector harmonics of degree l at the unit normal n: n Y, the surface gradient, n x the gradient.
enum class VectorKind { radial, gradient, curl };
Vec vector_harmonic(const Harmonic& h, VectorKind kind, const Vec& n) {
  const double y = h.value(n);
  const Vec g = h.gradient(n);
  if (kind == VectorKind::radial) return {n[0] * y, n[1] * y, n[2] * y};
  if (kind == VectorKind::gradient) return {g[0] - h.l * y * n[0], g[1] - h.l * y * n[1], g[2] - h.l * y * n[2]};
  return {n[1] * g[2] - n[2] * g[1], n[2] * g[0] - n[0] * g[2], n[0] * g[1] - n[1] * g[0]};
}

// A shell's unit normals per point and a field of 3^rank components built from `value(n, tuple)`, times a
// radial factor (the filter must act on each radius alone).
struct Grid {
  Shell shell;
  std::vector<Vec> normal;
  explicit Grid(int n_theta) : shell(3, n_theta, 1, 2) {
    const auto x = shell.cartesian();
    for (Index p = 0; p < shell.size(); ++p) {
      const double r = std::sqrt(x[0][p] * x[0][p] + x[1][p] * x[1][p] + x[2][p] * x[2][p]);
      normal.push_back({x[0][p] / r, x[1][p] / r, x[2][p] / r});
    }
  }
  Index n() const { return shell.size(); }
  std::vector<double> field(int components, const std::function<double(const Vec&, int)>& value) const {
    std::vector<double> f(static_cast<std::size_t>(components * n()));
    for (int c = 0; c < components; ++c)
      for (Index p = 0; p < n(); ++p) f[c * n() + p] = (1.5 + p % 3) * value(normal[p], c);
    return f;
  }
};

// A full rank-k tensor block: 3^k distinct components, the tuple t stored as component t.
SpatialBlock full_block(int rank) {
  SpatialBlock b;
  b.rank = rank;
  for (int t = 0; t < power_of_3(rank); ++t) b.component.push_back(t), b.stored.push_back(t), b.tuple.push_back(t);
  return b;
}

std::vector<double> filtered(const Grid& g, int l_keep, int rank, std::vector<double> f) {
  SpinFilter filter(g.shell, l_keep, {full_block(rank)}, power_of_3(rank));
  filter.apply(core::Backend::cpu, f.data());
  return f;
}

double largest(const std::vector<double>& f) {
  double m = 0;
  for (double v : f) m = std::max(m, std::abs(v));
  return m;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// The scalar Y_lm truncation of every component, per radius, by SphereBasis.
std::vector<double> scalar_truncation(const Grid& g, int components, int l_keep, const std::vector<double>& f) {
  const auto e = g.shell.extents();
  const int na = e[1] * e[2];
  std::vector<double> out(f.size()), in(na), o(na);
  for (int c = 0; c < components; ++c)
    for (int ir = 0; ir < e[0]; ++ir) {
      for (int a = 0; a < na; ++a) in[a] = f[c * g.n() + ir + Index{e[0]} * a];
      g.shell.sphere().heaviside_filter(in.data(), o.data(), l_keep);
      for (int a = 0; a < na; ++a) out[c * g.n() + ir + Index{e[0]} * a] = o[a];
    }
  return out;
}

TEST(SpinFilter, OnAScalarItIsTheYlmTruncation) {
  Grid g(9);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> f(g.n());
  for (auto& v : f) v = u(rng);
  for (int l_keep : {0, 3, 7, 8}) {
    const auto tensor = filtered(g, l_keep, 0, f), scalar = scalar_truncation(g, 1, l_keep, f);
    EXPECT_LT(largest_difference(tensor, scalar), 1e-13) << l_keep;
  }
}

TEST(SpinFilter, TheProjectorIsIdempotentForEveryRank) {
  Grid g(9);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int rank = 0; rank <= 3; ++rank) {
    std::vector<double> f(static_cast<std::size_t>(power_of_3(rank) * g.n()));
    for (auto& v : f) v = u(rng);
    const auto once = filtered(g, 6, rank, f), twice = filtered(g, 6, rank, once);
    EXPECT_LT(largest_difference(once, twice), 1e-13) << rank;
    EXPECT_GT(largest_difference(once, f), 0.1) << rank;  // random data is not left alone
  }
  // The theta matrices themselves: P^2 = P for every spin and order.
  SphereBasis s(9);
  for (int spin = -3; spin <= 3; ++spin)
    for (int m = -6; m <= 6; ++m) {
      const auto p = spin_projector(s, spin, m, 6);
      for (int k = 0; k < 9; ++k)
        for (int i = 0; i < 9; ++i) {
          double pp = 0;
          for (int j = 0; j < 9; ++j) pp += p[k * 9 + j] * p[j * 9 + i];
          EXPECT_NEAR(pp, p[k * 9 + i], 1e-13);
        }
    }
}

// Vector harmonics of degree <= l_keep pass unchanged; of degree l_keep + 1 they are removed.
TEST(SpinFilter, VectorHarmonicsPassUpToLKeepAndAreRemovedAbove) {
  Grid g(9);
  const int l_keep = 6;
  for (auto kind : {VectorKind::radial, VectorKind::gradient, VectorKind::curl})
    for (int l : {1, 4, 6, 7}) {
      const Harmonic h = harmonic(l, 0.3 * l, l % 2 == 0);
      const auto f = g.field(3, [&](const Vec& n, int c) { return vector_harmonic(h, kind, n)[c]; });
      const auto out = filtered(g, l_keep, 1, f);
      if (l <= l_keep)
        EXPECT_LT(largest_difference(out, f), 1e-12 * largest(f)) << int(kind) << " l " << l;
      else
        EXPECT_LT(largest(out), 1e-12 * largest(f)) << int(kind) << " l " << l;
    }
}

// Outer products of vector harmonics: rank 2 and 3 with degrees summing to <= l_keep pass; n x n x n Y_{l_keep + 1}
// and n x grad Y_{l_keep + 1} are removed.
TEST(SpinFilter, OuterProductsOfHarmonicsPassUpToLKeepAndAreRemovedAbove) {
  Grid g(9);
  const int l_keep = 6;
  const Harmonic a = harmonic(2, 0.4, false), b = harmonic(3, 1.1, true), c = harmonic(1, 2.0, false);
  const auto rank2 = g.field(9, [&](const Vec& n, int t) {
    return vector_harmonic(a, VectorKind::gradient, n)[t / 3] * vector_harmonic(b, VectorKind::curl, n)[t % 3];
  });
  EXPECT_LT(largest_difference(filtered(g, l_keep, 2, rank2), rank2), 1e-12 * largest(rank2));
  const auto rank3 = g.field(27, [&](const Vec& n, int t) {
    return vector_harmonic(a, VectorKind::radial, n)[t / 9] * vector_harmonic(b, VectorKind::gradient, n)[t / 3 % 3] *
           vector_harmonic(c, VectorKind::curl, n)[t % 3];
  });
  EXPECT_LT(largest_difference(filtered(g, l_keep, 3, rank3), rank3), 1e-12 * largest(rank3));
  const Harmonic top = harmonic(l_keep + 1, 0.7, false);
  const auto radial3 = g.field(27, [&](const Vec& n, int t) { return n[t / 9] * n[t / 3 % 3] * n[t % 3] * top.value(n); });
  EXPECT_LT(largest(filtered(g, l_keep, 3, radial3)), 1e-12 * largest(radial3));
  const auto mixed2 = g.field(9, [&](const Vec& n, int t) { return n[t / 3] * vector_harmonic(top, VectorKind::gradient, n)[t % 3]; });
  EXPECT_LT(largest(filtered(g, l_keep, 2, mixed2)), 1e-12 * largest(mixed2));
}

// What the tensor filter is for: it commutes with the pointwise split into normal and tangential parts
// (n.F(v) = P_0(n.v)), which the scalar truncation of each Cartesian component does not; and n Y_{l_keep}, a
// vector harmonic the tensor filter keeps, is changed by the scalar truncation (its Cartesian components have
// degree l_keep + 1).
TEST(SpinFilter, UnlikeTheScalarTruncationItCommutesWithTheNormalProjection) {
  Grid g(9);
  const int l_keep = 6;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(3 * g.n());
  for (auto& x : v) x = u(rng);
  auto normal_part = [&](const std::vector<double>& w) {
    std::vector<double> out(g.n());
    for (Index p = 0; p < g.n(); ++p)
      out[p] = g.normal[p][0] * w[p] + g.normal[p][1] * w[g.n() + p] + g.normal[p][2] * w[2 * g.n() + p];
    return out;
  };
  const auto filtered_normal = scalar_truncation(g, 1, l_keep, normal_part(v));
  const double tensor_gap = largest_difference(normal_part(filtered(g, l_keep, 1, v)), filtered_normal);
  const double scalar_gap = largest_difference(normal_part(scalar_truncation(g, 3, l_keep, v)), filtered_normal);
  std::printf("|n.F(v) - P0(n.v)|: tensor %.2e, scalar per component %.2e\n", tensor_gap, scalar_gap);
  EXPECT_LT(tensor_gap, 1e-12);
  EXPECT_GT(scalar_gap, 1e-2);
  const Harmonic h = harmonic(l_keep, 0.9, true);
  const auto radial = g.field(3, [&](const Vec& n, int c) { return n[c] * h.value(n); });
  const double scalar_change = largest_difference(scalar_truncation(g, 3, l_keep, radial), radial) / largest(radial);
  std::printf("n Y_%d changed by the scalar truncation: %.2e of its size\n", l_keep, scalar_change);
  EXPECT_GT(scalar_change, 1e-2);
}

// Both filters commute with rotations of the field that map the grid onto itself: pi about the x axis
// (theta -> pi - theta, phi -> -phi; it turns the triad's tangent vectors, so it checks the spin conventions) and
// one phi step about z. T'(x) = R T(R^T x) on every index.
TEST(SpinFilter, BothFiltersCommuteWithRotationsOfTheGrid) {
  Grid g(9);
  const auto e = g.shell.extents();
  const int nr = e[0], nt = e[1], np = e[2], l_keep = 6;
  struct Rotation {
    std::array<Vec, 3> r;
    std::function<Index(Index)> source;  // the point R^T x of point x
  };
  auto index = [=](int ir, int it, int ip) { return ir + Index{nr} * (it + Index{nt} * ip); };
  const double c = std::cos(2 * M_PI / np), s = std::sin(2 * M_PI / np);
  const std::vector<Rotation> rotations = {
      {{Vec{1, 0, 0}, Vec{0, -1, 0}, Vec{0, 0, -1}},
       [=](Index p) {
         const int ir = p % nr, it = p / nr % nt, ip = p / nr / nt;
         return index(ir, nt - 1 - it, (np - ip) % np);
       }},
      {{Vec{c, -s, 0}, Vec{s, c, 0}, Vec{0, 0, 1}},
       [=](Index p) {
         const int ir = p % nr, it = p / nr % nt, ip = p / nr / nt;
         return index(ir, it, (ip + np - 1) % np);
       }}};
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int rank = 1; rank <= 2; ++rank) {
    const int count = power_of_3(rank);
    std::vector<double> f(static_cast<std::size_t>(count * g.n()));
    for (auto& x : f) x = u(rng);
    for (const auto& rot : rotations) {
      auto rotate = [&](const std::vector<double>& w) {
        std::vector<double> out(w.size(), 0.0);
        for (Index p = 0; p < g.n(); ++p)
          for (int t = 0; t < count; ++t)
            for (int q = 0; q < count; ++q) {
              double factor = 1;
              for (int j = 0, tt = t, qq = q; j < rank; ++j, tt /= 3, qq /= 3) factor *= rot.r[tt % 3][qq % 3];
              out[t * g.n() + p] += factor * w[q * g.n() + rot.source(p)];
            }
        return out;
      };
      const double tensor = largest_difference(filtered(g, l_keep, rank, rotate(f)), rotate(filtered(g, l_keep, rank, f)));
      const double scalar = largest_difference(scalar_truncation(g, count, l_keep, rotate(f)),
                                               rotate(scalar_truncation(g, count, l_keep, f)));
      EXPECT_LT(tensor, 1e-12) << rank;
      EXPECT_LT(scalar, 1e-12) << rank;
    }
  }
}

// triad_transform (one slot at a time: the real rotation, then the constant complex step) against eq. (2) summed
// directly over all 3^k x 3^k products of the basis vectors triad_basis gives, forward and inverse, complex input,
// ranks 0-3, at a point with no special angle.
TEST(SpinFilter, TheSlotBySlotTriadTransformIsEquationTwo) {
  const double th = 0.7, ph = 2.1;
  const double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
  const double frame[9] = {st * cp, st * sp, ct, ct * cp, ct * sp, -st, -sp, cp, 0.0};
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int rank = 0; rank <= 3; ++rank)
    for (bool inverse : {false, true}) {
      const int count = power_of_3(rank);
      std::vector<double> re(count), im(count);
      for (int t = 0; t < count; ++t) re[t] = u(rng), im[t] = u(rng);
      std::vector<Complex> direct(count, 0.0);
      for (int o = 0; o < count; ++o)
        for (int q = 0; q < count; ++q) {
          Complex factor = 1;
          for (int j = 0, a = o, b = q; j < rank; ++j, a /= 3, b /= 3) {
            double br, bi;  // forward: e_{A}^{t} with A = o, t = q; inverse: conj(e_{A}^{t}) with A = q, t = o
            triad_basis(frame, inverse ? b % 3 : a % 3, inverse ? a % 3 : b % 3, br, bi);
            factor *= inverse ? Complex(br, -bi) : Complex(br, bi);
          }
          direct[o] += factor * Complex(re[q], im[q]);
        }
      triad_transform(frame, rank, inverse, re.data(), im.data());
      for (int o = 0; o < count; ++o) {
        EXPECT_NEAR(re[o], direct[o].real(), 1e-14) << rank << inverse << o;
        EXPECT_NEAR(im[o], direct[o].imag(), 1e-14) << rank << inverse << o;
      }
    }
}

// The GH variables' blocks (psi_ab and Pi_ab as T_aa, Phi_iab as T_iaa: 50 components, 65 triad fields).
std::vector<SpatialBlock> gh_blocks() {
  std::vector<SpatialBlock> blocks;
  for (auto [kind, offset] : {std::pair{TensorKind::aa, 0}, std::pair{TensorKind::aa, 10}, std::pair{TensorKind::iaa, 20}})
    for (auto& b : spatial_blocks(shape_of(kind), offset)) blocks.push_back(std::move(b));
  return blocks;
}

// apply (one triad field per conjugate/symmetry class; phi by FFTW per ring set) against apply_direct (the
// twelfth session's five loops: direct phi sums over every triad field), on random data in every block the
// GH variables use, at l_keep from 0 to l_max; and against the filter of each tensor kind alone.
TEST(SpinFilter, TheRingFormEqualsTheDirectFormOnEveryGhBlock) {
  for (int n_theta : {9, 12}) {
    const Shell shell(3, n_theta, 1, 2);
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> f(static_cast<std::size_t>(50 * shell.size()));
    for (auto& v : f) v = u(rng);
    for (int l_keep : {0, 3, n_theta - 4, n_theta - 1}) {
      SpinFilter filter(shell, l_keep, gh_blocks(), 50);
      EXPECT_EQ(filter.spin_fields(), 65);
      EXPECT_EQ(filter.filtered_fields(), 31);  // 7 + 7 + 17: the classes counted in spin_filter.hpp
      auto ring = f, direct = f;
      filter.apply(core::Backend::cpu, ring.data());
      filter.apply_direct(core::Backend::cpu, direct.data());
      EXPECT_LT(largest_difference(ring, direct), 1e-13) << n_theta << " " << l_keep;
      EXPECT_GT(largest_difference(ring, f), 0.1) << n_theta << " " << l_keep;
    }
  }
}

// Each tensor kind alone by both forms (its own classes: T_ij and T_ab with no symmetry, T_ii, T_abb symmetric).
TEST(SpinFilter, TheRingFormEqualsTheDirectFormOnEachTensorKind) {
  const Shell shell(2, 9, 1, 2);
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto kind : {TensorKind::a, TensorKind::i, TensorKind::ij, TensorKind::ii, TensorKind::aa, TensorKind::ab,
                    TensorKind::abb, TensorKind::iaa}) {
    const TensorShape shape = shape_of(kind);
    const int components = shape.components();
    std::vector<double> f(static_cast<std::size_t>(components * shell.size()));
    for (auto& v : f) v = u(rng);
    SpinFilter filter(shell, 5, spatial_blocks(shape, 0), components);
    EXPECT_LT(filter.filtered_fields(), filter.spin_fields()) << int(kind);
    auto ring = f, direct = f;
    filter.apply(core::Backend::cpu, ring.data());
    filter.apply_direct(core::Backend::cpu, direct.data());
    EXPECT_LT(largest_difference(ring, direct), 1e-13) << int(kind);
  }
}

TEST(SpinFilter, TheBlocksOfTheGhVariablesCoverEachComponentOnce) {
  const auto aa = spatial_blocks(shape_of(TensorKind::aa), 0);
  ASSERT_EQ(aa.size(), 3u);  // T_00, T_0i, T_ij
  EXPECT_EQ(aa[0].rank + aa[1].rank + aa[2].rank, 3);
  const auto iaa = spatial_blocks(shape_of(TensorKind::iaa), 20);
  ASSERT_EQ(iaa.size(), 3u);  // Phi_i00, Phi_i0j, Phi_ijk
  std::vector<int> count(50, 0);
  for (const auto* list : {&aa, &iaa})
    for (const auto& b : *list)
      for (int c : b.stored) ++count[c];
  for (int c = 0; c < 10; ++c) EXPECT_EQ(count[c], 1) << c;
  for (int c = 20; c < 50; ++c) EXPECT_EQ(count[c], 1) << c;
  // Phi_i0j is not symmetric: 9 stored components; Phi_ijk is symmetric in jk: 18.
  int sizes[3] = {int(iaa[0].stored.size()), int(iaa[1].stored.size()), int(iaa[2].stored.size())};
  std::sort(sizes, sizes + 3);
  EXPECT_EQ(sizes[0], 3);
  EXPECT_EQ(sizes[1], 9);
  EXPECT_EQ(sizes[2], 18);
}

}  // namespace
}  // namespace loom::spectral
