// Calls loom's FMM from another project: the Laplace potential of random charges, checked against a direct sum
// written here. Exit 0 when the relative L2 error on a sample of targets is below 1e-6 (p = 10, theta = 0.4).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "loom/fmm/fmm.hpp"

int main() {
  const int n = 20000;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<loom::fmm::Vec3d> x(n);
  std::vector<double> q(n);
  for (int i = 0; i < n; ++i) {
    x[i] = {u(rng), u(rng), u(rng)};
    q[i] = u(rng);
  }
  loom::fmm::Options options;  // p = 10, theta = 0.4, the CPU backend
  const auto result = loom::fmm::laplace(x, q, options);

  // phi_i = sum_{j != i} q_j / |x_i - x_j| on every 100th body.
  double error = 0, norm = 0;
  for (int i = 0; i < n; i += 100) {
    double phi = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
      phi += q[j] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    error += (result.potential[i] - phi) * (result.potential[i] - phi);
    norm += phi * phi;
  }
  const double relative = std::sqrt(error / norm);
  std::printf("loom::fmm::laplace on %d bodies: %.3f s, relative L2 error %.2e against the direct sum\n", n,
              result.time.total(), relative);
  return relative < 1e-6 ? 0 : 1;
}
