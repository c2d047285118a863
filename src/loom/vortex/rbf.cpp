#include "loom/vortex/rbf.hpp"

#include <cmath>

namespace loom::vortex {
namespace {

double dot(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (std::size_t i = 0; i < a.size(); ++i) s += fmm::dot(a[i], b[i]);
  return s;
}

// y = a x + y over all nodes.
void axpy(double a, const std::vector<Vec3d>& x, std::vector<Vec3d>& y) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < x.size(); ++i) y[i] += a * x[i];
}

}  // namespace

CgResult solve_rbf(const Lattice& lattice, double sigma, const std::vector<char>& keep,
                   const std::vector<Vec3d>& omega, std::vector<Vec3d>& alpha, double tolerance, int max_iterations,
                   double cutoff) {
  auto restrict_to_s = [&](std::vector<Vec3d>& v) {
    if (!keep.empty())
      for (std::size_t i = 0; i < v.size(); ++i)
        if (!keep[i]) v[i] = Vec3d{};
  };
  auto apply = [&](const std::vector<Vec3d>& x, std::vector<Vec3d>& y) {  // y = A x on S
    gaussian_lattice_sum(lattice, sigma, cutoff, x, y);
    restrict_to_s(y);
  };
  std::vector<Vec3d> b = omega, r, q;
  restrict_to_s(b);
  restrict_to_s(alpha);
  apply(alpha, q);
  r = b;
  axpy(-1, q, r);
  std::vector<Vec3d> d = r;
  const double norm_b = std::sqrt(dot(b, b));
  double rr = dot(r, r);
  CgResult result;
  result.residual = norm_b > 0 ? std::sqrt(rr) / norm_b : 0;
  while (result.residual > tolerance && result.iterations < max_iterations) {
    apply(d, q);
    const double step = rr / dot(d, q);
    axpy(step, d, alpha);
    axpy(-step, q, r);
    const double rr_next = dot(r, r);
    const double beta = rr_next / rr;
    rr = rr_next;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = r[i] + beta * d[i];
    ++result.iterations;
    result.residual = std::sqrt(rr) / norm_b;
  }
  result.converged = result.residual <= tolerance;
  return result;
}

}  // namespace loom::vortex
