// One-dimensional spectral bases (spectral-BH paper, eqs. 14-18): Chebyshev polynomials on Gauss-Lobatto points
// (a closed interval, the shell's radius) and Fourier modes on uniform points (a periodic interval). Both map the
// physical interval [lower, upper] affinely onto the reference one. The transforms are FFTW's (a DCT-I for
// Chebyshev, a real FFT for Fourier): this is the CPU reference every matrix path is tested against. Not
// thread-safe: each basis owns its FFTW buffers (the reference runs serially; the traced matrices run in parallel).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace loom::spectral {

enum class BasisKind { chebyshev, fourier };

std::string_view to_string(BasisKind kind);
// Parses "chebyshev" or "fourier"; UsageError naming `key` otherwise.
BasisKind parse_basis_kind(std::string_view text, std::string_view key);
// Fewest points a basis accepts (Chebyshev: 2, the DCT-I's minimum; Fourier: 2).
int minimum_points(BasisKind kind);

class Basis1D {
 public:
  // n points on [lower, upper]; UsageError naming `key` when n is below minimum_points(kind).
  Basis1D(BasisKind kind, int n, double lower, double upper, std::string_view key = "extents");
  ~Basis1D();
  Basis1D(Basis1D&&) noexcept;
  Basis1D& operator=(Basis1D&&) noexcept;

  BasisKind kind() const { return kind_; }
  int size() const { return n_; }
  double lower() const { return lower_; }
  double upper() const { return upper_; }
  // "chebyshev(16;-1,1)": what makes the basis mathematically distinct (for operator cache keys).
  std::string description() const;
  const std::vector<double>& points() const { return points_; }   // ascending
  const std::vector<double>& weights() const { return weights_; } // quadrature on [lower, upper]

  // PhysToSpec and SpecToPhys (eqs. 16-17). Chebyshev: u(x) = sum_k c_k T_k(s(x)). Fourier: coefficients
  // (a_0, a_1, b_1, a_2, b_2, ..., [a_{n/2} for even n]) with u = a_0 + sum_k a_k cos(k t) + b_k sin(k t).
  void to_spectral(const double* u, double* c) const;
  void to_physical(const double* c, double* u) const;
  // du/dx at the points, through the coefficients (eq. 18).
  void derivative(const double* u, double* du) const;
  // The coefficients of du/dx from those of u (eq. 18's matrix applied in coefficient space).
  void derivative_coefficients(const double* c, double* d) const;
  // The exponential filter: coefficient k times exp(-alpha (k / k_max)^(2 half_order)), k_max the highest mode
  // (n - 1 for Chebyshev, n / 2 for Fourier), so the highest mode is damped by exp(-alpha).
  void exp_filter(const double* u, double* out, double alpha, int half_order) const;
  // The expansion with coefficients c at any x in [lower, upper].
  double evaluate(const double* c, double x) const;
  // Mode number of coefficient slot k (Chebyshev: k; Fourier: the wave number of a_k or b_k).
  int mode(int k) const;

 private:
  struct Fft;
  BasisKind kind_;
  int n_;
  double lower_, upper_;
  std::vector<double> points_, weights_;
  std::unique_ptr<Fft> fft_;
};

}  // namespace loom::spectral
