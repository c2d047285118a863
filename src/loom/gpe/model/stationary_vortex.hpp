// The stationary vortex of the dimensionless GPE (DEC-GPE paper, eq. 14): psi = f(rho, z) exp(i kappa phi - i mu t)
// in the trap V = (rho^2 + lambda^2 z^2)/2, with f real, int |psi|^2 d^3r = 1 and chemical potential mu.
// Solved by relaxation (normalised imaginary-time gradient flow, stabilised semi-implicitly) in the trap's own
// eigenbasis: Laguerre functions of rho^2 for angular momentum |kappa| times Hermite functions of z. The trap part
// is diagonal there, so the axis rho = 0 is treated exactly for every kappa (f ~ rho^|kappa|) and mu at g = 0 is
// exactly 1 + |kappa| + lambda/2.
#pragma once

#include "loom/gpe/model/physics.hpp"

#include <complex>
#include <vector>

namespace loom::gpe {

struct VortexProblem {
  Physics physics;  // lambda (trap anisotropy) and g (interaction strength)
  int kappa = 0;     // winding number
  double tolerance = 1e-10;      // relative residual |H f - mu f| / (mu |f|)
  double tail_tolerance = 1e-9;  // spectral coefficients of the last modes relative to the largest
  int max_iterations = 200000;
  int max_modes = 512;  // per direction
};

struct VortexEnergies {  // 3D integrals of psi = f e^{i kappa phi}
  double kinetic = 0;      // (1/2) int |grad psi|^2
  double potential = 0;    // int V |psi|^2
  double interaction = 0;  // (g/2) int |psi|^4
  double total() const { return kinetic + potential + interaction; }
};

class StationaryVortex {
 public:
  // Throws loom::Error when the relaxation does not converge (e.g. an attractive condensate that collapses).
  static StationaryVortex solve(const VortexProblem& problem);

  const VortexProblem& problem() const { return problem_; }
  double chemical_potential() const { return mu_; }
  VortexEnergies energies() const { return energies_; }
  // <-laplacian> = int |grad psi|^2 / int |psi|^2, and the effective wavelength 2 pi / sqrt(<-laplacian>).
  double mean_minus_laplacian() const { return 2 * energies_.kinetic; }
  double effective_wavelength() const;
  double residual() const { return residual_; }
  int iterations() const { return iterations_; }
  int radial_modes() const { return radial_modes_; }
  int axial_modes() const { return axial_modes_; }

  // f(rho, z) by summing the expansion (exact; O(modes^2) per point: use VortexTable for many points).
  double f(double rho, double z) const;
  std::complex<double> psi(double x, double y, double z) const;
  // Extents of eq. (15): the largest rho and |z| where f > threshold * max f.
  double max_f() const { return max_f_; }
  double rho_extent(double threshold = 1e-5) const;
  double z_extent(double threshold = 1e-5) const;

  const std::vector<double>& coefficients() const { return c_; }  // radial-major, radial_modes x axial_modes

 private:
  void scan_extents();
  VortexProblem problem_;
  int radial_modes_ = 0, axial_modes_ = 0;
  std::vector<double> c_;
  double mu_ = 0, residual_ = 0, max_f_ = 0;
  int iterations_ = 0;
  VortexEnergies energies_;
  std::vector<double> scan_rho_, scan_z_, scan_rho_max_f_, scan_z_max_f_;  // envelope profiles for the extents
};

// f tabulated on a uniform (rho, z) grid and interpolated with tensor cubic Lagrange polynomials: fast and
// accurate (relative error ~ (h / healing length)^4) for initialising millions of lattice points.
class VortexTable {
 public:
  VortexTable(const StationaryVortex& vortex, double rho_max, double z_max, int rho_points = 1024, int z_points = 2048);
  double f(double rho, double z) const;
  std::complex<double> psi(double x, double y, double z) const;

 private:
  int kappa_ = 0;
  double h_rho_ = 0, h_z_ = 0, z0_ = 0;
  int n_rho_ = 0, n_z_ = 0;
  std::vector<double> values_;  // n_rho x n_z, rho-major
};

// Thomas-Fermi chemical potential (kinetic energy neglected) for the same trap, g > 0 and winding kappa.
double thomas_fermi_mu(double lambda, double g, int kappa);

}  // namespace loom::gpe
