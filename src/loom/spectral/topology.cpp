#include "loom/spectral/topology.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::spectral {

namespace {

std::string exp_filter_key(const FilterSpec& f) {
  return "/exp_filter(alpha=" + io::to_text(f.alpha) + ",s=" + std::to_string(f.half_order) + ")";
}

void check_filter(const FilterSpec& f) {
  if (f.half_order <= 0)
    throw UsageError(io::invalid_value_message("filter.order", std::int64_t{f.half_order}, "an integer >= 1"));
  if (!(f.alpha >= 0)) throw UsageError(io::invalid_value_message("filter.alpha", f.alpha, "a number >= 0"));
}

AxisOperator exp_filter_operator(const Basis1D& b, AxisShape shape, const FilterSpec& f) {
  return {shape, b.description() + exp_filter_key(f),
          [&b, f](const double* in, double* out) { b.exp_filter(in, out, f.alpha, f.half_order); }};
}

}  // namespace

std::string_view to_string(AngularMethod m) { return m == AngularMethod::dense ? "dense" : "separable"; }

AngularMethod parse_angular_method(std::string_view text, std::string_view key) {
  if (text == "dense") return AngularMethod::dense;
  if (text == "separable") return AngularMethod::separable;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of dense, separable"));
}

std::string_view to_string(RadialMap m) {
  return m == RadialMap::linear ? "linear" : m == RadialMap::log ? "log" : "inverse";
}

RadialMap parse_radial_map(std::string_view text, std::string_view key) {
  for (RadialMap m : {RadialMap::linear, RadialMap::log, RadialMap::inverse})
    if (text == to_string(m)) return m;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of linear, log, inverse"));
}

double radial_coordinate(RadialMap m, double r) {
  return m == RadialMap::linear ? r : m == RadialMap::log ? std::log(r) : -1 / r;
}

double radius_of(RadialMap m, double xi) {
  return m == RadialMap::linear ? xi : m == RadialMap::log ? std::exp(xi) : -1 / xi;
}

double dxi_dr(RadialMap m, double r) { return m == RadialMap::linear ? 1 : m == RadialMap::log ? 1 / r : 1 / (r * r); }

Index Topology::size() const {
  const auto e = extents();
  return Index{e[0]} * e[1] * e[2];
}

// ---- cube ----

Cube::Cube(Basis1D x, Basis1D y, Basis1D z) : bases_{std::move(x), std::move(y), std::move(z)} {}

std::array<int, 3> Cube::extents() const { return {bases_[0].size(), bases_[1].size(), bases_[2].size()}; }

AxisShape Cube::shape(int axis) const {
  const auto e = extents();
  AxisShape s;
  for (int d = 0; d < axis; ++d) s.inner *= e[d];
  for (int d = axis + 1; d < 3; ++d) s.outer *= e[d];
  s.n_in = s.n_out = e[axis];
  return s;
}

AxisOperator Cube::derivative(int coordinate) const {
  LOOM_REQUIRE(coordinate >= 0 && coordinate < 3, "Cube::derivative: coordinate out of range");
  const Basis1D& b = bases_[coordinate];
  return {shape(coordinate), b.description() + "/derivative",
          [&b](const double* in, double* out) { b.derivative(in, out); }};
}

std::vector<AxisOperator> Cube::filter(const FilterSpec& spec) const {
  check_filter(spec);
  std::vector<AxisOperator> ops;
  for (int d = 0; d < 3; ++d) ops.push_back(exp_filter_operator(bases_[d], shape(d), spec));
  return ops;
}

std::array<std::vector<double>, 3> Cube::cartesian() const {
  const auto e = extents();
  std::array<std::vector<double>, 3> x;
  for (auto& v : x) v.resize(static_cast<std::size_t>(size()));
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i) {
        const Index p = i + Index{e[0]} * (j + Index{e[1]} * k);
        x[0][p] = bases_[0].points()[i];
        x[1][p] = bases_[1].points()[j];
        x[2][p] = bases_[2].points()[k];
      }
  return x;
}

std::vector<double> Cube::inverse_jacobian() const {
  const Index n = size();
  std::vector<double> jac(static_cast<std::size_t>(9 * n), 0.0);
  for (int i = 0; i < 3; ++i)
    for (Index p = 0; p < n; ++p) jac[(3 * i + i) * n + p] = 1;
  return jac;
}

std::vector<double> Cube::weights() const {
  const auto e = extents();
  std::vector<double> w(static_cast<std::size_t>(size()));
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i)
        w[i + Index{e[0]} * (j + Index{e[1]} * k)] =
            bases_[0].weights()[i] * bases_[1].weights()[j] * bases_[2].weights()[k];
  return w;
}

// Coefficients along x, evaluated at x[0]; then along y, then z (each a 1D Clenshaw or Fourier sum).
double Cube::interpolate(const double* u, const std::array<double, 3>& x) const {
  const auto e = extents();
  std::vector<double> plane(static_cast<std::size_t>(e[1]) * e[2]), line(e[2]), c(std::max({e[0], e[1], e[2]}));
  std::vector<double> row(e[0]), col(e[1]);
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j) {
      for (int i = 0; i < e[0]; ++i) row[i] = u[i + Index{e[0]} * (j + Index{e[1]} * k)];
      bases_[0].to_spectral(row.data(), c.data());
      plane[j + e[1] * k] = bases_[0].evaluate(c.data(), x[0]);
    }
  for (int k = 0; k < e[2]; ++k) {
    for (int j = 0; j < e[1]; ++j) col[j] = plane[j + e[1] * k];
    bases_[1].to_spectral(col.data(), c.data());
    line[k] = bases_[1].evaluate(c.data(), x[1]);
  }
  bases_[2].to_spectral(line.data(), c.data());
  return bases_[2].evaluate(c.data(), x[2]);
}

// ---- shell ----

namespace {

// The radial coordinate of an inner radius, refused before a map takes its logarithm or inverse.
double checked_coordinate(RadialMap map, double inner_radius) {
  if (!(inner_radius > 0))
    throw UsageError(io::invalid_value_message("radii", inner_radius, "an inner radius > 0"));
  return radial_coordinate(map, inner_radius);
}

}  // namespace

Shell::Shell(int n_r, int n_theta, double inner_radius, double outer_radius, RadialMap map)
    : map_(map),
      radial_(BasisKind::chebyshev, n_r, checked_coordinate(map, inner_radius), radial_coordinate(map, outer_radius),
              "extents"),
      sphere_(n_theta, "extents"),
      phi_(BasisKind::fourier, 2 * n_theta, 0, 2 * std::numbers::pi, "extents") {
  for (double xi : radial_.points()) radii_.push_back(radius_of(map, xi));
  // The end points exactly (r(xi(r)) may differ from r in the last bit): the shells' shared surfaces coincide.
  radii_.front() = inner_radius;
  radii_.back() = outer_radius;
}

std::array<int, 3> Shell::extents() const { return {radial_.size(), sphere_.n_theta(), sphere_.n_phi()}; }
AxisShape Shell::radial_shape() const { return {1, radial_.size(), radial_.size(), sphere_.physical_size()}; }
AxisShape Shell::angular_shape() const {
  return {radial_.size(), sphere_.physical_size(), sphere_.physical_size(), 1};
}

AxisOperator Shell::derivative(int coordinate) const {
  LOOM_REQUIRE(coordinate >= 0 && coordinate < 3, "Shell::derivative: coordinate out of range");
  if (coordinate == 0)
    return {radial_shape(), radial_.description() + "/derivative",
            [this](const double* in, double* out) { radial_.derivative(in, out); }};
  if (coordinate == 1)
    return {angular_shape(), sphere_.description() + "/d_theta",
            [this](const double* in, double* out) { sphere_.d_theta(in, out); }};
  return {angular_shape(), sphere_.description() + "/d_phi",
          [this](const double* in, double* out) { sphere_.d_phi(in, out); }};
}

int Shell::l_keep(const FilterSpec& spec) const {
  check_filter(spec);
  const int l = spec.l_keep < 0 ? sphere_.l_max() - 1 : spec.l_keep;
  if (l > sphere_.l_max())
    throw UsageError(io::invalid_value_message("filter.l_keep", std::int64_t{spec.l_keep},
                                               "-1 or an integer in [0, " + std::to_string(sphere_.l_max()) + "]"));
  return l;
}

std::vector<AxisOperator> Shell::filter(const FilterSpec& spec) const {
  const int l = l_keep(spec);
  return {exp_filter_operator(radial_, radial_shape(), spec),
          {angular_shape(), sphere_.description() + "/heaviside(l_keep=" + std::to_string(l) + ")",
           [this, l](const double* in, double* out) { sphere_.heaviside_filter(in, out, l); }}};
}

AxisOperator Shell::angular_transform(bool to_spectral) const {
  const Index nr = radial_.size(), np = sphere_.physical_size(), ns = sphere_.spectral_size();
  if (to_spectral)
    return {{nr, np, ns, 1}, sphere_.description() + "/to_spectral",
            [this](const double* in, double* out) { sphere_.to_spectral(in, out); }};
  return {{nr, ns, np, 1}, sphere_.description() + "/to_physical",
          [this](const double* in, double* out) { sphere_.to_physical(in, out); }};
}

AxisOperator Shell::radial_filter(const FilterSpec& spec) const {
  check_filter(spec);
  return exp_filter_operator(radial_, radial_shape(), spec);
}

std::vector<AxisOperator> Shell::separable(bool theta_derivative, bool phi_derivative, int l_top) const {
  const Index nr = radial_.size(), nt = sphere_.n_theta(), np = phi_.size();
  const AxisShape phi_shape{nr * nt, np, np, 1};
  AxisOperator forward{phi_shape, phi_.description() + "/to_spectral",
                       [this](const double* in, double* out) { phi_.to_spectral(in, out); }};
  AxisOperator theta{{nr, nt, nt, np},
                     sphere_.description() + "/separable_theta(" + (theta_derivative ? "d_theta" : "projection") +
                         ",l_top=" + std::to_string(l_top) + ")",
                     {},
                     np,
                     [this, theta_derivative, l_top](Index q, const double* in, double* out) {
                       sphere_.theta_operator(phi_.mode(static_cast<int>(q)), theta_derivative, l_top, in, out);
                     }};
  AxisOperator backward{phi_shape, phi_.description() + (phi_derivative ? "/derivative_to_physical" : "/to_physical"),
                        [this, phi_derivative](const double* in, double* out) {
                          if (!phi_derivative) return phi_.to_physical(in, out);
                          std::vector<double> d(phi_.size());
                          phi_.derivative_coefficients(in, d.data());
                          phi_.to_physical(d.data(), out);
                        }};
  return {std::move(forward), std::move(theta), std::move(backward)};
}

std::vector<AxisOperator> Shell::derivative_steps(int coordinate, AngularMethod m) const {
  if (coordinate == 0 || m == AngularMethod::dense) return {derivative(coordinate)};
  return separable(coordinate == 1, coordinate == 2, sphere_.l_max());
}

std::vector<AxisOperator> Shell::filter_steps(const FilterSpec& spec, AngularMethod m) const {
  if (m == AngularMethod::dense) return filter(spec);
  auto steps = separable(false, false, l_keep(spec));
  steps.insert(steps.begin(), exp_filter_operator(radial_, radial_shape(), spec));
  return steps;
}

std::array<std::vector<double>, 3> Shell::cartesian() const {
  const Index n = size();
  const int nr = radial_.size(), nt = sphere_.n_theta(), np = sphere_.n_phi();
  std::array<std::vector<double>, 3> x;
  for (auto& v : x) v.resize(static_cast<std::size_t>(n));
  for (int ip = 0; ip < np; ++ip)
    for (int it = 0; it < nt; ++it)
      for (int ir = 0; ir < nr; ++ir) {
        const Index p = ir + Index{nr} * (it + Index{nt} * ip);
        const double r = radii_[ir], th = sphere_.theta()[it], ph = sphere_.phi(ip);
        x[0][p] = r * std::sin(th) * std::cos(ph);
        x[1][p] = r * std::sin(th) * std::sin(ph);
        x[2][p] = r * std::cos(th);
      }
  return x;
}

// d xi / d x^i = (d xi / d r) n_i, d theta / d x^i = e_theta,i / r, d phi / d x^i = e_phi,i / (r sin theta).
std::vector<double> Shell::inverse_jacobian() const {
  const Index n = size();
  const int nr = radial_.size(), nt = sphere_.n_theta(), np = sphere_.n_phi();
  std::vector<double> jac(static_cast<std::size_t>(9 * n));
  for (int ip = 0; ip < np; ++ip)
    for (int it = 0; it < nt; ++it)
      for (int ir = 0; ir < nr; ++ir) {
        const Index p = ir + Index{nr} * (it + Index{nt} * ip);
        const double r = radii_[ir], th = sphere_.theta()[it], ph = sphere_.phi(ip), g = dxi_dr(map_, r);
        const double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
        const double rows[3][3] = {{g * st * cp, ct * cp / r, -sp / (r * st)},
                                   {g * st * sp, ct * sp / r, cp / (r * st)},
                                   {g * ct, -st / r, 0.0}};
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) jac[(3 * i + j) * n + p] = rows[i][j];
      }
  return jac;
}

std::vector<double> Shell::weights() const {
  const int nr = radial_.size(), nt = sphere_.n_theta(), np = sphere_.n_phi();
  std::vector<double> w(static_cast<std::size_t>(size()));
  for (int ip = 0; ip < np; ++ip)
    for (int it = 0; it < nt; ++it)
      for (int ir = 0; ir < nr; ++ir) {
        const double r = radii_[ir];  // dr = d xi / (d xi / d r)
        w[ir + Index{nr} * (it + Index{nt} * ip)] = radial_.weights()[ir] / dxi_dr(map_, r) * r * r * sphere_.weight(it, ip);
      }
  return w;
}

// The radial series evaluated at r on every angular point, then the S2 expansion of that at (theta, phi).
double Shell::interpolate(const double* u, const std::array<double, 3>& x) const {
  const int nr = radial_.size(), na = sphere_.physical_size();
  const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  double phi = std::atan2(x[1], x[0]);
  if (phi < 0) phi += 2 * std::numbers::pi;
  std::vector<double> line(nr), c(nr), angular(na), ylm(sphere_.spectral_size());
  for (int a = 0; a < na; ++a) {
    for (int ir = 0; ir < nr; ++ir) line[ir] = u[ir + Index{nr} * a];
    radial_.to_spectral(line.data(), c.data());
    angular[a] = radial_.evaluate(c.data(), radial_coordinate(map_, r));
  }
  sphere_.to_spectral(angular.data(), ylm.data());
  return sphere_.evaluate(ylm.data(), std::acos(x[2] / r), phi);
}

std::unique_ptr<Topology> make_topology(const std::string& topology, const std::array<int, 3>& extents,
                                        const std::array<double, 2>& radii,
                                        const std::array<BasisKind, 3>& cube_bases) {
  if (topology == "cube") {
    auto basis = [&](int d) {
      const bool periodic = cube_bases[d] == BasisKind::fourier;
      return Basis1D(cube_bases[d], extents[d], periodic ? 0.0 : -1.0, periodic ? 2 * std::numbers::pi : 1.0);
    };
    return std::make_unique<Cube>(basis(0), basis(1), basis(2));
  }
  if (topology == "shell") {
    if (extents[2] != 2 * extents[1])
      throw UsageError(io::invalid_value_message("extents", std::to_string(extents[0]) + "," +
                                                                std::to_string(extents[1]) + "," +
                                                                std::to_string(extents[2]),
                                                 "N_r,N_theta,N_phi with N_phi = 2 N_theta on a shell"));
    if (!(radii[1] > radii[0]))
      throw UsageError("radii: expected inner,outer with 0 < inner < outer");
    return std::make_unique<Shell>(extents[0], extents[1], radii[0], radii[1]);
  }
  throw UsageError(io::invalid_value_message("topology", topology, "one of cube, shell"));
}

}  // namespace loom::spectral
