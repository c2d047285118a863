#include "loom/spectral/sphere.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::spectral {

namespace {
constexpr double pi = std::numbers::pi;

// Gauss-Legendre nodes x_i (descending) and weights on [-1, 1] by Newton's method on P_n.
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
  x.resize(n);
  w.resize(n);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(pi * (i + 0.75) / (n + 0.5)), dp = 0;
    for (int iter = 0; iter < 100; ++iter) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}
}  // namespace

// Recurrences for Pbar (Y_lm orthonormal): Pbar_00 = 1/sqrt(4 pi); Pbar_mm = sqrt((2m+1)/(2m)) sin Pbar_{m-1,m-1};
// Pbar_{m+1,m} = sqrt(2m+3) cos Pbar_mm; Pbar_lm = a_lm (cos Pbar_{l-1,m} - b_lm Pbar_{l-2,m}) with
// a_lm = sqrt((4l^2-1)/(l^2-m^2)), b_lm = sqrt(((l-1)^2-m^2)/(4(l-1)^2-1)).
void legendre(double theta, int l_max, double* p, double* dp) {
  const int n = l_max + 1;
  const double c = std::cos(theta), s = std::sin(theta);
  double pmm = 1 / std::sqrt(4 * pi), dpmm = 0;
  for (int m = 0; m <= l_max; ++m) {
    if (m > 0) {
      const double f = std::sqrt((2.0 * m + 1) / (2.0 * m));
      const double next = f * s * pmm, dnext = f * (c * pmm + s * dpmm);
      pmm = next;
      dpmm = dnext;
    }
    p[m * n + m] = pmm;
    dp[m * n + m] = dpmm;
    if (m + 1 > l_max) continue;
    const double f = std::sqrt(2.0 * m + 3);
    p[m * n + m + 1] = f * c * pmm;
    dp[m * n + m + 1] = f * (-s * pmm + c * dpmm);
    for (int l = m + 2; l <= l_max; ++l) {
      const double a = std::sqrt((4.0 * l * l - 1) / (double(l) * l - double(m) * m));
      const double b = std::sqrt((double(l - 1) * (l - 1) - double(m) * m) / (4.0 * (l - 1) * (l - 1) - 1));
      p[m * n + l] = a * (c * p[m * n + l - 1] - b * p[m * n + l - 2]);
      dp[m * n + l] = a * (-s * p[m * n + l - 1] + c * dp[m * n + l - 1] - b * dp[m * n + l - 2]);
    }
  }
}

struct SphereBasis::Fft {
  int np;
  double* real;
  fftw_complex* complex;
  fftw_plan forward, backward;
  explicit Fft(int n_phi) : np(n_phi) {
    real = fftw_alloc_real(static_cast<std::size_t>(np));
    complex = fftw_alloc_complex(static_cast<std::size_t>(np / 2 + 1));
    forward = fftw_plan_dft_r2c_1d(np, real, complex, FFTW_ESTIMATE);
    backward = fftw_plan_dft_c2r_1d(np, complex, real, FFTW_ESTIMATE);
  }
  ~Fft() {
    fftw_destroy_plan(forward);
    fftw_destroy_plan(backward);
    fftw_free(real);
    fftw_free(complex);
  }
};

SphereBasis::SphereBasis(int n_theta, std::string_view key) : nt_(n_theta) {
  if (n_theta < 2)
    throw UsageError(io::invalid_value_message(key, std::int64_t{n_theta}, "at least 2 theta points on S2"));
  std::vector<double> x;
  gauss_legendre(nt_, x, gauss_weights_);
  theta_.resize(nt_);
  for (int i = 0; i < nt_; ++i) theta_[i] = std::acos(x[i]);
  p_.assign(static_cast<std::size_t>(nt_) * nt_ * nt_, 0.0);
  dp_.assign(p_.size(), 0.0);
  std::vector<double> p(nt_ * nt_), dp(nt_ * nt_);
  for (int it = 0; it < nt_; ++it) {
    legendre(theta_[it], l_max(), p.data(), dp.data());
    for (int m = 0; m < nt_; ++m)
      for (int l = m; l < nt_; ++l) {
        p_[table_index(m, l, it)] = p[m * nt_ + l];
        dp_[table_index(m, l, it)] = dp[m * nt_ + l];
      }
  }
  fft_ = std::make_unique<Fft>(n_phi());
}

SphereBasis::~SphereBasis() = default;
SphereBasis::SphereBasis(SphereBasis&&) noexcept = default;
SphereBasis& SphereBasis::operator=(SphereBasis&&) noexcept = default;

std::string SphereBasis::description() const { return "s2(" + std::to_string(nt_) + ")"; }
double SphereBasis::phi(int ip) const { return 2 * pi * ip / n_phi(); }
double SphereBasis::weight(int it, int) const { return gauss_weights_[it] * 2 * pi / n_phi(); }

// c_lm = sum_i w_i (2 pi / N_phi) norm_m Pbar_lm(theta_i) {Re F_m, -Im F_m}(theta_i), F_m the phi DFT of row i
// (cos and sin sums), norm_m = sqrt 2 for m != 0: the quadrature is exact for band-limited data (degree <= 2L+1
// in cos theta, |m + m'| < N_phi in phi).
void SphereBasis::to_spectral(const double* u, double* c) const {
  const int nt = nt_, np = n_phi(), L = l_max();
  for (int k = 0; k < spectral_size(); ++k) c[k] = 0;
  for (int it = 0; it < nt; ++it) {
    for (int ip = 0; ip < np; ++ip) fft_->real[ip] = u[it + nt * ip];
    fftw_execute(fft_->forward);
    const double w = gauss_weights_[it] * 2 * pi / np;
    for (int m = 0; m <= L; ++m) {
      const double norm = m == 0 ? 1.0 : std::sqrt(2.0);
      const double re = fft_->complex[m][0] * w * norm, im = -fft_->complex[m][1] * w * norm;
      for (int l = m; l <= L; ++l) {
        const double pl = p_[table_index(m, l, it)];
        c[index(l, m)] += pl * re;
        if (m > 0) c[index(l, -m)] += pl * im;
      }
    }
  }
}

// u(theta_i, phi_j) = sum_m g_m(theta_i) norm_m {cos, sin}(m phi_j) with g_m = sum_l c_lm table_lm(theta_i); the
// phi sum by FFTW's c2r with G_m = norm_m (g_m - i g_-m) / 2 for m > 0.
void SphereBasis::synthesize(const double* c, const std::vector<double>& table, double* u) const {
  const int nt = nt_, np = n_phi(), L = l_max();
  for (int it = 0; it < nt; ++it) {
    for (int m = 0; m <= np / 2; ++m) fft_->complex[m][0] = fft_->complex[m][1] = 0;
    for (int m = 0; m <= L; ++m) {
      double gc = 0, gs = 0;
      for (int l = m; l <= L; ++l) {
        const double pl = table[table_index(m, l, it)];
        gc += c[index(l, m)] * pl;
        if (m > 0) gs += c[index(l, -m)] * pl;
      }
      const double half_norm = m == 0 ? 1.0 : std::sqrt(2.0) / 2;
      fft_->complex[m][0] = half_norm * gc;
      fft_->complex[m][1] = -half_norm * gs;
    }
    fftw_execute(fft_->backward);
    for (int ip = 0; ip < np; ++ip) u[it + nt * ip] = fft_->real[ip];
  }
}

void SphereBasis::to_physical(const double* c, double* u) const { synthesize(c, p_, u); }

void SphereBasis::d_theta(const double* u, double* du) const {
  std::vector<double> c(spectral_size());
  to_spectral(u, c.data());
  synthesize(c.data(), dp_, du);
}

// d/dphi (c_lm cos m phi + c_l-m sin m phi) = m (c_l-m cos m phi - c_lm sin m phi).
void SphereBasis::d_phi(const double* u, double* du) const {
  std::vector<double> c(spectral_size()), d(spectral_size(), 0.0);
  to_spectral(u, c.data());
  for (int l = 1; l <= l_max(); ++l)
    for (int m = 1; m <= l; ++m) {
      d[index(l, m)] = m * c[index(l, -m)];
      d[index(l, -m)] = -m * c[index(l, m)];
    }
  synthesize(d.data(), p_, du);
}

void SphereBasis::heaviside_filter(const double* u, double* out, int l_keep) const {
  std::vector<double> c(spectral_size());
  to_spectral(u, c.data());
  for (int l = std::max(l_keep + 1, 0); l <= l_max(); ++l)
    for (int m = -l; m <= l; ++m) c[index(l, m)] = 0;
  to_physical(c.data(), out);
}

void SphereBasis::theta_operator(int m, bool derivative, int l_top, const double* in, double* out) const {
  const int nt = nt_;
  const auto& table = derivative ? dp_ : p_;
  for (int k = 0; k < nt; ++k) out[k] = 0;
  for (int l = m; l <= std::min(l_top, l_max()); ++l) {
    double projection = 0;
    for (int i = 0; i < nt; ++i) projection += p_[table_index(m, l, i)] * gauss_weights_[i] * in[i];
    for (int k = 0; k < nt; ++k) out[k] += 2 * pi * table[table_index(m, l, k)] * projection;
  }
}

double SphereBasis::evaluate(const double* c, double theta, double phi) const {
  const int n = nt_;
  std::vector<double> p(n * n), dp(n * n);
  legendre(theta, l_max(), p.data(), dp.data());
  double sum = 0;
  for (int m = 0; m <= l_max(); ++m) {
    const double norm = m == 0 ? 1.0 : std::sqrt(2.0);
    const double cm = std::cos(m * phi) * norm, sm = std::sin(m * phi) * norm;
    for (int l = m; l <= l_max(); ++l) {
      sum += c[index(l, m)] * p[m * n + l] * cm;
      if (m > 0) sum += c[index(l, -m)] * p[m * n + l] * sm;
    }
  }
  return sum;
}

}  // namespace loom::spectral
