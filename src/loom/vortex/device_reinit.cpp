// The reinitialisation on either backend (device_reinit.hpp); a loom_backend_sources file.
#include "loom/vortex/device_reinit.hpp"

#include <atomic>
#include <cmath>

#include "loom/core/array.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::vortex {
namespace {

// lattice.cpp's 1D factor of zeta_sigma at distance d: (2 pi sigma^2)^{-1/2} e^{-d^2 / (2 sigma^2)}.
LOOM_HOST_DEVICE inline double gaussian_factor(double d, double sigma) {
  constexpr double inv_sqrt_2pi = 0.39894228040143267794;
  return inv_sqrt_2pi / sigma * exp(-0.5 * d * d / (sigma * sigma));
}

LOOM_HOST_DEVICE inline Index wrap_index(Index i, Index n) { return ((i % n) + n) % n; }

LOOM_HOST_DEVICE inline void atomic_add(double* to, double v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(to, v);
#else
  std::atomic_ref<double>(*to).fetch_add(v, std::memory_order_relaxed);
#endif
}

// The nodes within cutoff sigma of x along one direction (the first, wrapped later, and how many) and weights.
struct AxisSpan {
  Index first = 0, count = 0;
  double weight[max_axis_nodes];
};

LOOM_HOST_DEVICE inline void axis_span(double origin, double h, double x, double sigma, double cutoff, AxisSpan& a) {
  const double u = (x - origin) / h, reach = cutoff * sigma / h;
  a.first = Index(ceil(u - reach));
  a.count = Index(floor(u + reach)) - a.first + 1;
  if (a.count > max_axis_nodes) a.count = max_axis_nodes;  // refused before the loop (lattice_vorticity)
  for (Index i = 0; i < a.count; ++i) a.weight[i] = gaussian_factor((u - double(a.first + i)) * h, sigma);
}

double dot(core::Backend b, Index n, const Vec3d* u, const Vec3d* v) {
  return core::parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return fmm::dot(u[i], v[i]); });
}

struct Weights1d {
  double g[max_axis_nodes];
  Index reach = 0;
};

}  // namespace

void lattice_vorticity(core::Backend b, const Lattice& l, Index np, const Vec3d* x, const Vec3d* alpha,
                       const double* sigma, double cutoff, Vec3d* omega) {
  LOOM_REQUIRE(l.periodic, "vortex::lattice_vorticity: the periodic box's lattice");
  const double sigma_max = core::parallel_max(b, np, [=] LOOM_HOST_DEVICE(Index i) { return sigma[i]; });
  if (2 * cutoff * sigma_max / l.h + 2 > double(max_axis_nodes))
    throw Error("vortex::lattice_vorticity: cores of " + std::to_string(sigma_max / l.h) +
                " spacings reach past the kernel's span; reinitialise more often");
  const Lattice L = l;
  core::parallel_for(b, L.size(), [=] LOOM_HOST_DEVICE(Index m) { omega[m] = Vec3d{}; });
  core::parallel_for(b, np, [=] LOOM_HOST_DEVICE(Index q) {
    AxisSpan ax, ay, az;
    axis_span(L.origin.x, L.h, x[q].x, sigma[q], cutoff, ax);
    axis_span(L.origin.y, L.h, x[q].y, sigma[q], cutoff, ay);
    axis_span(L.origin.z, L.h, x[q].z, sigma[q], cutoff, az);
    const Vec3d a = alpha[q];
    for (Index c = 0; c < az.count; ++c)
      for (Index r = 0; r < ay.count; ++r) {
        const double wyz = az.weight[c] * ay.weight[r];
        const Index row = L.n[0] * (wrap_index(ay.first + r, L.n[1]) + L.n[1] * wrap_index(az.first + c, L.n[2]));
        for (Index s = 0; s < ax.count; ++s) {
          const double w = wyz * ax.weight[s];
          Vec3d& o = omega[row + wrap_index(ax.first + s, L.n[0])];
          atomic_add(&o.x, w * a.x);
          atomic_add(&o.y, w * a.y);
          atomic_add(&o.z, w * a.z);
        }
      }
  });
}

void lattice_gaussian_sum(core::Backend b, const Lattice& l, double sigma, double cutoff, const Vec3d* in,
                          Vec3d* out, Vec3d* work) {
  LOOM_REQUIRE(l.periodic, "vortex::lattice_gaussian_sum: the periodic box's lattice");
  Weights1d w;
  w.reach = Index(std::floor(cutoff * sigma / l.h));
  LOOM_REQUIRE(w.reach < max_axis_nodes, "vortex::lattice_gaussian_sum: a core within the kernel's span");
  for (Index s = 0; s <= w.reach; ++s) w.g[s] = gaussian_factor(double(s) * l.h, sigma);
  const Index N = l.size();
  const Index strides[3] = {1, l.n[0], l.n[0] * l.n[1]};
  // in -> out -> work -> out: the passes alternate between the two buffers, the last lands in out
  const Vec3d* from[3] = {in, out, work};
  Vec3d* to[3] = {out, work, out};
  for (int d = 0; d < 3; ++d) {
    const Index stride = strides[d], nd = l.n[static_cast<std::size_t>(d)];
    const Vec3d* a = from[d];
    Vec3d* o = to[d];
    core::parallel_for(b, N, [=] LOOM_HOST_DEVICE(Index m) {
      const Index i = (m / stride) % nd, base = m - i * stride;
      Vec3d sum = w.g[0] * a[m];
      for (Index s = 1; s <= w.reach; ++s) {
        sum += w.g[s] * a[base + wrap_index(i - s, nd) * stride];
        sum += w.g[s] * a[base + wrap_index(i + s, nd) * stride];
      }
      o[m] = sum;
    });
  }
}

CgResult solve_rbf_on_backend(core::Backend b, const Lattice& l, double sigma, double cutoff, const Vec3d* omega,
                              Vec3d* alpha, double tolerance, int max_iterations) {
  const core::Where w = core::where(b);
  const Index N = l.size();
  const auto n = static_cast<std::size_t>(N);
  core::Array<Vec3d> r_(n), d_(n), q_(n), work_(n);
  Vec3d *r = r_.write(w), *d = d_.write(w), *q = q_.write(w), *work = work_.write(w);
  lattice_gaussian_sum(b, l, sigma, cutoff, alpha, q, work);
  core::parallel_for(b, N, [=] LOOM_HOST_DEVICE(Index i) { r[i] = omega[i] - q[i], d[i] = r[i]; });
  const double norm_b = std::sqrt(dot(b, N, omega, omega));
  double rr = dot(b, N, r, r);
  CgResult result;
  result.residual = norm_b > 0 ? std::sqrt(rr) / norm_b : 0;
  while (result.residual > tolerance && result.iterations < max_iterations) {
    lattice_gaussian_sum(b, l, sigma, cutoff, d, q, work);
    const double step = rr / dot(b, N, d, q);
    core::parallel_for(b, N, [=] LOOM_HOST_DEVICE(Index i) { alpha[i] += step * d[i], r[i] += -step * q[i]; });
    const double rr_next = dot(b, N, r, r);
    const double beta = rr_next / rr;
    rr = rr_next;
    core::parallel_for(b, N, [=] LOOM_HOST_DEVICE(Index i) { d[i] = r[i] + beta * d[i]; });
    ++result.iterations;
    result.residual = std::sqrt(rr) / norm_b;
  }
  result.converged = result.residual <= tolerance;
  return result;
}

}  // namespace loom::vortex
