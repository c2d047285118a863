// loom.spectral's topologies (the cube I1 x I1 x I1 and the shell I1 x S2): collocation points, weights, the
// inverse Jacobian, derivatives, the logical and Cartesian gradients, filters, the shell's angular transforms,
// interpolation and integration, each on the backend asked for. A Topology keeps its operator cache, so each
// matrix is traced once per object, as in a run.
#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <string>

#include "bindings.hpp"
#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/jacobian.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/topology.hpp"
#include "spectral_support.hpp"

namespace loom::python {
namespace {

using spectral::AngularMethod;
using spectral::AxisOperator;
using spectral::Strategy;
using Choice = std::optional<std::string>;

std::unique_ptr<spectral::Topology> make(const std::string& name, const std::array<int, 3>& extents,
                                         const std::array<double, 2>& radii,
                                         const std::array<std::string, 3>& bases) {
  std::array<spectral::BasisKind, 3> kinds{};
  for (int d = 0; d < 3; ++d) kinds[d] = spectral::parse_basis_kind(bases[d], "bases");
  return locked([&] { return spectral::make_topology(name, extents, radii, kinds); });
}

class Topology {
 public:
  Topology(const std::string& name, const std::array<int, 3>& extents, const std::array<double, 2>& radii,
           const std::array<std::string, 3>& bases)
      : t_(make(name, extents, radii, bases)) {}
  ~Topology() {
    std::lock_guard<std::mutex> hold(spectral_mutex());  // the bases' FFTW plans (see spectral_mutex)
    t_.reset();
  }
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  std::string name() const { return t_->name(); }
  std::array<int, 3> extents() const { return t_->extents(); }
  Index size() const { return t_->size(); }

  py::array_t<double> points() const {
    const auto x = locked([&] { return t_->cartesian(); });
    py::array_t<double> out({py::ssize_t{3}, py::ssize_t(size())});
    for (int d = 0; d < 3; ++d) std::copy(x[d].begin(), x[d].end(), out.mutable_data(d, 0));
    return out;
  }
  py::array_t<double> weights() const {
    const auto w = locked([&] { return t_->weights(); });
    return python::to_numpy(std::vector<double>(w));
  }
  py::array_t<double> inverse_jacobian() const {
    const auto j = locked([&] { return t_->inverse_jacobian(); });
    py::array_t<double> out({py::ssize_t{3}, py::ssize_t{3}, py::ssize_t(size())});
    std::copy(j.begin(), j.end(), out.mutable_data());
    return out;
  }

  py::array_t<double> derivative(const DoubleArray& u, int coordinate, const std::string& backend,
                                 const Choice& strategy, const std::string& angular) {
    if (coordinate < 0 || coordinate > 2)
      throw UsageError(io::invalid_value_message("coordinate", std::int64_t{coordinate},
                                                 "0, 1 or 2 (cube: x, y, z; shell: r, theta, phi)"));
    const auto steps = t_->derivative_steps(coordinate, spectral::parse_angular_method(angular, "angular"));
    return run_steps(steps, as_field(u, size()), resolve_strategy(backend, strategy), {});
  }

  py::array_t<double> filter(const DoubleArray& u, double alpha, int order, int l_keep, const std::string& backend,
                             const Choice& strategy, const std::string& angular) {
    const spectral::FilterSpec spec{alpha, order, l_keep};
    const auto steps = t_->filter_steps(spec, spectral::parse_angular_method(angular, "angular"));
    return run_steps(steps, as_field(u, size()), resolve_strategy(backend, strategy), {});
  }

  // The shell's angular PhysToSpec (values to Y_lm coefficients per radius) or SpecToPhys, flat per component.
  py::array_t<double> angular_transform(const DoubleArray& u, bool to_spectral, const std::string& backend,
                                        const Choice& strategy) {
    const auto* shell = dynamic_cast<const spectral::Shell*>(t_.get());
    if (!shell) throw UsageError("to_spectral, to_physical: a shell's angular transform (use loom.spectral.Basis on a cube)");
    const AxisOperator op = shell->angular_transform(to_spectral);
    const Field f = as_field(u, op.shape.input_size(), to_spectral ? "u" : "c");
    auto shape = f.shape;
    shape.back() = op.shape.output_size();
    return run_steps({op}, f, resolve_strategy(backend, strategy), shape);
  }

  py::array_t<double> gradient(const DoubleArray& u, bool cartesian, const std::string& backend,
                               const Choice& strategy, const std::string& angular) {
    const Field f = as_field(u, size());
    const Strategy s = resolve_strategy(backend, strategy);
    const spectral::Differentiator d(*t_, spectral::parse_angular_method(angular, "angular"));
    if (!d.supports(s))
      throw UsageError(io::invalid_value_message("strategy", std::string(spectral::to_string(s)),
                                                 "a strategy whose matrices fit (batched or streamed)"));
    const core::Where w = core::where(spectral::backend_of(s));
    const auto n = static_cast<std::size_t>(3 * f.components * size());
    core::Array<double> logical(n), out(cartesian ? n : 0);
    locked([&] {
      core::Array<double> device_in;
      d.logical_gradient(s, cache_, f.components, on_side(f.host, n / 3, w, device_in), logical.write(w));
      if (cartesian)
        spectral::diff_jac(spectral::backend_of(s), jacobian(), size(), int(f.components), logical, out);
    });
    return python::to_numpy(std::move(cartesian ? out : logical), prepend(f.shape, {3}));
  }

  py::object interpolate(const DoubleArray& u, const DoubleArray& x) const {
    const Field f = as_field(u, size());
    if (x.ndim() != 2 || x.shape(1) != 3) throw UsageError("x: expected an array of shape (m, 3), Cartesian points");
    const py::ssize_t m = x.shape(0);
    py::array_t<double> out(f.shape.size() == 1 ? std::vector<py::ssize_t>{m} : std::vector<py::ssize_t>{f.shape[0], m});
    double* o = out.mutable_data();
    const double* p = x.data();
    locked([&] {
      for (Index c = 0; c < f.components; ++c)
        for (py::ssize_t k = 0; k < m; ++k)
          o[c * m + k] = t_->interpolate(f.host + c * size(), {p[3 * k], p[3 * k + 1], p[3 * k + 2]});
    });
    return out;
  }

  // The quadrature sum_p w_p u_p per component: a float for a scalar field, an array for (components, N).
  py::object integrate(const DoubleArray& u) const {
    const Field f = as_field(u, size());
    std::vector<double> sums(static_cast<std::size_t>(f.components), 0.0);
    locked([&] {
      const auto w = t_->weights();
      for (Index c = 0; c < f.components; ++c)
        for (Index p = 0; p < size(); ++p) sums[c] += w[p] * f.host[c * size() + p];
    });
    if (f.shape.size() == 1) return py::float_(sums[0]);
    return python::to_numpy(std::move(sums));
  }

 private:
  // Applies the operator sequence to every component; the result has `shape` (default: the input's).
  py::array_t<double> run_steps(const std::vector<AxisOperator>& steps, const Field& f, Strategy s,
                                std::vector<py::ssize_t> shape) {
    for (const auto& op : steps)
      if (!spectral::supports(s, op))
        throw UsageError(io::invalid_value_message("strategy", std::string(spectral::to_string(s)),
                                                   "a strategy whose matrices fit (batched or streamed)"));
    const core::Where w = core::where(spectral::backend_of(s));
    core::Array<double> out(static_cast<std::size_t>(f.components * steps.back().shape.output_size()));
    locked([&] {
      core::Array<double> device_in;
      const auto n = static_cast<std::size_t>(f.components * steps.front().shape.input_size());
      spectral::apply_steps(s, cache_, steps, f.components, on_side(f.host, n, w, device_in), out.write(w));
    });
    return python::to_numpy(std::move(out), shape.empty() ? f.shape : shape);
  }

  // The inverse Jacobian as DiffJac reads it, made on first use (call with the lock held).
  const core::Array<double>& jacobian() {
    if (jacobian_.empty()) jacobian_ = core::Array<double>::from(t_->inverse_jacobian());
    return jacobian_;
  }

  std::unique_ptr<spectral::Topology> t_;
  spectral::OperatorCache cache_;
  core::Array<double> jacobian_;
};

}  // namespace

void bind_spectral_topology(py::module_& m) {
  py::class_<Topology>(m, "_Topology", "One spectral element (use loom.spectral.Cube or loom.spectral.Shell).")
      .def(py::init<const std::string&, const std::array<int, 3>&, const std::array<double, 2>&,
                    const std::array<std::string, 3>&>(),
           py::arg("topology"), py::arg("extents"), py::arg("radii"), py::arg("bases"))
      .def_property_readonly("name", &Topology::name, "cube or shell")
      .def_property_readonly("extents", &Topology::extents,
                             "points per logical coordinate (cube: x, y, z; shell: N_r, N_theta, N_phi)")
      .def_property_readonly("size", &Topology::size, "N, the number of collocation points")
      .def_property_readonly("points", &Topology::points,
                             "the collocation points' Cartesian coordinates, shape (3, N): x, y, z = t.points")
      .def_property_readonly("weights", &Topology::weights, "quadrature weights (N,): integral = weights @ u")
      .def_property_readonly("inverse_jacobian", &Topology::inverse_jacobian,
                             "d xi^j / d x^i at every point, shape (3, 3, N) indexed [i, j, point]")
      .def("_derivative", &Topology::derivative)
      .def("_filter", &Topology::filter)
      .def("_angular_transform", &Topology::angular_transform)
      .def("_gradient", &Topology::gradient)
      .def("_interpolate", &Topology::interpolate)
      .def("_integrate", &Topology::integrate);
}

}  // namespace loom::python
