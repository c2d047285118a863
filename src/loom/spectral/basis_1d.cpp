#include "loom/spectral/basis_1d.hpp"

#include <fftw3.h>

#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::spectral {

namespace {
constexpr double pi = std::numbers::pi;
}

// FFTW plans on owned buffers: a DCT-I (FFTW_REDFT00) for Chebyshev, r2c/c2r for Fourier.
struct Basis1D::Fft {
  int n;
  double* real = nullptr;
  fftw_complex* complex = nullptr;
  fftw_plan forward = nullptr, backward = nullptr;

  Fft(BasisKind kind, int size) : n(size) {
    real = fftw_alloc_real(static_cast<std::size_t>(n));
    if (kind == BasisKind::chebyshev) {
      forward = fftw_plan_r2r_1d(n, real, real, FFTW_REDFT00, FFTW_ESTIMATE);
    } else {
      complex = fftw_alloc_complex(static_cast<std::size_t>(n / 2 + 1));
      forward = fftw_plan_dft_r2c_1d(n, real, complex, FFTW_ESTIMATE);
      backward = fftw_plan_dft_c2r_1d(n, complex, real, FFTW_ESTIMATE);
    }
  }
  ~Fft() {
    if (forward) fftw_destroy_plan(forward);
    if (backward) fftw_destroy_plan(backward);
    fftw_free(real);
    if (complex) fftw_free(complex);
  }
};

std::string_view to_string(BasisKind kind) { return kind == BasisKind::chebyshev ? "chebyshev" : "fourier"; }

BasisKind parse_basis_kind(std::string_view text, std::string_view key) {
  if (text == "chebyshev") return BasisKind::chebyshev;
  if (text == "fourier") return BasisKind::fourier;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of chebyshev, fourier"));
}

int minimum_points(BasisKind) { return 2; }

Basis1D::Basis1D(BasisKind kind, int n, double lower, double upper, std::string_view key)
    : kind_(kind), n_(n), lower_(lower), upper_(upper) {
  if (n < minimum_points(kind))
    throw UsageError(io::invalid_value_message(key, std::int64_t{n},
                                               "at least " + std::to_string(minimum_points(kind)) + " points for a " +
                                                   std::string(to_string(kind)) + " basis"));
  if (!(upper > lower)) throw UsageError(std::string(key) + ": the interval's upper end must exceed its lower end");
  fft_ = std::make_unique<Fft>(kind, n);
  const double half = 0.5 * (upper - lower), mid = 0.5 * (upper + lower);
  points_.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j)
    points_[j] = kind == BasisKind::chebyshev ? mid - half * std::cos(pi * j / (n - 1)) : lower + 2 * half * j / n;
  // Quadrature weights: the integral of the interpolant, traced through PhysToSpec by Kronecker deltas;
  // integral over [-1, 1] of T_k is 2 / (1 - k^2) for even k, 0 for odd k (Clenshaw-Curtis).
  weights_.assign(static_cast<std::size_t>(n), 2 * half / n);
  if (kind == BasisKind::chebyshev) {
    std::vector<double> delta(n, 0.0), c(n);
    for (int j = 0; j < n; ++j) {
      delta[j] = 1;
      to_spectral(delta.data(), c.data());
      delta[j] = 0;
      double w = 0;
      for (int k = 0; k < n; k += 2) w += c[k] * 2.0 / (1.0 - double(k) * k);
      weights_[j] = half * w;
    }
  }
}

Basis1D::~Basis1D() = default;
Basis1D::Basis1D(Basis1D&&) noexcept = default;
Basis1D& Basis1D::operator=(Basis1D&&) noexcept = default;

std::string Basis1D::description() const {
  return std::string(to_string(kind_)) + "(" + std::to_string(n_) + ";" + io::to_text(lower_) + "," +
         io::to_text(upper_) + ")";
}

int Basis1D::mode(int k) const { return kind_ == BasisKind::chebyshev ? k : (k + 1) / 2; }

// Chebyshev: the DCT-I of the values at cos(pi j / (n-1)) (descending, hence reversed) gives
// Y_k = (n-1) c_k, with c_0 and c_{n-1} doubled. Fourier: F_k = sum_j u_j e^{-2 pi i jk/n}.
void Basis1D::to_spectral(const double* u, double* c) const {
  const int n = n_;
  double* r = fft_->real;
  if (kind_ == BasisKind::chebyshev) {
    for (int j = 0; j < n; ++j) r[j] = u[n - 1 - j];
    fftw_execute(fft_->forward);
    for (int k = 0; k < n; ++k) c[k] = r[k] / (n - 1) * ((k == 0 || k == n - 1) ? 0.5 : 1.0);
    return;
  }
  for (int j = 0; j < n; ++j) r[j] = u[j];
  fftw_execute(fft_->forward);
  const fftw_complex* f = fft_->complex;
  c[0] = f[0][0] / n;
  for (int k = 1; 2 * k < n; ++k) {
    c[2 * k - 1] = 2 * f[k][0] / n;
    c[2 * k] = -2 * f[k][1] / n;
  }
  if (n % 2 == 0) c[n - 1] = f[n / 2][0] / n;
}

void Basis1D::to_physical(const double* c, double* u) const {
  const int n = n_;
  double* r = fft_->real;
  if (kind_ == BasisKind::chebyshev) {
    for (int k = 0; k < n; ++k) r[k] = c[k] * ((k == 0 || k == n - 1) ? 1.0 : 0.5);
    fftw_execute(fft_->forward);  // the DCT-I is its own inverse up to this scaling
    for (int j = 0; j < n; ++j) u[n - 1 - j] = r[j];
    return;
  }
  fftw_complex* f = fft_->complex;
  f[0][0] = c[0];
  f[0][1] = 0;
  for (int k = 1; 2 * k < n; ++k) {
    f[k][0] = 0.5 * c[2 * k - 1];
    f[k][1] = -0.5 * c[2 * k];
  }
  if (n % 2 == 0) {
    f[n / 2][0] = c[n - 1];
    f[n / 2][1] = 0;
  }
  fftw_execute(fft_->backward);
  for (int j = 0; j < n; ++j) u[j] = r[j];
}

// Chebyshev: b_{k-1} = b_{k+1} + 2 k c_k downwards, b_0 halved (the derivative's coefficients on [-1, 1]).
// Fourier: a_k cos + b_k sin -> k (b_k cos - a_k sin); the Nyquist cosine's derivative vanishes at the points.
void Basis1D::derivative_coefficients(const double* c, double* d) const {
  const int n = n_;
  for (int k = 0; k < n; ++k) d[k] = 0;
  if (kind_ == BasisKind::chebyshev) {
    for (int k = n - 1; k >= 1; --k) d[k - 1] = (k + 1 < n ? d[k + 1] : 0.0) + 2.0 * k * c[k];
    d[0] *= 0.5;
    const double scale = 2 / (upper_ - lower_);
    for (int k = 0; k < n; ++k) d[k] *= scale;
    return;
  }
  const double scale = 2 * pi / (upper_ - lower_);
  for (int k = 1; 2 * k < n; ++k) {
    d[2 * k - 1] = scale * k * c[2 * k];
    d[2 * k] = -scale * k * c[2 * k - 1];
  }
}

void Basis1D::derivative(const double* u, double* du) const {
  std::vector<double> c(n_), d(n_);
  to_spectral(u, c.data());
  derivative_coefficients(c.data(), d.data());
  to_physical(d.data(), du);
}

void Basis1D::exp_filter(const double* u, double* out, double alpha, int half_order) const {
  std::vector<double> c(n_);
  to_spectral(u, c.data());
  const double k_max = kind_ == BasisKind::chebyshev ? n_ - 1 : n_ / 2;
  for (int k = 0; k < n_; ++k) c[k] *= std::exp(-alpha * std::pow(mode(k) / k_max, 2 * half_order));
  to_physical(c.data(), out);
}

double Basis1D::evaluate(const double* c, double x) const {
  if (kind_ == BasisKind::chebyshev) {  // Clenshaw's recurrence
    const double s = (2 * x - lower_ - upper_) / (upper_ - lower_);
    double b1 = 0, b2 = 0;
    for (int k = n_ - 1; k >= 1; --k) {
      const double b0 = c[k] + 2 * s * b1 - b2;
      b2 = b1;
      b1 = b0;
    }
    return c[0] + s * b1 - b2;
  }
  const double t = 2 * pi * (x - lower_) / (upper_ - lower_);
  double sum = c[0];
  for (int k = 1; 2 * k < n_; ++k) sum += c[2 * k - 1] * std::cos(k * t) + c[2 * k] * std::sin(k * t);
  if (n_ % 2 == 0) sum += c[n_ - 1] * std::cos(n_ / 2 * t);
  return sum;
}

}  // namespace loom::spectral
