#include "loom/spectral/spin_filter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/spin_filter_rings.hpp"

namespace loom::spectral {

namespace {
constexpr double pi = std::numbers::pi;
}  // namespace

std::string_view to_string(AngularFilter f) { return f == AngularFilter::scalar ? "scalar" : "tensor"; }

AngularFilter parse_angular_filter(std::string_view text, std::string_view key) {
  if (text == "scalar") return AngularFilter::scalar;
  if (text == "tensor") return AngularFilter::tensor;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of scalar, tensor"));
}

double jacobi(int n, int a, int b, double x) {
  if (n == 0) return 1;
  double p0 = 1, p1 = (a + 1) + 0.5 * (a + b + 2) * (x - 1);
  for (int k = 2; k <= n; ++k) {
    const double c = 2.0 * k + a + b;
    const double p2 =
        ((c - 1) * (c * (c - 2) * x + double(a) * a - double(b) * b) * p1 - 2.0 * (k + a - 1) * (k + b - 1) * c * p0) /
        (2.0 * k * (k + a + b) * (c - 2));
    p0 = p1;
    p1 = p2;
  }
  return p1;
}

// Eq. (5) of the header, lambda (3) normalised by the Gauss-Legendre rule itself (exact for l <= N_theta - 1).
std::vector<double> spin_projector(const SphereBasis& sphere, int s, int m, int l_keep) {
  const int nt = sphere.n_theta(), top = std::max(std::abs(m), std::abs(s));
  const int a = std::abs(m + s), b = std::abs(m - s);
  std::vector<double> p(static_cast<std::size_t>(nt) * nt, 0.0), w(nt), u(nt);
  for (int i = 0; i < nt; ++i) w[i] = sphere.weight(i, 0) * sphere.n_phi() / (2 * pi);
  for (int l = top; l <= l_keep; ++l) {
    double norm = 0;
    for (int i = 0; i < nt; ++i) {
      const double t = sphere.theta()[i];
      u[i] = std::pow(std::sin(t / 2), a) * std::pow(std::cos(t / 2), b) * jacobi(l - top, a, b, std::cos(t));
      norm += 2 * pi * w[i] * u[i] * u[i];
    }
    for (int k = 0; k < nt; ++k)
      for (int i = 0; i < nt; ++i) p[k * nt + i] += 2 * pi * w[i] * u[k] * u[i] / norm;
  }
  return p;
}

std::vector<SpatialBlock> spatial_blocks(const TensorShape& shape, int offset) {
  std::vector<SpatialBlock> blocks;
  for (int mask = 0; mask < (1 << shape.rank); ++mask) {  // bit j: slot j holds the time index
    bool valid = true;
    int rank = 0;
    for (int j = 0; j < shape.rank; ++j) {
      if ((mask >> j & 1) && !shape.spacetime(j)) valid = false;
      if (!(mask >> j & 1)) ++rank;
    }
    if (!valid) continue;
    SpatialBlock b;
    b.rank = rank;
    for (int t = 0; t < power_of_3(rank); ++t) {
      int idx[3] = {0, 0, 0}, digits = t;
      for (int j = shape.rank - 1; j >= 0; --j) {
        if (mask >> j & 1) continue;
        const int value = digits % 3;
        digits /= 3;
        idx[j] = shape.spacetime(j) ? value + 1 : value;
      }
      b.component.push_back(offset + shape.component(idx));
    }
    // A pattern that differs from an earlier one by the symmetric pair names the same components.
    auto sorted = b.component;
    std::sort(sorted.begin(), sorted.end());
    const bool seen = std::any_of(blocks.begin(), blocks.end(), [&](const SpatialBlock& o) {
      auto other = o.component;
      std::sort(other.begin(), other.end());
      return other == sorted;
    });
    if (seen) continue;
    for (int t = 0; t < power_of_3(rank); ++t)
      if (std::find(b.stored.begin(), b.stored.end(), b.component[t]) == b.stored.end()) {
        b.stored.push_back(b.component[t]);
        b.tuple.push_back(t);
      }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

namespace {

// n, e_theta, e_phi at every angular point it + N_theta ip (9 values each).
std::vector<double> frame_table(const SphereBasis& sphere) {
  const int nt = sphere.n_theta(), np = sphere.n_phi();
  std::vector<double> frame(9 * static_cast<std::size_t>(nt) * np);
  for (int ip = 0; ip < np; ++ip)
    for (int it = 0; it < nt; ++it) {
      const double th = sphere.theta()[it], ph = sphere.phi(ip);
      const double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
      const double f[9] = {st * cp, st * sp, ct, ct * cp, ct * sp, -st, -sp, cp, 0.0};
      std::copy_n(f, 9, frame.begin() + 9 * (it + Index{nt} * ip));
    }
  return frame;
}

// e^{-i m phi_j} for |m| <= L: [(m + L) N_phi + j] as (re, im).
std::vector<double> twiddle_table(const SphereBasis& sphere, int L) {
  const int np = sphere.n_phi();
  std::vector<double> twiddle(2 * static_cast<std::size_t>(2 * L + 1) * np);
  for (int m = -L; m <= L; ++m)
    for (int j = 0; j < np; ++j) {
      twiddle[2 * ((m + L) * np + j)] = std::cos(m * sphere.phi(j));
      twiddle[2 * ((m + L) * np + j) + 1] = -std::sin(m * sphere.phi(j));
    }
  return twiddle;
}

// The projectors (5) for |s| <= 3 and |m| <= L, one after the other.
std::vector<double> projector_table(const SphereBasis& sphere, int L) {
  std::vector<double> projector;
  for (int s = -max_spin_rank; s <= max_spin_rank; ++s)
    for (int m = -L; m <= L; ++m) {
      const auto p = spin_projector(sphere, s, m, L);
      projector.insert(projector.end(), p.begin(), p.end());
    }
  return projector;
}

// Raw pointers and sizes of the tables and scratch on one side, for the loops below; the aliases are `all` or
// `reduced` (the fields held in `spin`).
struct View {
  Index n;
  int nr, nt, np, orders, blocks, fields;
  const double *frame, *proj, *tw;
  const int *rank, *bfield, *bfirst, *comp, *written;
  const int *source, *conj, *first, *spin_weight;
  double *spin, *coeff, *kept;
};

// Eq. (2) at point p for block b of rank Rank: the triad components, each filtered field into `spin` (field k:
// re at 2k N, im at (2k+1) N).
template <int Rank>
LOOM_HOST_DEVICE inline void to_triad_point(const View& v, const double* field, int b, Index p) {
  constexpr int count = triad_count<Rank>;
  double re[count], im[count];
  LOOM_UNROLL
  for (int t = 0; t < count; ++t) re[t] = field[v.comp[v.bfirst[b] + t] * v.n + p], im[t] = 0;
  triad_transform<Rank>(v.frame + 9 * (p / v.nr), false, re, im, true);
  LOOM_UNROLL
  for (int a = 0; a < count; ++a) {
    const int k = v.source[v.bfield[b] + a];
    if (v.first[k] != v.bfield[b] + a) continue;
    v.spin[2 * Index{k} * v.n + p] = re[a];
    v.spin[(2 * Index{k} + 1) * v.n + p] = im[a];
  }
}

// Per (block, point), the point fastest. Blocks times points threads: a thread per point alone left most of the
// device idle at the paper's 7220 points per shell.
void to_triad(core::Backend backend, const View& v, const double* field) {
  core::parallel_for(backend, Index{v.blocks} * v.n, [=] LOOM_HOST_DEVICE(Index job) {
    const int b = static_cast<int>(job / v.n);
    const Index p = job % v.n;
    switch (v.rank[b]) {
      case 0:
        return to_triad_point<0>(v, field, b, p);
      case 1:
        return to_triad_point<1>(v, field, b, p);
      case 2:
        return to_triad_point<2>(v, field, b, p);
      default:
        return to_triad_point<3>(v, field, b, p);
    }
  });
}

// Eqs. (4) and (5) by direct sums: per (field, radius, order, theta), theta fastest, the phi coefficient, then
// the projected one.
void project_lines(core::Backend backend, const View& v) {
  const Index lines = Index{v.fields} * v.nr * v.orders * v.nt;
  core::parallel_for(backend, lines, [=] LOOM_HOST_DEVICE(Index job) {
    const int it = static_cast<int>(job % v.nt), m = static_cast<int>(job / v.nt % v.orders);
    const Index kr = job / (Index{v.nt} * v.orders), k = kr / v.nr;
    const int ir = static_cast<int>(kr % v.nr);
    double re = 0, im = 0;
    for (int ip = 0; ip < v.np; ++ip) {
      const Index p = ir + Index{v.nr} * (it + Index{v.nt} * ip);
      const double xr = v.spin[2 * k * v.n + p], xi = v.spin[(2 * k + 1) * v.n + p];
      const double cr = v.tw[2 * (m * v.np + ip)], ci = v.tw[2 * (m * v.np + ip) + 1];
      re += xr * cr - xi * ci;
      im += xr * ci + xi * cr;
    }
    v.coeff[2 * job] = re / v.np;
    v.coeff[2 * job + 1] = im / v.np;
  });
  core::parallel_for(backend, lines, [=] LOOM_HOST_DEVICE(Index job) {
    const int kk = static_cast<int>(job % v.nt), m = static_cast<int>(job / v.nt % v.orders);
    const Index row = job - kk, k = job / (Index{v.nt} * v.orders * v.nr);
    const double* P = v.proj + (Index{v.spin_weight[k] + max_spin_rank} * v.orders + m) * v.nt * v.nt + kk * v.nt;
    double re = 0, im = 0;
    for (int i = 0; i < v.nt; ++i) {
      re += P[i] * v.coeff[2 * (row + i)];
      im += P[i] * v.coeff[2 * (row + i) + 1];
    }
    v.kept[2 * job] = re;
    v.kept[2 * job + 1] = im;
  });
}

// The phi synthesis sum_m G_m e^{i m phi} per field and point, back into `spin`.
void synthesize(core::Backend backend, const View& v) {
  core::parallel_for(backend, Index{v.fields} * v.n, [=] LOOM_HOST_DEVICE(Index job) {
    const Index k = job / v.n, p = job % v.n;
    const int ir = static_cast<int>(p % v.nr), it = static_cast<int>(p / v.nr % v.nt);
    const int ip = static_cast<int>(p / v.nr / v.nt);
    const Index row = ((k * v.nr + ir) * v.orders) * v.nt + it;
    double re = 0, im = 0;
    for (int m = 0; m < v.orders; ++m) {
      const double gr = v.kept[2 * (row + Index{m} * v.nt)], gi = v.kept[2 * (row + Index{m} * v.nt) + 1];
      const double cr = v.tw[2 * (m * v.np + ip)], ci = -v.tw[2 * (m * v.np + ip) + 1];  // e^{+i m phi}
      re += gr * cr - gi * ci;
      im += gr * ci + gi * cr;
    }
    v.spin[2 * k * v.n + p] = re;
    v.spin[(2 * k + 1) * v.n + p] = im;
  });
}

// The inverse of (2) at point p for block b: each triad field read from its filtered source (conjugated where
// it is the conjugate), each stored component from the first tuple that names it (the real part).
template <int Rank>
LOOM_HOST_DEVICE inline void rebuild_point(const View& v, double* field, int b, Index p) {
  constexpr int count = triad_count<Rank>;
  double re[count], im[count];
  LOOM_UNROLL
  for (int a = 0; a < count; ++a) {
    const Index k = v.source[v.bfield[b] + a];
    re[a] = v.spin[2 * k * v.n + p];
    im[a] = v.conj[v.bfield[b] + a] ? -v.spin[(2 * k + 1) * v.n + p] : v.spin[(2 * k + 1) * v.n + p];
  }
  triad_transform<Rank>(v.frame + 9 * (p / v.nr), true, re, im, true);
  LOOM_UNROLL
  for (int t = 0; t < count; ++t)
    if (v.written[v.bfirst[b] + t]) field[v.comp[v.bfirst[b] + t] * v.n + p] = re[t];
}

void rebuild(core::Backend backend, const View& v, double* field) {
  core::parallel_for(backend, Index{v.blocks} * v.n, [=] LOOM_HOST_DEVICE(Index job) {
    const int b = static_cast<int>(job / v.n);
    const Index p = job % v.n;
    switch (v.rank[b]) {
      case 0:
        return rebuild_point<0>(v, field, b, p);
      case 1:
        return rebuild_point<1>(v, field, b, p);
      case 2:
        return rebuild_point<2>(v, field, b, p);
      default:
        return rebuild_point<3>(v, field, b, p);
    }
  });
}

// The slot permutations sigma (rank <= 3) under which a block's tuple -> component map is invariant; each as
// the image of every multi-index.
std::vector<std::vector<int>> symmetries(const SpatialBlock& b) {
  const int count = power_of_3(b.rank);
  int slots[3] = {0, 1, 2};
  std::vector<std::vector<int>> found;
  do {
    std::vector<int> image(static_cast<std::size_t>(count));
    bool invariant = true;
    for (int t = 0; t < count; ++t) {
      int digit[3] = {0, 0, 0}, u = 0;
      for (int j = 0, r = t; j < b.rank; ++j, r /= 3) digit[j] = r % 3;
      for (int j = b.rank - 1; j >= 0; --j) u = 3 * u + digit[slots[j]];
      image[static_cast<std::size_t>(t)] = u;
      invariant = invariant && b.component[static_cast<std::size_t>(u)] == b.component[static_cast<std::size_t>(t)];
    }
    if (invariant) found.push_back(std::move(image));
  } while (std::next_permutation(slots, slots + b.rank));
  return found;
}

// The multi-index with the indices 1 and 2 swapped (T_{A*} = conj T_A).
int conjugate_index(int rank, int a) {
  int out = 0;
  for (int j = 0, place = 1; j < rank; ++j, a /= 3, place *= 3) out += place * (a % 3 == 0 ? 0 : 3 - a % 3);
  return out;
}

// Per triad field of a block: the smallest multi-index of its class (symmetries and conjugation) and whether
// the field is the conjugate of that one.
void classes(const SpatialBlock& b, std::vector<int>& representative, std::vector<int>& conjugate) {
  const auto sym = symmetries(b);
  const int count = power_of_3(b.rank);
  representative.assign(static_cast<std::size_t>(count), count);
  conjugate.assign(static_cast<std::size_t>(count), 0);
  for (int a = 0; a < count; ++a)
    for (const auto& image : sym) {
      const int plain = image[static_cast<std::size_t>(a)];
      const int conj = image[static_cast<std::size_t>(conjugate_index(b.rank, a))];
      auto& r = representative[static_cast<std::size_t>(a)];
      if (plain <= r) r = plain, conjugate[static_cast<std::size_t>(a)] = 0;
      if (conj < r) r = conj, conjugate[static_cast<std::size_t>(a)] = 1;
    }
}

}  // namespace

SpinFilter::SpinFilter(const Shell& shell, int l_keep, const std::vector<SpatialBlock>& blocks, Index components)
    : l_keep_(l_keep) {
  const auto e = shell.extents();
  const SphereBasis& sphere = shell.sphere();
  LOOM_REQUIRE(l_keep >= 0 && l_keep <= sphere.l_max(), "SpinFilter: l_keep outside [0, l_max]");
  t_.n = shell.size();
  t_.n_r = e[0];
  t_.n_theta = e[1];
  t_.n_phi = e[2];
  t_.l_keep = l_keep;
  t_.frame = core::Array<double>::from(frame_table(sphere));
  t_.twiddle = core::Array<double>::from(twiddle_table(sphere, l_keep));
  t_.projector = core::Array<double>::from(projector_table(sphere, l_keep));
  set_blocks(blocks, components);
  fft_ = std::make_unique<rings::Fft>(t_.n_theta, t_.n_phi);
  spin_ = core::Array<double>(static_cast<std::size_t>(2 * fields_ * t_.n));
}

SpinFilter::~SpinFilter() = default;
SpinFilter::SpinFilter(SpinFilter&&) noexcept = default;
SpinFilter& SpinFilter::operator=(SpinFilter&&) noexcept = default;

namespace {

SpinAliases aliases(const std::vector<int>& source, const std::vector<int>& conjugate, const std::vector<int>& first,
                    const std::vector<int>& spin) {
  SpinAliases a;
  a.count = static_cast<int>(first.size());
  a.source = core::Array<int>::from(source);
  a.conjugate = core::Array<int>::from(conjugate);
  a.first = core::Array<int>::from(first);
  a.spin = core::Array<int>::from(spin);
  return a;
}

// Both alias tables of the blocks: every triad field its own (`all`), one per class (`reduced`, classes()).
void set_aliases(const std::vector<SpatialBlock>& blocks, SpinAliases& all, SpinAliases& reduced) {
  std::vector<int> identity, zero, spins, source, conjugate, first, first_spin;
  for (const auto& b : blocks) {
    std::vector<int> representative, conj;
    classes(b, representative, conj);
    const int base = static_cast<int>(identity.size());
    for (int a = 0; a < power_of_3(b.rank); ++a) {
      identity.push_back(base + a);
      zero.push_back(0);
      spins.push_back(spin_of(b.rank, a));
      if (representative[static_cast<std::size_t>(a)] == a) {
        first.push_back(base + a);
        first_spin.push_back(spin_of(b.rank, a));
      }
    }
    for (int a = 0; a < power_of_3(b.rank); ++a) {
      const int r = base + representative[static_cast<std::size_t>(a)];
      source.push_back(static_cast<int>(std::find(first.begin(), first.end(), r) - first.begin()));
      conjugate.push_back(conj[static_cast<std::size_t>(a)]);
    }
  }
  all = aliases(identity, zero, identity, spins);
  reduced = aliases(source, conjugate, first, first_spin);
}

}  // namespace

// The blocks' tables, flattened: per block its rank, first triad field and first tuple entry; per tuple its
// component and whether the rebuilt component is taken from it (the block's `tuple` list); the alias tables.
void SpinFilter::set_blocks(const std::vector<SpatialBlock>& blocks, Index components) {
  std::vector<int> rank, field, first, component, written;
  int stored = 0;
  std::vector<int> covered(static_cast<std::size_t>(components), 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    LOOM_REQUIRE(blocks[b].rank <= max_spin_rank, "SpinFilter: spatial rank above 3");
    rank.push_back(blocks[b].rank);
    field.push_back(fields_);
    first.push_back(static_cast<int>(component.size()));
    fields_ += power_of_3(blocks[b].rank);
    component.insert(component.end(), blocks[b].component.begin(), blocks[b].component.end());
    for (int t = 0; t < power_of_3(blocks[b].rank); ++t)
      written.push_back(std::find(blocks[b].tuple.begin(), blocks[b].tuple.end(), t) != blocks[b].tuple.end());
    for (int c : blocks[b].stored) ++covered[static_cast<std::size_t>(c)];
    stored += static_cast<int>(blocks[b].stored.size());
  }
  LOOM_REQUIRE(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }),
               "SpinFilter: every component must lie in exactly one spatial block");
  t_.fields = fields_;
  t_.blocks = static_cast<int>(blocks.size());
  t_.stored = stored;
  t_.block_rank = core::Array<int>::from(rank);
  t_.block_field = core::Array<int>::from(field);
  t_.block_component = core::Array<int>::from(first);
  t_.component = core::Array<int>::from(component);
  t_.written = core::Array<int>::from(written);
  set_aliases(blocks, t_.all, t_.reduced);
}

namespace {
View view(const SpinFilter::Tables& t, const SpinAliases& a, core::Where w, double* spin, double* coeff, double* kept) {
  return View{t.n,
              t.n_r,
              t.n_theta,
              t.n_phi,
              2 * t.l_keep + 1,
              t.blocks,
              a.count,
              t.frame.read(w),
              t.projector.read(w),
              t.twiddle.read(w),
              t.block_rank.read(w),
              t.block_field.read(w),
              t.block_component.read(w),
              t.component.read(w),
              t.written.read(w),
              a.source.read(w),
              a.conjugate.read(w),
              a.first.read(w),
              a.spin.read(w),
              spin,
              coeff,
              kept};
}
}  // namespace

// To the triad, one field per class; the ring sets on the backend (spin_filter_rings.hpp); rebuilt.
void SpinFilter::apply(core::Backend backend, double* field) const {
  const core::Where w = core::where(backend);
  const View v = view(t_, t_.reduced, w, spin_.write(w), nullptr, nullptr);
  to_triad(backend, v, field);
  const rings::View r{v.n, v.nr, v.nt, v.np, t_.l_keep, v.fields, v.spin_weight, v.proj, v.tw, v.spin};
  if (backend == core::Backend::cpu)
    rings::filter_cpu(r, *fft_);
  else
    rings::filter_cuda(r);
  rebuild(backend, v, field);
}

// The header's formulas as five loops over every triad field, each a core::parallel_for on the backend.
void SpinFilter::apply_direct(core::Backend backend, double* field) const {
  const core::Where w = core::where(backend);
  const auto lines = static_cast<std::size_t>(2 * fields_ * t_.n_r * (2 * t_.l_keep + 1) * t_.n_theta);
  if (coeff_.size() != lines) coeff_ = core::Array<double>(lines), kept_ = core::Array<double>(lines);
  const View v = view(t_, t_.all, w, spin_.write(w), coeff_.write(w), kept_.write(w));
  to_triad(backend, v, field);
  project_lines(backend, v);
  synthesize(backend, v);
  rebuild(backend, v, field);
}

}  // namespace loom::spectral
