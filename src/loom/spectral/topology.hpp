// Grids of one spectral element (spectral-BH paper, "irreducible topologies"): the cube I1 x I1 x I1 of three 1D
// bases, and the spherical shell I1 x S2 (Chebyshev in r between two radii, S2 in theta and phi). Points are
// ordered with the first coordinate fastest (cube: x, y, z; shell: r, theta, phi). Each topology gives its
// operations as AxisOperators (derivatives along each logical coordinate, its filter sequence), its points in
// Cartesian coordinates, the inverse Jacobian of its map for the chain rule, quadrature weights and
// interpolation. Operators refer to the topology's bases: a topology is neither copied nor moved.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "loom/spectral/axis_operator.hpp"
#include "loom/spectral/basis_1d.hpp"
#include "loom/spectral/sphere.hpp"

namespace loom::spectral {

struct FilterSpec {
  double alpha = 36;   // exponential filter: the highest mode damped by exp(-alpha)
  int half_order = 8;  // s in exp(-alpha (k / k_max)^(2 s))
  int l_keep = -1;     // S2 Heaviside filter: keep l <= l_keep; -1: l_max - 1
};

// How a shell's angular operators are applied: one dense (N_theta N_phi)^2 matrix, or the separable route
// (phi DFT, a N_theta^2 matrix per m, inverse phi DFT), about 2 N_phi / N_theta ... N_phi fewer flops.
enum class AngularMethod { dense, separable };
std::string_view to_string(AngularMethod m);
AngularMethod parse_angular_method(std::string_view text, std::string_view key = "angular");

// The radial map of a shell: the Chebyshev points are uniform (Gauss-Lobatto) in the coordinate xi(r), xi = r
// (linear), ln r (log) or -1/r (inverse; the sign keeps xi increasing with r). Fields ~ 1/r, as Kerr-Schild's near
// the hole, are polynomials of low degree in -1/r: their top Chebyshev modes fall to near roundoff on the inverse
// map (docs/gr.md, "The radial map"). The map enters the chain rule through d xi / d r (inverse_jacobian) and the
// quadrature through d r / d xi.
enum class RadialMap { linear, log, inverse };
std::string_view to_string(RadialMap m);
RadialMap parse_radial_map(std::string_view text, std::string_view key);
double radial_coordinate(RadialMap m, double r);  // xi(r)
double radius_of(RadialMap m, double xi);         // r(xi), the inverse of radial_coordinate
double dxi_dr(RadialMap m, double r);             // d xi / d r at r

class Topology {
 public:
  virtual ~Topology() = default;
  Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  virtual std::string name() const = 0;
  virtual std::array<int, 3> extents() const = 0;
  Index size() const;
  // d/d xi_coordinate of a scalar field (logical coordinates: cube x, y, z; shell r, theta, phi).
  virtual AxisOperator derivative(int coordinate) const = 0;
  // The filter as a sequence of operators applied in order.
  virtual std::vector<AxisOperator> filter(const FilterSpec& spec) const = 0;
  // The derivative and the filter as operator sequences for an angular method (the cube has only one).
  virtual std::vector<AxisOperator> derivative_steps(int coordinate, AngularMethod) const {
    return {derivative(coordinate)};
  }
  virtual std::vector<AxisOperator> filter_steps(const FilterSpec& spec, AngularMethod) const { return filter(spec); }
  // Cartesian coordinates of every point, as x[0..N), y, z.
  virtual std::array<std::vector<double>, 3> cartesian() const = 0;
  // d xi^j / d x^i at every point, component-major [(3 i + j) N + point]: the chain rule's factors.
  virtual std::vector<double> inverse_jacobian() const = 0;
  // Quadrature: the integral of a field over the element is sum_p weights[p] u[p].
  virtual std::vector<double> weights() const = 0;
  // The spectral interpolant of u at a Cartesian point inside the element.
  virtual double interpolate(const double* u, const std::array<double, 3>& x) const = 0;
};

class Cube final : public Topology {
 public:
  // Three bases (kind, points, interval) for x, y, z.
  Cube(Basis1D x, Basis1D y, Basis1D z);
  std::string name() const override { return "cube"; }
  std::array<int, 3> extents() const override;
  AxisOperator derivative(int coordinate) const override;
  std::vector<AxisOperator> filter(const FilterSpec& spec) const override;
  std::array<std::vector<double>, 3> cartesian() const override;
  std::vector<double> inverse_jacobian() const override;
  std::vector<double> weights() const override;
  double interpolate(const double* u, const std::array<double, 3>& x) const override;
  const Basis1D& basis(int axis) const { return bases_[axis]; }

 private:
  AxisShape shape(int axis) const;
  std::array<Basis1D, 3> bases_;
};

class Shell final : public Topology {
 public:
  // n_r Chebyshev points on [inner_radius, outer_radius] (uniform in the map's xi) times S2 with n_theta points
  // (n_phi = 2 n_theta).
  Shell(int n_r, int n_theta, double inner_radius, double outer_radius, RadialMap map = RadialMap::linear);
  std::string name() const override { return "shell"; }
  std::array<int, 3> extents() const override;
  AxisOperator derivative(int coordinate) const override;
  std::vector<AxisOperator> filter(const FilterSpec& spec) const override;
  std::array<std::vector<double>, 3> cartesian() const override;
  std::vector<double> inverse_jacobian() const override;
  std::vector<double> weights() const override;
  double interpolate(const double* u, const std::array<double, 3>& x) const override;
  std::vector<AxisOperator> derivative_steps(int coordinate, AngularMethod m) const override;
  std::vector<AxisOperator> filter_steps(const FilterSpec& spec, AngularMethod m) const override;
  // The radial basis in xi: its points and derivative are in the map's coordinate, not in r.
  const Basis1D& radial() const { return radial_; }
  RadialMap radial_map() const { return map_; }
  // The radius of each radial point, ascending (r(xi) of radial().points()).
  const std::vector<double>& radii() const { return radii_; }
  const SphereBasis& sphere() const { return sphere_; }
  // The angular PhysToSpec ((N_theta N_phi) values to (L+1)^2 per radius) or SpecToPhys, as operators.
  AxisOperator angular_transform(bool to_spectral) const;
  // The radial exponential filter alone.
  AxisOperator radial_filter(const FilterSpec& spec) const;

 private:
  AxisShape radial_shape() const;
  AxisShape angular_shape() const;
  int l_keep(const FilterSpec& spec) const;
  // The separable route: phi DFT, per-m theta operator (derivative or projection up to l_top), inverse DFT
  // (of the phi derivative when phi_derivative).
  std::vector<AxisOperator> separable(bool theta_derivative, bool phi_derivative, int l_top) const;
  RadialMap map_;
  Basis1D radial_;
  std::vector<double> radii_;
  SphereBasis sphere_;
  Basis1D phi_;  // Fourier on the N_phi points of the separable route
};

// Cube on [-1, 1]^3 (Chebyshev, or Fourier on [0, 2 pi) per axis) or shell from `extents` ("10,19,38");
// UsageError naming the key for extents a basis cannot take (a shell needs N_phi = 2 N_theta).
std::unique_ptr<Topology> make_topology(const std::string& topology, const std::array<int, 3>& extents,
                                        const std::array<double, 2>& radii,
                                        const std::array<BasisKind, 3>& cube_bases = {BasisKind::chebyshev,
                                                                                      BasisKind::chebyshev,
                                                                                      BasisKind::chebyshev});

}  // namespace loom::spectral
