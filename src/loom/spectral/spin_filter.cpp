#include "loom/spectral/spin_filter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/io/parameters.hpp"

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
    const double p2 = ((c - 1) * (c * (c - 2) * x + double(a) * a - double(b) * b) * p1 -
                       2.0 * (k + a - 1) * (k + b - 1) * c * p0) /
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
  const int nt = e[1], np = e[2], L = l_keep, orders = 2 * L + 1;
  std::vector<double> frame(9 * static_cast<std::size_t>(nt) * np), twiddle(2 * static_cast<std::size_t>(orders) * np);
  for (int ip = 0; ip < np; ++ip)
    for (int it = 0; it < nt; ++it) {
      const double th = sphere.theta()[it], ph = sphere.phi(ip);
      const double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
      const double f[9] = {st * cp, st * sp, ct, ct * cp, ct * sp, -st, -sp, cp, 0.0};
      std::copy_n(f, 9, frame.begin() + 9 * (it + Index{nt} * ip));
    }
  for (int m = -L; m <= L; ++m)
    for (int j = 0; j < np; ++j) {
      twiddle[2 * ((m + L) * np + j)] = std::cos(m * sphere.phi(j));
      twiddle[2 * ((m + L) * np + j) + 1] = -std::sin(m * sphere.phi(j));
    }
  std::vector<double> projector;
  for (int s = -max_spin_rank; s <= max_spin_rank; ++s)
    for (int m = -L; m <= L; ++m) {
      const auto p = spin_projector(sphere, s, m, L);
      projector.insert(projector.end(), p.begin(), p.end());
    }
  std::vector<int> rank, field, first, component, stored_block, stored_component, stored_tuple;
  std::vector<int> covered(static_cast<std::size_t>(components), 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    LOOM_REQUIRE(blocks[b].rank <= max_spin_rank, "SpinFilter: spatial rank above 3");
    rank.push_back(blocks[b].rank);
    field.push_back(fields_);
    first.push_back(static_cast<int>(component.size()));
    fields_ += power_of_3(blocks[b].rank);
    component.insert(component.end(), blocks[b].component.begin(), blocks[b].component.end());
    for (std::size_t k = 0; k < blocks[b].stored.size(); ++k) {
      stored_block.push_back(static_cast<int>(b));
      stored_component.push_back(blocks[b].stored[k]);
      stored_tuple.push_back(blocks[b].tuple[k]);
      ++covered[static_cast<std::size_t>(blocks[b].stored[k])];
    }
  }
  LOOM_REQUIRE(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }),
               "SpinFilter: every component must lie in exactly one spatial block");
  t_.fields = fields_;
  t_.blocks = static_cast<int>(blocks.size());
  t_.stored = static_cast<int>(stored_block.size());
  t_.frame = core::Array<double>::from(frame);
  t_.projector = core::Array<double>::from(projector);
  t_.twiddle = core::Array<double>::from(twiddle);
  t_.block_rank = core::Array<int>::from(rank);
  t_.block_field = core::Array<int>::from(field);
  t_.block_component = core::Array<int>::from(first);
  t_.component = core::Array<int>::from(component);
  t_.stored_block = core::Array<int>::from(stored_block);
  t_.stored_component = core::Array<int>::from(stored_component);
  t_.stored_tuple = core::Array<int>::from(stored_tuple);
  std::vector<int> spins;
  for (const auto& b : blocks)
    for (int a = 0; a < power_of_3(b.rank); ++a) spins.push_back(spin_of(b.rank, a));
  t_.field_spin = core::Array<int>::from(spins);
  spin_ = core::Array<double>(static_cast<std::size_t>(2 * fields_ * t_.n));
  filtered_ = core::Array<double>(static_cast<std::size_t>(2 * fields_ * t_.n));
  coeff_ = core::Array<double>(static_cast<std::size_t>(2 * fields_ * t_.n_r * orders * nt));
  kept_ = core::Array<double>(static_cast<std::size_t>(2 * fields_ * t_.n_r * orders * nt));
}

// The header's formulas in five loops, each a core::parallel_for on the backend (one code for both): (2) at
// every point; (4) per spin field, radius, order and theta; (5) likewise; the phi synthesis per field and point;
// the rebuilt components at every point.
void SpinFilter::apply(core::Backend backend, double* field) const {
  const core::Where w = core::where(backend);
  const Index n = t_.n;
  const int nr = t_.n_r, nt = t_.n_theta, np = t_.n_phi, orders = 2 * t_.l_keep + 1, blocks = t_.blocks;
  const double *frame = t_.frame.read(w), *proj = t_.projector.read(w), *tw = t_.twiddle.read(w);
  const int *rank = t_.block_rank.read(w), *bfield = t_.block_field.read(w), *bfirst = t_.block_component.read(w);
  const int *comp = t_.component.read(w), *spin_weight = t_.field_spin.read(w);
  double* spin = spin_.write(w);
  double* out = filtered_.write(w);
  double* coeff = coeff_.write(w);
  double* kept = kept_.write(w);
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index p) {
    const double* f = frame + 9 * (p / nr);
    for (int b = 0; b < blocks; ++b) {
      double re[27], im[27];
      for (int t = 0; t < power_of_3(rank[b]); ++t) re[t] = field[comp[bfirst[b] + t] * n + p], im[t] = 0;
      triad_transform(f, rank[b], false, re, im);
      for (int a = 0; a < power_of_3(rank[b]); ++a) {
        const Index k = bfield[b] + a;
        spin[2 * k * n + p] = re[a];
        spin[(2 * k + 1) * n + p] = im[a];
      }
    }
  });
  const Index lines = Index{fields_} * nr * orders * nt;  // (field, radius, order, theta), theta fastest
  core::parallel_for(backend, lines, [=] LOOM_HOST_DEVICE(Index job) {
    const int it = static_cast<int>(job % nt), m = static_cast<int>(job / nt % orders);
    const Index kr = job / (Index{nt} * orders), k = kr / nr;
    const int ir = static_cast<int>(kr % nr);
    double re = 0, im = 0;
    for (int ip = 0; ip < np; ++ip) {
      const Index p = ir + Index{nr} * (it + Index{nt} * ip);
      const double vr = spin[2 * k * n + p], vi = spin[(2 * k + 1) * n + p];
      const double cr = tw[2 * (m * np + ip)], ci = tw[2 * (m * np + ip) + 1];
      re += vr * cr - vi * ci;
      im += vr * ci + vi * cr;
    }
    coeff[2 * job] = re / np;
    coeff[2 * job + 1] = im / np;
  });
  core::parallel_for(backend, lines, [=] LOOM_HOST_DEVICE(Index job) {
    const int kk = static_cast<int>(job % nt), m = static_cast<int>(job / nt % orders);
    const Index row = job - kk, k = job / (Index{nt} * orders * nr);
    const double* P = proj + (Index{spin_weight[k] + max_spin_rank} * orders + m) * nt * nt + kk * nt;
    double re = 0, im = 0;
    for (int i = 0; i < nt; ++i) {
      re += P[i] * coeff[2 * (row + i)];
      im += P[i] * coeff[2 * (row + i) + 1];
    }
    kept[2 * job] = re;
    kept[2 * job + 1] = im;
  });
  core::parallel_for(backend, Index{fields_} * n, [=] LOOM_HOST_DEVICE(Index job) {
    const Index k = job / n, p = job % n;
    const int ir = static_cast<int>(p % nr), it = static_cast<int>(p / nr % nt), ip = static_cast<int>(p / nr / nt);
    const Index row = ((k * nr + ir) * orders) * nt + it;
    double re = 0, im = 0;
    for (int m = 0; m < orders; ++m) {
      const double gr = kept[2 * (row + Index{m} * nt)], gi = kept[2 * (row + Index{m} * nt) + 1];
      const double cr = tw[2 * (m * np + ip)], ci = -tw[2 * (m * np + ip) + 1];  // e^{+i m phi}
      re += gr * cr - gi * ci;
      im += gr * ci + gi * cr;
    }
    out[2 * k * n + p] = re;
    out[(2 * k + 1) * n + p] = im;
  });
  const int *sblock = t_.stored_block.read(w), *scomp = t_.stored_component.read(w), *stuple = t_.stored_tuple.read(w);
  const int stored = t_.stored;
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index p) {
    const double* f = frame + 9 * (p / nr);
    double re[27], im[27];
    int current = -1;
    for (int e = 0; e < stored; ++e) {  // a block's stored components are consecutive
      const int b = sblock[e];
      if (b != current) {
        for (int a = 0; a < power_of_3(rank[b]); ++a) {
          const Index k = bfield[b] + a;
          re[a] = out[2 * k * n + p];
          im[a] = out[(2 * k + 1) * n + p];
        }
        triad_transform(f, rank[b], true, re, im);
        current = b;
      }
      field[scomp[e] * n + p] = re[stuple[e]];
    }
  });
}

}  // namespace loom::spectral
