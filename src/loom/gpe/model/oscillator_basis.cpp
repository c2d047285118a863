#include "loom/gpe/model/oscillator_basis.hpp"

#include <cmath>

#include "loom/core/error.hpp"

extern "C" void dstev_(const char* jobz, const int* n, double* d, double* e, double* z, const int* ldz, double* work,
                       int* info);

namespace loom::gpe {
namespace {

constexpr double rescale_above = 1e150;

// Runs a normalised three-term recurrence u_{k+1} = a_k u_k - b_k u_{k-1} from u_0 = exp(log_u0), u_1 = c1 u_0,
// writing values relative to exp(log_scale) into out; returns log_scale (true u_k = out[k] * exp(log_scale)).
template <class Step>
double scaled_recurrence(double log_u0, double c1, std::span<double> out, Step step) {
  double log_scale = log_u0;
  out[0] = 1.0;
  if (out.size() > 1) out[1] = c1;
  for (std::size_t k = 1; k + 1 < out.size(); ++k) {
    out[k + 1] = step(k, out[k], out[k - 1]);
    if (std::abs(out[k + 1]) > rescale_above) {
      for (std::size_t l = 0; l <= k + 1; ++l) out[l] /= rescale_above;
      log_scale += std::log(rescale_above);
    }
  }
  return log_scale;
}

double hermite_scaled(double s, std::span<double> out) {
  return scaled_recurrence(-0.25 * std::log(M_PI) - 0.5 * s * s, std::sqrt(2.0) * s, out,
                           [s](std::size_t k, double uk, double ukm1) {
                             const double kk = static_cast<double>(k);
                             return std::sqrt(2.0 / (kk + 1)) * s * uk - std::sqrt(kk / (kk + 1)) * ukm1;
                           });
}

double laguerre_scaled(double x, int m, std::span<double> out) {
  const double mm = m;
  const double log_u0 = x > 0 ? 0.5 * mm * std::log(x) - 0.5 * x - 0.5 * std::lgamma(mm + 1)
                              : (m == 0 ? 0.0 : -INFINITY);
  // (n+1) L_{n+1} = (2n+1+m-x) L_n - (n+m) L_{n-1}, rewritten for the normalised functions
  return scaled_recurrence(log_u0, (1 + mm - x) / std::sqrt(1 + mm), out, [x, mm](std::size_t n, double un, double unm1) {
    const double nn = static_cast<double>(n);
    return ((2 * nn + 1 + mm - x) * un - std::sqrt(nn * (nn + mm)) * unm1) / std::sqrt((nn + 1) * (nn + 1 + mm));
  });
}

void unscale(std::span<double> out, double log_scale) {
  const double factor = std::exp(log_scale);  // 0 where the functions are negligible
  for (auto& v : out) v *= factor;
}

// Nodes of the Gauss rule: eigenvalues of the Jacobi matrix (Golub-Welsch, values only).
std::vector<double> jacobi_eigenvalues(std::vector<double> diagonal, std::vector<double> off_diagonal) {
  const int n = static_cast<int>(diagonal.size());
  off_diagonal.resize(static_cast<std::size_t>(std::max(1, n - 1)));
  int info = 0, one = 1;
  double unused = 0;
  dstev_("N", &n, diagonal.data(), off_diagonal.data(), &unused, &one, &unused, &info);
  LOOM_REQUIRE(info == 0, "Gauss rule: dstev failed with info = " + std::to_string(info));
  return diagonal;
}

template <class Scaled>
FunctionRule build_rule(std::vector<double> nodes, int modes, Scaled scaled_values) {
  FunctionRule rule;
  rule.points = static_cast<int>(nodes.size());
  rule.modes = modes;
  rule.nodes = std::move(nodes);
  rule.inv_weights.resize(rule.nodes.size());
  rule.scaled.resize(rule.nodes.size() * static_cast<std::size_t>(modes));
  std::vector<double> u(rule.nodes.size());
  for (std::size_t j = 0; j < rule.nodes.size(); ++j) {
    const double log_scale = scaled_values(rule.nodes[j], std::span<double>(u));
    double sum = 0;
    for (double v : u) sum += v * v;
    rule.inv_weights[j] = std::exp(std::log(sum) + 2 * log_scale);
    const double norm = std::sqrt(sum);
    for (int k = 0; k < modes; ++k) rule.scaled[j * static_cast<std::size_t>(modes) + k] = u[k] / norm;
  }
  return rule;
}

}  // namespace

void hermite_functions(double s, std::span<double> out) {
  if (out.empty()) return;
  unscale(out, hermite_scaled(s, out));
}

void laguerre_functions(double x, int m, std::span<double> out) {
  if (out.empty()) return;
  unscale(out, laguerre_scaled(x, m, out));
}

FunctionRule hermite_rule(int points, int modes) {
  LOOM_REQUIRE(points >= 1 && modes >= 1 && modes <= points, "hermite_rule: need 1 <= modes <= points");
  std::vector<double> d(static_cast<std::size_t>(points), 0.0), e(static_cast<std::size_t>(points - 1));
  for (int k = 1; k < points; ++k) e[static_cast<std::size_t>(k - 1)] = std::sqrt(0.5 * k);
  return build_rule(jacobi_eigenvalues(d, e), modes, [](double s, std::span<double> u) { return hermite_scaled(s, u); });
}

FunctionRule laguerre_rule(int m, int points, int modes) {
  LOOM_REQUIRE(points >= 1 && modes >= 1 && modes <= points && m >= 0, "laguerre_rule: need 1 <= modes <= points");
  std::vector<double> d(static_cast<std::size_t>(points)), e(static_cast<std::size_t>(points - 1));
  for (int n = 0; n < points; ++n) d[static_cast<std::size_t>(n)] = 2.0 * n + m + 1;
  for (int n = 1; n < points; ++n) e[static_cast<std::size_t>(n - 1)] = std::sqrt(double(n) * (n + m));
  return build_rule(jacobi_eigenvalues(d, e), modes,
                    [m](double x, std::span<double> u) { return laguerre_scaled(x, m, u); });
}

}  // namespace loom::gpe
