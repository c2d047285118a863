#include "loom/vortex/lattice.hpp"

#include <algorithm>
#include <cmath>

#include <omp.h>

#include "loom/core/error.hpp"

namespace loom::vortex {
namespace {

// The 1D factor of zeta_sigma at distance d: (2 pi sigma^2)^{-1/2} e^{-d^2 / (2 sigma^2)}.
double gaussian_1d(double d, double sigma) {
  constexpr double inv_sqrt_2pi = 0.39894228040143267794;
  return inv_sqrt_2pi / sigma * std::exp(-0.5 * d * d / (sigma * sigma));
}

Index wrapped(Index i, Index n) { return ((i % n) + n) % n; }

// One direction's nodes within cutoff sigma of x (wrapped into [0, n) when periodic, dropped outside otherwise)
// and their 1D weights.
struct Axis {
  std::vector<Index> index;
  std::vector<double> weight;
};

void axis_weights(const Lattice& l, int d, double x, double sigma, double cutoff, Axis& a) {
  a.index.clear();
  a.weight.clear();
  const double u = (x - l.origin[d]) / l.h, reach = cutoff * sigma / l.h;
  for (Index i = Index(std::ceil(u - reach)); i <= Index(std::floor(u + reach)); ++i) {
    const Index j = l.periodic ? wrapped(i, l.n[d]) : i;
    if (j < 0 || j >= l.n[d]) continue;
    a.index.push_back(j);
    a.weight.push_back(gaussian_1d((u - double(i)) * l.h, sigma));
  }
}

}  // namespace

Lattice periodic_lattice(const Domain& domain, Index n) {
  LOOM_REQUIRE(domain.periodic && n > 0, "vortex::periodic_lattice: a periodic domain and n > 0");
  Lattice l;
  l.origin = {domain.lower, domain.lower, domain.lower};
  l.h = domain.period / double(n);
  l.n = {n, n, n};
  l.periodic = true;
  return l;
}

Lattice covering_lattice(const Particles& p, double h, double margin) {
  LOOM_REQUIRE(p.size() > 0, "vortex::covering_lattice: no particles");
  Lattice l;
  l.h = h;
  for (int d = 0; d < 3; ++d) {
    double lo = p.x[0][d], hi = lo;
    for (const Vec3d& x : p.x) lo = std::min(lo, x[d]), hi = std::max(hi, x[d]);
    const Index first = Index(std::floor((lo - margin) / h)), last = Index(std::ceil((hi + margin) / h));
    l.origin[d] = double(first) * h;
    l.n[static_cast<std::size_t>(d)] = last - first + 1;
  }
  return l;
}

std::vector<Vec3d> vorticity_on_lattice(const Lattice& l, const Particles& p, double cutoff) {
  std::vector<Vec3d> omega(static_cast<std::size_t>(l.size()));
  // Each thread owns a block of z-planes and adds every particle's share there: no node has two writers, and each
  // node's sum runs in the particles' order (the serial sum's bits, for any thread count).
#pragma omp parallel
  {
    const auto team = Index(omp_get_num_threads()), me = Index(omp_get_thread_num());
    const Index z_lo = l.n[2] * me / team, z_hi = l.n[2] * (me + 1) / team;
    const auto mine = [&](Index k) { return k >= z_lo && k < z_hi; };
    Axis ax, ay, az;
    for (std::size_t q = 0; q < p.x.size(); ++q) {
      axis_weights(l, 2, p.x[q].z, p.sigma[q], cutoff, az);
      if (std::none_of(az.index.begin(), az.index.end(), mine)) continue;
      axis_weights(l, 0, p.x[q].x, p.sigma[q], cutoff, ax);
      axis_weights(l, 1, p.x[q].y, p.sigma[q], cutoff, ay);
      for (std::size_t c = 0; c < az.index.size(); ++c) {
        if (!mine(az.index[c])) continue;
        for (std::size_t b = 0; b < ay.index.size(); ++b) {
          const double wyz = az.weight[c] * ay.weight[b];
          const Index row = l.n[0] * (ay.index[b] + l.n[1] * az.index[c]);
          for (std::size_t a = 0; a < ax.index.size(); ++a)
            omega[static_cast<std::size_t>(row + ax.index[a])] += (wyz * ax.weight[a]) * p.alpha[q];
        }
      }
    }
  }
  return omega;
}

void gaussian_lattice_sum(const Lattice& l, double sigma, double cutoff, const std::vector<Vec3d>& in,
                          std::vector<Vec3d>& out) {
  const Index reach = Index(std::floor(cutoff * sigma / l.h));
  std::vector<double> g(static_cast<std::size_t>(reach + 1));
  for (Index s = 0; s <= reach; ++s) g[static_cast<std::size_t>(s)] = gaussian_1d(double(s) * l.h, sigma);
  std::vector<Vec3d> a = in, b(in.size());
  const Index stride[3] = {1, l.n[0], l.n[0] * l.n[1]};
  for (int d = 0; d < 3; ++d) {
    const Index nd = l.n[static_cast<std::size_t>(d)], N = l.size();
#pragma omp parallel for schedule(static)
    for (Index m = 0; m < N; ++m) {
      const Index i = (m / stride[d]) % nd, base = m - i * stride[d];
      Vec3d sum = g[0] * a[static_cast<std::size_t>(m)];
      for (Index s = 1; s <= reach; ++s)
        for (const Index j : {i - s, i + s}) {
          const Index k = l.periodic ? wrapped(j, nd) : j;
          if (k >= 0 && k < nd) sum += g[static_cast<std::size_t>(s)] * a[static_cast<std::size_t>(base + k * stride[d])];
        }
      b[static_cast<std::size_t>(m)] = sum;
    }
    std::swap(a, b);
  }
  out = std::move(a);
}

}  // namespace loom::vortex
