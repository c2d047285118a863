// The sphere S2 (spectral-BH paper, I1 x S2 section): Gauss-Legendre points in theta times uniform points in
// phi, N_phi = 2 N_theta, expanded in real spherical harmonics normalised on the unit sphere up to
// L = N_theta - 1 ((L+1)^2 coefficients from 2 N_theta^2 values: the compressed, slightly redundant
// representation, so SpecToPhys after PhysToSpec is a projection and the reverse order is the identity).
// The reference transform is separable: a real FFT in phi per theta row (FFTW), then associated Legendre sums.
// Physical layout: index it + N_theta * ip (theta fastest); spectral: index(l, m) = l^2 + l + m, m in [-l, l],
// m > 0 the cos(m phi) harmonic, m < 0 the sin(|m| phi) one. Not thread-safe (owns its FFTW buffers).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace loom::spectral {

class SphereBasis {
 public:
  // UsageError naming `key` when n_theta < 2.
  explicit SphereBasis(int n_theta, std::string_view key = "extents");
  ~SphereBasis();
  SphereBasis(SphereBasis&&) noexcept;
  SphereBasis& operator=(SphereBasis&&) noexcept;

  int n_theta() const { return nt_; }
  int n_phi() const { return 2 * nt_; }
  int l_max() const { return nt_ - 1; }
  int physical_size() const { return nt_ * n_phi(); }
  int spectral_size() const { return nt_ * nt_; }
  static int index(int l, int m) { return l * l + l + m; }
  std::string description() const;  // "s2(19)"

  const std::vector<double>& theta() const { return theta_; }  // ascending, Gauss-Legendre in cos(theta)
  double phi(int ip) const;
  double weight(int it, int ip) const;  // quadrature weight on the unit sphere

  void to_spectral(const double* u, double* c) const;
  void to_physical(const double* c, double* u) const;
  void d_theta(const double* u, double* du) const;  // physical to physical, through the expansion
  void d_phi(const double* u, double* du) const;
  // Heaviside filter: every coefficient with l > l_keep set to zero.
  void heaviside_filter(const double* u, double* out, int l_keep) const;
  // The expansion with coefficients c at (theta, phi).
  double evaluate(const double* c, double theta, double phi) const;

  // The separable path's per-m theta operator (the paper's alternative to the dense angular matrix): on the
  // values a_m(theta_i) of one phi-Fourier coefficient of order m (cos or sin), out_k = 2 pi sum_{l=m}^{l_top}
  // T_lm(theta_k) sum_i Pbar_lm(theta_i) w_i a_m(theta_i), T = Pbar (projection) or d Pbar / d theta; zero for
  // m > l_top. With the phi DFT before and its inverse after, it equals the Y_lm route exactly.
  void theta_operator(int m, bool derivative, int l_top, const double* in, double* out) const;

 private:
  void synthesize(const double* c, const std::vector<double>& table, double* u) const;
  // N_theta^3 entries: past 2^31 from N_theta = 1291, so the index is computed in size_t.
  std::size_t table_index(int m, int l, int it) const { return (std::size_t(m) * nt_ + l) * nt_ + it; }
  struct Fft;
  int nt_;
  std::vector<double> theta_, gauss_weights_;
  std::vector<double> p_, dp_;  // normalised associated Legendre functions and their theta derivatives
  std::unique_ptr<Fft> fft_;
};

// Normalised associated Legendre functions Pbar_l^m(cos theta) (Y_lm = Pbar_l^m e^{i m phi} orthonormal, no
// Condon-Shortley phase) and their theta derivatives for 0 <= m <= l <= l_max, written to
// p[m * (l_max+1) + l] and dp[...] (the recurrences differentiated term by term, so no division by sin theta).
void legendre(double theta, int l_max, double* p, double* dp);

}  // namespace loom::spectral
