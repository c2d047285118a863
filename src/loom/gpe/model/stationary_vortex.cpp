#include "loom/gpe/model/stationary_vortex.hpp"

#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "loom/core/error.hpp"
#include "loom/gpe/model/physics.hpp"
#include "loom/gpe/model/oscillator_basis.hpp"

namespace loom::gpe {
namespace {

// Why the solver gave up, in the user's terms: an attractive condensate collapses; a repulsive one this strong has
// a healing length below what the basis resolves.
const char* too_strong(double g) {
  return g < 0 ? "an attractive condensate this strong collapses"
               : "a repulsive condensate this strong has a core thinner than the basis resolves (lower physics.g)";
}

// Row-major C = op(A) op(B), dimensions as in BLAS.
void gemm(bool trans_a, bool trans_b, int m, int n, int k, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, m, n, k, 1.0,
              a, trans_a ? m : k, b, trans_b ? k : n, 0.0, c, n);
}

// Radial basis chi_n(rho) = sqrt(2) l_n(rho^2) (orthonormal with rho d rho), axial basis of the even Hermite
// functions zeta_q(z) = lambda^(1/4) h_{2q}(sqrt(lambda) z) (the stationary vortex is even in z).
void radial_values(double rho, int m, std::span<double> out) {  // chi_n(rho)
  laguerre_functions(rho * rho, m, out);
  for (auto& v : out) v *= std::sqrt(2.0);
}
void axial_values(double z, double lambda, std::span<double> out, std::vector<double>& scratch) {
  scratch.resize(2 * out.size());
  hermite_functions(std::sqrt(lambda) * z, scratch);
  const double scale = std::pow(lambda, 0.25);
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = scale * scratch[2 * q];
}

// Everything at the quadrature nodes is stored in "scaled" form, f^ = f sqrt(omega) with omega the node's
// quadrature weight (for int ... rho d rho dz), because omega itself overflows far out while f^ stays O(1).
struct Discretisation {
  int nr = 0, nz = 0, mr = 0, mz = 0;  // modes and quadrature nodes per direction (z: nodes with z > 0)
  std::vector<double> ur;         // mr x nr: chi_n(rho_i) sqrt(omega_i)
  std::vector<double> uz;         // mz x nz: zeta_q(z_j) sqrt(omega_j), omega_j counting z_j and -z_j
  std::vector<double> inv_omega;  // mr x mz: 1 / (omega_i omega_j)
  std::vector<double> v;          // mr x mz: trap potential at the nodes
  std::vector<double> energy;     // nr x nz: trap eigenvalues 2n + m + 1 + lambda (2q + 1/2)
  std::vector<double> x;          // mr: rho^2 at the radial nodes
};

Discretisation discretise(double lambda, int m, int nr, int nz) {
  Discretisation d;
  d.nr = nr;
  d.nz = nz;
  d.mr = nr + nr / 2 + 8;  // more nodes than modes: the cubic nonlinearity is integrated with little aliasing
  const int hermite_points = 2 * (nz + nz / 2 + 8);  // even: no node at z = 0, the positive half mirrors the rest
  const FunctionRule radial = laguerre_rule(m, d.mr, nr);
  const FunctionRule axial = hermite_rule(hermite_points, 2 * nz);
  std::vector<int> positive;
  for (int j = 0; j < hermite_points; ++j)
    if (axial.nodes[static_cast<std::size_t>(j)] > 0) positive.push_back(j);
  d.mz = static_cast<int>(positive.size());
  // chi_n = sqrt(2) l_n(rho^2) with rho d rho = dx/2: chi_n(rho_i) sqrt(W_i / 2) = l_n(x_i) sqrt(W_i).
  d.ur = radial.scaled;
  d.x = radial.nodes;
  // zeta_q = lambda^(1/4) h_2q(sqrt(lambda) z), dz = ds / sqrt(lambda), both signs of z: omega_j = 2 W_j / sqrt(lambda)
  d.uz.resize(static_cast<std::size_t>(d.mz) * nz);
  std::vector<double> inv_omega_z(static_cast<std::size_t>(d.mz)), z(static_cast<std::size_t>(d.mz));
  for (int j = 0; j < d.mz; ++j) {
    const std::size_t node = static_cast<std::size_t>(positive[static_cast<std::size_t>(j)]);
    for (int q = 0; q < nz; ++q)
      d.uz[static_cast<std::size_t>(j) * nz + q] = std::sqrt(2.0) * axial.scaled[node * (2 * nz) + 2 * q];
    inv_omega_z[static_cast<std::size_t>(j)] = 0.5 * std::sqrt(lambda) * axial.inv_weights[node];
    z[static_cast<std::size_t>(j)] = axial.nodes[node] / std::sqrt(lambda);
  }
  d.inv_omega.resize(static_cast<std::size_t>(d.mr) * d.mz);
  d.v.resize(d.inv_omega.size());
  for (int i = 0; i < d.mr; ++i)
    for (int j = 0; j < d.mz; ++j) {
      const std::size_t k = static_cast<std::size_t>(i) * d.mz + j;
      d.inv_omega[k] = 2 * radial.inv_weights[static_cast<std::size_t>(i)] * inv_omega_z[static_cast<std::size_t>(j)];
      d.v[k] = trap_potential(lambda, d.x[static_cast<std::size_t>(i)], z[static_cast<std::size_t>(j)]);  // x = rho^2
    }
  d.energy.resize(static_cast<std::size_t>(nr) * nz);
  for (int n = 0; n < nr; ++n)
    for (int q = 0; q < nz; ++q)
      d.energy[static_cast<std::size_t>(n) * nz + q] = 2.0 * n + m + 1 + lambda * (2.0 * q + 0.5);
  return d;
}

// Scaled values at the nodes: F^ = Ur C Uz^T.
void values_at_nodes(const Discretisation& d, const std::vector<double>& c, std::vector<double>& tmp,
                     std::vector<double>& f) {
  tmp.resize(static_cast<std::size_t>(d.mr) * d.nz);
  f.resize(static_cast<std::size_t>(d.mr) * d.mz);
  gemm(false, false, d.mr, d.nz, d.nr, d.ur.data(), c.data(), tmp.data());
  gemm(false, true, d.mr, d.mz, d.nz, tmp.data(), d.uz.data(), f.data());
}

// Projection P = Ur^T G Uz, where G holds sqrt(omega) times the values of the function projected.
void project(const Discretisation& d, const std::vector<double>& g, std::vector<double>& tmp, std::vector<double>& p) {
  tmp.resize(static_cast<std::size_t>(d.mr) * d.nz);
  p.resize(static_cast<std::size_t>(d.nr) * d.nz);
  gemm(false, false, d.mr, d.nz, d.mz, g.data(), d.uz.data(), tmp.data());
  gemm(true, false, d.nr, d.nz, d.mr, d.ur.data(), tmp.data(), p.data());
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Copies coefficients into a larger (or equal) mode set, zero-padding the new modes.
std::vector<double> resize_modes(const std::vector<double>& c, int nr, int nz, int new_nr, int new_nz) {
  std::vector<double> out(static_cast<std::size_t>(new_nr) * new_nz, 0.0);
  for (int n = 0; n < std::min(nr, new_nr); ++n)
    for (int q = 0; q < std::min(nz, new_nz); ++q)
      out[static_cast<std::size_t>(n) * new_nz + q] = c[static_cast<std::size_t>(n) * nz + q];
  return out;
}

}  // namespace

double thomas_fermi_mu(double lambda, double g, int kappa) {
  LOOM_REQUIRE(g > 0 && lambda > 0, "thomas_fermi_mu: needs g > 0 and lambda > 0");
  if (kappa == 0) return 0.5 * std::pow(15 * g * lambda / (4 * M_PI), 0.4);
  // With a vortex: n = max(mu - V - kappa^2/(2 rho^2), 0)/g, normalised by bisection on mu (midpoint rule in
  // rho^2 and z over the region where n > 0).
  auto norm = [&](double mu) {
    const int points = 800;
    const double x_max = 2 * mu, z_max = std::sqrt(2 * mu) / lambda;
    const double dx = x_max / points, dz = z_max / points;
    double total = 0;
    for (int i = 0; i < points; ++i) {
      const double x = (i + 0.5) * dx;
      for (int j = 0; j < points; ++j) {
        const double z = (j + 0.5) * dz;
        const double n = mu - trap_potential(lambda, x, z) - kappa * kappa / (2 * x);  // x = rho^2
        if (n > 0) total += n;
      }
    }
    return 2 * M_PI * 2 * total * 0.5 * dx * dz / g;  // rho d rho = dx / 2, both signs of z
  };
  double lo = 0, hi = 1 + std::abs(kappa) + 0.5 * std::pow(15 * g * lambda / (4 * M_PI), 0.4);
  while (norm(hi) < 1) hi *= 2;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (norm(mid) < 1 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

StationaryVortex StationaryVortex::solve(const VortexProblem& problem) {
  LOOM_REQUIRE(problem.physics.lambda > 0, "StationaryVortex: lambda must be positive");
  const int m = std::abs(problem.kappa);
  const double lambda = problem.physics.lambda, g = problem.physics.g;
  // Mode counts from the size of the cloud, then grown until the spectral tail is below tail_tolerance.
  const double mu_guess = g > 0 ? std::max(thomas_fermi_mu(lambda, g, problem.kappa), 1 + m + lambda / 2)
                                : 1 + m + lambda / 2;
  int nr = std::clamp(static_cast<int>(16 + 1.5 * mu_guess), 16, problem.max_modes);
  int nz = std::clamp(static_cast<int>(16 + 1.5 * mu_guess / lambda), 16, problem.max_modes);

  StationaryVortex out;
  out.problem_ = problem;
  std::vector<double> c;  // current coefficients, nr x nz
  std::vector<double> f, tmp, weighted, p;
  int total_iterations = 0;
  for (int round = 0;; ++round) {
    const Discretisation d = discretise(lambda, m, nr, nz);
    if (c.empty()) {
      c.assign(static_cast<std::size_t>(nr) * nz, 0.0);
      if (g > 0 && mu_guess > 2 * (1 + m + lambda)) {
        // Strong repulsion: start from the Thomas-Fermi profile, projected onto the basis.
        const double mu_tf = thomas_fermi_mu(lambda, g, problem.kappa);
        weighted.resize(d.v.size());
        for (int i = 0; i < d.mr; ++i)
          for (int j = 0; j < d.mz; ++j) {
            const std::size_t k = static_cast<std::size_t>(i) * d.mz + j;
            const double x = d.x[static_cast<std::size_t>(i)];
            const double f_tf = std::sqrt(std::max(mu_tf - d.v[k] - m * m / (2 * x), 0.0) / g);
            weighted[k] = f_tf > 0 ? f_tf / std::sqrt(d.inv_omega[k]) : 0.0;
          }
        project(d, weighted, tmp, c);
      } else {
        c[0] = 1.0;  // the trap's ground state in this angular-momentum sector
      }
    }
    const double scale = 1 / std::sqrt(2 * M_PI * dot(c, c));
    for (auto& x : c) x *= scale;

    double mu = 0, residual = 1;
    int it = 0;
    for (; it < problem.max_iterations; ++it) {
      values_at_nodes(d, c, tmp, f);
      double max_nonlinear = 0;
      weighted.resize(f.size());
      for (std::size_t k = 0; k < f.size(); ++k) {  // f holds f^ = f sqrt(omega)
        const double density = f[k] * f[k] * d.inv_omega[k];
        weighted[k] = g * density * f[k];  // sqrt(omega) g f^3
        max_nonlinear = std::max(max_nonlinear, std::abs(g) * density);
      }
      project(d, weighted, tmp, p);
      double linear = 0;
      for (std::size_t k = 0; k < c.size(); ++k) linear += d.energy[k] * c[k] * c[k];
      const double cc = dot(c, c);
      mu = (linear + dot(c, p)) / cc;
      double r2 = 0;
      for (std::size_t k = 0; k < c.size(); ++k) {
        const double r = d.energy[k] * c[k] + p[k] - mu * c[k];
        r2 += r * r;
      }
      residual = std::sqrt(r2 / cc) / std::abs(mu);
      if (residual < problem.tolerance) break;
      // Semi-implicit step of the normalised gradient flow d c/d tau = -(H c - mu c): trap part and a
      // stabilising shift alpha implicit, nonlinearity explicit. Its fixed points solve H c = mu c exactly.
      // Stability of the explicit part needs alpha >= max g f^2 and tau (mu + alpha) <~ 1 (linearised analysis:
      // the amplification 1 + tau (mu + alpha - 3 g f^2) must stay above -(1 + tau (E + alpha))).
      const double alpha = max_nonlinear;
      const double tau = 1.0 / (std::abs(mu) + alpha + 1);
      if (g < 0 && max_nonlinear > 1e4 * (1 + problem.physics.lambda + m)) break;  // collapsing: give up early
      for (std::size_t k = 0; k < c.size(); ++k)
        c[k] = (c[k] * (1 + tau * (mu + alpha)) - tau * p[k]) / (1 + tau * (d.energy[k] + alpha));
      const double s = 1 / std::sqrt(2 * M_PI * dot(c, c));
      for (auto& x : c) x *= s;
    }
    total_iterations += it;
    if (!(residual < problem.tolerance))  // also catches NaN
      throw Error(fmt::format("stationary vortex (lambda = {}, g = {}, kappa = {}): no convergence after {} "
                              "iterations (residual {:.2e}); {}",
                              lambda, g, problem.kappa, total_iterations, residual, too_strong(g)));
    // Spectral tails: the largest coefficient among the last 10% of modes in each direction.
    double cmax = 0, tail_r = 0, tail_z = 0;
    for (int n = 0; n < nr; ++n)
      for (int q = 0; q < nz; ++q) {
        const double a = std::abs(c[static_cast<std::size_t>(n) * nz + q]);
        cmax = std::max(cmax, a);
        if (n >= nr - std::max(2, nr / 10)) tail_r = std::max(tail_r, a);
        if (q >= nz - std::max(2, nz / 10)) tail_z = std::max(tail_z, a);
      }
    const bool grow_r = tail_r > problem.tail_tolerance * cmax && nr < problem.max_modes;
    const bool grow_z = tail_z > problem.tail_tolerance * cmax && nz < problem.max_modes;
    if ((grow_r || grow_z) == false && (tail_r > problem.tail_tolerance * cmax || tail_z > problem.tail_tolerance * cmax))
      throw Error(fmt::format("stationary vortex (lambda = {}, g = {}, kappa = {}): not resolved by {} x {} modes "
                              "(spectral tail {:.1e}); {}", lambda, g,
                              problem.kappa, nr, nz, std::max(tail_r, tail_z) / cmax, too_strong(g)));
    if (!grow_r && !grow_z) {
      out.radial_modes_ = nr;
      out.axial_modes_ = nz;
      out.c_ = c;
      out.mu_ = mu;
      out.residual_ = residual;
      out.iterations_ = total_iterations;
      values_at_nodes(d, c, tmp, f);
      double linear = 0, potential = 0, quartic = 0;
      for (std::size_t k = 0; k < c.size(); ++k) linear += d.energy[k] * c[k] * c[k];
      for (std::size_t k = 0; k < f.size(); ++k) {
        potential += d.v[k] * f[k] * f[k];
        quartic += f[k] * f[k] * f[k] * f[k] * d.inv_omega[k];
      }
      out.energies_.potential = 2 * M_PI * potential;
      out.energies_.kinetic = 2 * M_PI * linear - out.energies_.potential;
      out.energies_.interaction = 0.5 * g * 2 * M_PI * quartic;
      out.scan_extents();
      return out;
    }
    const int new_nr = grow_r ? std::min(problem.max_modes, nr * 3 / 2) : nr;
    const int new_nz = grow_z ? std::min(problem.max_modes, nz * 3 / 2) : nz;
    c = resize_modes(c, nr, nz, new_nr, new_nz);
    nr = new_nr;
    nz = new_nz;
  }
}

double StationaryVortex::effective_wavelength() const { return 2 * M_PI / std::sqrt(mean_minus_laplacian()); }

double StationaryVortex::f(double rho, double z) const {
  std::vector<double> r(static_cast<std::size_t>(radial_modes_)), a(static_cast<std::size_t>(axial_modes_)), scratch;
  radial_values(std::abs(rho), std::abs(problem_.kappa), r);
  axial_values(z, problem_.physics.lambda, a, scratch);
  double s = 0;
  for (int n = 0; n < radial_modes_; ++n) {
    double inner = 0;
    for (int q = 0; q < axial_modes_; ++q) inner += c_[static_cast<std::size_t>(n) * axial_modes_ + q] * a[q];
    s += r[static_cast<std::size_t>(n)] * inner;
  }
  return s;
}

std::complex<double> StationaryVortex::psi(double x, double y, double z) const {
  const double rho = std::hypot(x, y);
  return f(rho, z) * std::polar(1.0, problem_.kappa * std::atan2(y, x));
}

void StationaryVortex::scan_extents() {
  // Evaluate f on a grid reaching past the outermost quadrature nodes and record the envelopes
  // max_z |f|(rho) and max_rho |f|(z).
  const int points = 600;
  const int m = std::abs(problem_.kappa);
  const double rho_hi = std::sqrt(4.0 * radial_modes_ + 2 * m + 20);
  const double z_hi = std::sqrt((8.0 * axial_modes_ + 20) / problem_.physics.lambda);
  std::vector<double> a(static_cast<std::size_t>(points) * radial_modes_), b(static_cast<std::size_t>(points) * axial_modes_);
  std::vector<double> scratch;
  scan_rho_.resize(points);
  scan_z_.resize(points);
  for (int i = 0; i < points; ++i) {
    scan_rho_[static_cast<std::size_t>(i)] = rho_hi * i / (points - 1);
    scan_z_[static_cast<std::size_t>(i)] = z_hi * i / (points - 1);
    radial_values(scan_rho_[static_cast<std::size_t>(i)], m,
                  {a.data() + static_cast<std::size_t>(i) * radial_modes_, std::size_t(radial_modes_)});
    axial_values(scan_z_[static_cast<std::size_t>(i)], problem_.physics.lambda,
                 {b.data() + static_cast<std::size_t>(i) * axial_modes_, std::size_t(axial_modes_)}, scratch);
  }
  std::vector<double> tmp(static_cast<std::size_t>(points) * axial_modes_), values(static_cast<std::size_t>(points) * points);
  gemm(false, false, points, axial_modes_, radial_modes_, a.data(), c_.data(), tmp.data());
  gemm(false, true, points, points, axial_modes_, tmp.data(), b.data(), values.data());
  scan_rho_max_f_.assign(points, 0.0);
  scan_z_max_f_.assign(points, 0.0);
  max_f_ = 0;
  for (int i = 0; i < points; ++i)
    for (int j = 0; j < points; ++j) {
      const double v = std::abs(values[static_cast<std::size_t>(i) * points + j]);
      scan_rho_max_f_[static_cast<std::size_t>(i)] = std::max(scan_rho_max_f_[static_cast<std::size_t>(i)], v);
      scan_z_max_f_[static_cast<std::size_t>(j)] = std::max(scan_z_max_f_[static_cast<std::size_t>(j)], v);
      max_f_ = std::max(max_f_, v);
    }
}

namespace {
double extent(const std::vector<double>& coordinate, const std::vector<double>& envelope, double level) {
  for (std::size_t i = envelope.size(); i-- > 1;)
    if (envelope[i - 1] > level) {  // crossing between i-1 and i: interpolate linearly
      const double t = (envelope[i - 1] - level) / std::max(envelope[i - 1] - envelope[i], 1e-300);
      return coordinate[i - 1] + std::clamp(t, 0.0, 1.0) * (coordinate[i] - coordinate[i - 1]);
    }
  return 0;
}
}  // namespace

double StationaryVortex::rho_extent(double threshold) const { return extent(scan_rho_, scan_rho_max_f_, threshold * max_f_); }
double StationaryVortex::z_extent(double threshold) const { return extent(scan_z_, scan_z_max_f_, threshold * max_f_); }

VortexTable::VortexTable(const StationaryVortex& vortex, double rho_max, double z_max, int rho_points, int z_points)
    : kappa_(vortex.problem().kappa), n_rho_(rho_points), n_z_(z_points) {
  LOOM_REQUIRE(rho_points >= 4 && z_points >= 4 && rho_max > 0 && z_max > 0, "VortexTable: bad size");
  h_rho_ = rho_max / (rho_points - 3);  // two points beyond rho_max for the cubic stencil
  h_z_ = 2 * z_max / (z_points - 5);
  z0_ = -z_max - 2 * h_z_;
  const int nr = vortex.radial_modes(), nz = vortex.axial_modes(), m = std::abs(kappa_);
  std::vector<double> a(static_cast<std::size_t>(n_rho_) * nr), b(static_cast<std::size_t>(n_z_) * nz), scratch;
  for (int i = 0; i < n_rho_; ++i)
    radial_values(i * h_rho_, m, {a.data() + static_cast<std::size_t>(i) * nr, std::size_t(nr)});
  for (int j = 0; j < n_z_; ++j)
    axial_values(z0_ + j * h_z_, vortex.problem().physics.lambda, {b.data() + static_cast<std::size_t>(j) * nz, std::size_t(nz)},
                 scratch);
  std::vector<double> tmp(static_cast<std::size_t>(n_rho_) * nz);
  values_.resize(static_cast<std::size_t>(n_rho_) * n_z_);
  gemm(false, false, n_rho_, nz, nr, a.data(), vortex.coefficients().data(), tmp.data());
  gemm(false, true, n_rho_, n_z_, nz, tmp.data(), b.data(), values_.data());
}

double VortexTable::f(double rho, double z) const {
  const double u = rho / h_rho_, w = (z - z0_) / h_z_;
  const int i = static_cast<int>(std::floor(u)), j = static_cast<int>(std::floor(w));
  if (i + 2 >= n_rho_ || j < 1 || j + 2 >= n_z_) return 0.0;  // outside the table: beyond the cloud
  const double tu = u - i, tw = w - j;
  // Cubic Lagrange weights on the nodes -1, 0, 1, 2.
  auto weights = [](double t, double* l) {
    l[0] = -t * (t - 1) * (t - 2) / 6;
    l[1] = (t + 1) * (t - 1) * (t - 2) / 2;
    l[2] = -(t + 1) * t * (t - 2) / 2;
    l[3] = (t + 1) * t * (t - 1) / 6;
  };
  double lu[4], lw[4];
  weights(tu, lu);
  weights(tw, lw);
  const double parity = (std::abs(kappa_) % 2) ? -1.0 : 1.0;  // f(-rho) = (-1)^|kappa| f(rho)
  double s = 0;
  for (int a = 0; a < 4; ++a) {
    int ii = i - 1 + a;
    double sign = 1;
    if (ii < 0) {
      ii = -ii;
      sign = parity;
    }
    const double* row = values_.data() + static_cast<std::size_t>(ii) * n_z_ + (j - 1);
    s += sign * lu[a] * (lw[0] * row[0] + lw[1] * row[1] + lw[2] * row[2] + lw[3] * row[3]);
  }
  return s;
}

std::complex<double> VortexTable::psi(double x, double y, double z) const {
  return f(std::hypot(x, y), z) * std::polar(1.0, kappa_ * std::atan2(y, x));
}

}  // namespace loom::gpe
