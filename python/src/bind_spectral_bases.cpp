// loom.spectral's one-dimensional bases (Chebyshev on Gauss-Lobatto points, Fourier on uniform points) and the
// sphere S2 (Gauss-Legendre theta times uniform phi, real Y_lm): their points and weights, PhysToSpec and
// SpecToPhys, derivatives, filters and evaluation, on the CPU (the FFT reference the toolkit's matrices are
// traced from). Transforms act along the last axis of any array, read in place when C-contiguous float64.
#include <pybind11/stl.h>

#include <functional>
#include <string>

#include "bindings.hpp"
#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/basis_1d.hpp"
#include "loom/spectral/sphere.hpp"
#include "spectral_support.hpp"

namespace loom::python {
namespace {

using LineMap = std::function<void(const double* in, double* out)>;

// f applied to every line (the last axis, n_in values) of u; the result's last axis holds n_out values.
py::array_t<double> map_lines(const DoubleArray& u, py::ssize_t n_in, py::ssize_t n_out, const char* name,
                              const LineMap& f) {
  if (u.ndim() < 1 || u.shape(u.ndim() - 1) != n_in)
    throw UsageError(std::string(name) + ": expected an array whose last axis has " + std::to_string(n_in) +
                     " values");
  std::vector<py::ssize_t> shape(u.shape(), u.shape() + u.ndim());
  shape.back() = n_out;
  py::array_t<double> out(shape);
  const py::ssize_t lines = n_in == 0 ? 0 : u.size() / n_in;
  const double* in = u.data();
  double* o = out.mutable_data();
  locked([&] {
    for (py::ssize_t k = 0; k < lines; ++k) f(in + k * n_in, o + k * n_out);
  });
  return out;
}

// Owned bases are destroyed under the toolkit's lock (FFTW's plans).
template <class T>
struct Locked {
  std::unique_ptr<T> b;
  template <class... A>
  explicit Locked(A&&... a) : b(locked([&] { return std::make_unique<T>(std::forward<A>(a)...); })) {}
  ~Locked() {
    std::lock_guard<std::mutex> hold(spectral_mutex());  // see spectral_mutex
    b.reset();
  }
};

using Basis = Locked<spectral::Basis1D>;
using Sphere = Locked<spectral::SphereBasis>;

py::array_t<double> values(const std::vector<double>& v) { return python::to_numpy(std::vector<double>(v)); }

void bind_basis(py::module_& m) {
  py::class_<Basis>(m, "_Basis")
      .def(py::init([](const std::string& kind, int n, double lower, double upper) {
        return std::make_unique<Basis>(spectral::parse_basis_kind(kind, "kind"), n, lower, upper, "n");
      }))
      .def_property_readonly(
          "kind", [](const Basis& b) { return std::string(spectral::to_string(b.b->kind())); }, "chebyshev or fourier")
      .def_property_readonly("size", [](const Basis& b) { return b.b->size(); }, "n, the number of points")
      .def_property_readonly(
          "interval", [](const Basis& b) { return std::make_pair(b.b->lower(), b.b->upper()); }, "(lower, upper)")
      .def_property_readonly(
          "points", [](const Basis& b) { return values(b.b->points()); }, "the collocation points, ascending")
      .def_property_readonly(
          "weights", [](const Basis& b) { return values(b.b->weights()); }, "quadrature weights on the interval")
      .def(
          "mode", [](const Basis& b, int k) { return b.b->mode(k); }, py::arg("k"),
          "the mode number of coefficient slot k (Chebyshev: k; Fourier: the wave number of a_k or b_k)")
      .def("_line", [](const Basis& b, const DoubleArray& u, const std::string& what) {
        const spectral::Basis1D& s = *b.b;
        const auto n = py::ssize_t(s.size());
        if (what == "to_spectral") return map_lines(u, n, n, "u", [&](auto i, auto o) { s.to_spectral(i, o); });
        if (what == "to_physical") return map_lines(u, n, n, "c", [&](auto i, auto o) { s.to_physical(i, o); });
        if (what == "derivative") return map_lines(u, n, n, "u", [&](auto i, auto o) { s.derivative(i, o); });
        return map_lines(u, n, n, "c", [&](auto i, auto o) { s.derivative_coefficients(i, o); });
      })
      .def("_exp_filter",
           [](const Basis& b, const DoubleArray& u, double alpha, int order) {
             if (order < 1) throw UsageError(io::invalid_value_message("order", std::int64_t{order}, "an integer >= 1"));
             const auto n = py::ssize_t(b.b->size());
             return map_lines(u, n, n, "u", [&](auto i, auto o) { b.b->exp_filter(i, o, alpha, order); });
           })
      .def("_evaluate", [](const Basis& b, const DoubleArray& c, double x) {
        as_values(c, "c", b.b->size());
        return locked([&] { return b.b->evaluate(c.data(), x); });
      });
}

void bind_sphere(py::module_& m) {
  py::class_<Sphere>(m, "_Sphere")
      .def(py::init([](int n_theta) { return std::make_unique<Sphere>(n_theta, "n_theta"); }))
      .def_property_readonly("n_theta", [](const Sphere& s) { return s.b->n_theta(); })
      .def_property_readonly("n_phi", [](const Sphere& s) { return s.b->n_phi(); }, "2 n_theta")
      .def_property_readonly("l_max", [](const Sphere& s) { return s.b->l_max(); }, "n_theta - 1")
      .def_property_readonly(
          "theta", [](const Sphere& s) { return values(s.b->theta()); }, "the n_theta Gauss-Legendre angles")
      .def_property_readonly("phi", [](const Sphere& s) {
        std::vector<double> p(std::size_t(s.b->n_phi()));
        for (int k = 0; k < s.b->n_phi(); ++k) p[std::size_t(k)] = s.b->phi(k);
        return python::to_numpy(std::move(p));
      }, "the n_phi uniform angles in [0, 2 pi)")
      .def_property_readonly("weights", [](const Sphere& s) {
        std::vector<double> w(std::size_t(s.b->physical_size()));
        for (int ip = 0; ip < s.b->n_phi(); ++ip)
          for (int it = 0; it < s.b->n_theta(); ++it) w[std::size_t(it + s.b->n_theta() * ip)] = s.b->weight(it, ip);
        return python::to_numpy(std::move(w));
      }, "quadrature weights on the unit sphere at every point, theta fastest")
      .def("_line", [](const Sphere& s, const DoubleArray& u, const std::string& what, int l_keep) {
        const spectral::SphereBasis& b = *s.b;
        const auto np = py::ssize_t(b.physical_size()), ns = py::ssize_t(b.spectral_size());
        if (what == "to_spectral") return map_lines(u, np, ns, "u", [&](auto i, auto o) { b.to_spectral(i, o); });
        if (what == "to_physical") return map_lines(u, ns, np, "c", [&](auto i, auto o) { b.to_physical(i, o); });
        if (what == "d_theta") return map_lines(u, np, np, "u", [&](auto i, auto o) { b.d_theta(i, o); });
        if (what == "d_phi") return map_lines(u, np, np, "u", [&](auto i, auto o) { b.d_phi(i, o); });
        if (l_keep < 0 || l_keep > b.l_max())
          throw UsageError(io::invalid_value_message("l_keep", std::int64_t{l_keep},
                                                     "an integer in [0, " + std::to_string(b.l_max()) + "]"));
        return map_lines(u, np, np, "u", [&](auto i, auto o) { b.heaviside_filter(i, o, l_keep); });
      })
      .def("_evaluate", [](const Sphere& s, const DoubleArray& c, double theta, double phi) {
        as_values(c, "c", s.b->spectral_size());
        return locked([&] { return s.b->evaluate(c.data(), theta, phi); });
      });
}

}  // namespace

void bind_spectral_bases(py::module_& m) {
  bind_basis(m);
  bind_sphere(m);
}

}  // namespace loom::python
