// loom.fmm: the FMM's one-shot evaluations (fmm::laplace, fmm::biot_savart, what `loom fmm` runs) on NumPy arrays,
// with the GIL released while they evaluate.
#include <pybind11/stl.h>

#include <algorithm>
#include <string>

#include "bindings.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/precision.hpp"
#include "numpy_arrays.hpp"

namespace loom::python {
namespace {

struct Accuracy {
  int p;
  double theta;
  std::string backend;
  py::object periodic;
  int ncrit;
  std::string precision;
  int image_levels;
  double guard = 6;  // Biot-Savart only
};

// None: open boundaries; L: the cube [-L/2, L/2)^3; (lower, L): the cube [lower, lower + L)^3.
void set_periodic(fmm::Options& o, const py::object& periodic) {
  if (periodic.is_none()) return;
  o.periodic = true;
  if (py::isinstance<py::tuple>(periodic) || py::isinstance<py::list>(periodic)) {
    const auto box = periodic.cast<py::sequence>();
    const auto lower = box.size() == 2 ? box[0].cast<std::vector<double>>() : std::vector<double>{};
    if (lower.size() != 3) throw py::value_error("periodic: expected None, a period L or (lower_xyz, L)");
    o.period = box[1].cast<double>();
    o.box_lower = {lower[0], lower[1], lower[2]};
  } else {
    o.period = periodic.cast<double>();
    o.box_lower = {-o.period / 2, -o.period / 2, -o.period / 2};
  }
}

fmm::Options options(const Accuracy& a) {
  fmm::Options o;
  o.order = a.p;
  o.theta = a.theta;
  o.ncrit = a.ncrit;
  o.backend = core::parse_backend(a.backend, "backend");
  o.precision = fmm::parse_precision(a.precision);
  o.image_levels = a.image_levels;
  o.guard = a.guard;
  set_periodic(o, a.periodic);
  fmm::validate(o);  // the CLI's checks: UsageError naming the option
  return o;
}

py::dict timings(const fmm::Timings& t) {
  py::dict d;
  d["build"] = t.build, d["upward"] = t.upward, d["traversal"] = t.traversal, d["m2l"] = t.m2l;
  d["p2p"] = t.p2p, d["downward"] = t.downward, d["transfer"] = t.transfer, d["call"] = t.call;
  d["evaluation"] = t.evaluation(), d["total"] = t.total();
  return d;
}

py::dict statistics(const fmm::Statistics& s) {
  py::dict d;
  d["bodies"] = s.bodies, d["cells"] = s.cells, d["leaves"] = s.leaves, d["levels"] = s.levels;
  d["m2l_pairs"] = s.m2l_pairs, d["p2p_pairs"] = s.p2p_pairs, d["p2p_interactions"] = s.p2p_interactions;
  return d;
}

// Two arrays that unpack like a tuple (`phi, grad = loom.fmm.laplace(x, q)`), with the phase timings (seconds)
// and the tree's statistics as attributes.
// One C++ type per kernel: pybind11 registers a type once.
template <fmm::Kernel kernel>
struct Result {
  py::object first, second;
  py::dict timings, statistics;
};

template <fmm::Kernel kernel>
Result<kernel> result(const fmm::Timings& t, const fmm::Statistics& s, py::array_t<double> first,
                      py::array_t<double> second) {
  return {std::move(first), std::move(second), timings(t), statistics(s)};
}

template <fmm::Kernel kernel>
void bind_result(py::module_& m, const char* name, const char* first, const char* second, const char* doc) {
  using R = Result<kernel>;
  py::class_<R>(m, name, doc)
      .def_readonly(first, &R::first)
      .def_readonly(second, &R::second)
      .def_readonly("timings", &R::timings, "seconds per phase (build, upward, traversal, m2l, p2p, ...)")
      .def_readonly("statistics", &R::statistics, "the tree: bodies, cells, leaves, levels, pairs")
      .def("__len__", [](const R&) { return 2; })
      .def("__iter__", [](const R& r) { return py::iter(py::make_tuple(r.first, r.second)); })
      .def("__getitem__", [](const R& r, int i) {
        if (i == 0 || i == -2) return r.first;
        if (i == 1 || i == -1) return r.second;
        throw py::index_error("a result holds two arrays");
      });
}

Result<fmm::Kernel::laplace> laplace(const DoubleArray& x, const DoubleArray& q, const Accuracy& accuracy) {
  const auto positions = as_vectors<fmm::Vec3d>(x, "x");
  const auto charges = as_values(q, "q", x.shape(0));
  const fmm::Options o = options(accuracy);
  fmm::LaplaceResult r;
  {
    py::gil_scoped_release unlocked;
    r = fmm::laplace(positions, charges, o);
  }
  return result<fmm::Kernel::laplace>(r.time, r.stats, to_numpy(std::move(r.potential)),
                                      vectors_to_numpy(std::move(r.gradient)));
}

Result<fmm::Kernel::biot_savart> biot_savart(const DoubleArray& x, const DoubleArray& alpha, const py::object& sigma,
                                             const Accuracy& accuracy) {
  const auto positions = as_vectors<fmm::Vec3d>(x, "x");
  const auto strengths = as_vectors<fmm::Vec3d>(alpha, "alpha");
  if (strengths.size() != positions.size()) throw py::value_error("alpha: expected one strength per body (n, 3)");
  // A scalar core radius is spread to one per body (loom takes one per body): the only copy made here.
  const bool one_radius = py::isinstance<py::float_>(sigma) || py::isinstance<py::int_>(sigma);
  DoubleArray radii = one_radius ? DoubleArray(x.shape(0)) : sigma.cast<DoubleArray>();
  if (one_radius) std::fill(radii.mutable_data(), radii.mutable_data() + radii.size(), sigma.cast<double>());
  const auto cores = as_values(radii, "sigma", x.shape(0));
  const fmm::Options o = options(accuracy);
  fmm::BiotSavartResult r;
  {
    py::gil_scoped_release unlocked;
    r = fmm::biot_savart(positions, strengths, cores, o);
  }
  return result<fmm::Kernel::biot_savart>(r.time, r.stats, vectors_to_numpy(std::move(r.velocity)),
                                          vectors_to_numpy(std::move(r.stretching)));
}

const char* laplace_doc = R"(Laplace potential and gradient of point charges by the FMM (what `loom fmm` runs).

    phi_i = sum_{j != i} q_j / |x_i - x_j|,   gradient_i = grad_{x_i} phi_i

x: (n, 3) positions, q: (n,) charges. C-contiguous float64 arrays are read in place; any other array is
converted to one first (one copy). p: expansion order (degrees 0..p-1); theta: multipole acceptance criterion
in (0, 1); backend: "cpu", "cuda" or "auto" (the fastest present); periodic: None, a period L (the cube
[-L/2, L/2)^3, every body inside, sum q = 0) or (lower_xyz, L); ncrit: most bodies per leaf; precision: the GPU
kernels' arithmetic ("single", "single-fast", "double"); image_levels: periodic image levels beyond the 3^3 near
images. The GIL is released while the FMM evaluates.

Returns (potential (n,), gradient (n, 3)), which unpacks as a tuple and carries .timings (seconds per phase) and
.statistics (the tree). Bad input raises ValueError with loom's one-line message.)";

const char* biot_savart_doc = R"(Regularised Biot-Savart velocity and stretching of vortex particles by the FMM.

    u_i = (1/4pi) sum_j g(rho)/|r|^3 (alpha_j x r),   s_i = (alpha_i . grad) u (x_i)
    g(rho) = erf(rho/sqrt2) - sqrt(2/pi) rho e^{-rho^2/2},  rho = |r| / sigma_j,  r = x_i - x_j

x: (n, 3) positions, alpha: (n, 3) strengths, sigma: one core radius for all, or (n,) per body. guard: M2L only
for cells also this many core radii apart. The other options are those of laplace(). The GIL is released while
the FMM evaluates.

Returns (velocity (n, 3), stretching (n, 3)), which unpacks as a tuple and carries .timings and .statistics.)";

}  // namespace

void bind_fmm(py::module_& m) {
  bind_result<fmm::Kernel::laplace>(m, "LaplaceResult", "potential", "gradient",
                                    "loom.fmm.laplace's result: (potential, gradient)");
  bind_result<fmm::Kernel::biot_savart>(m, "BiotSavartResult", "velocity", "stretching",
              "loom.fmm.biot_savart's result: (velocity, stretching)");
  m.def(
      "laplace",
      [](const DoubleArray& x, const DoubleArray& q, int p, double theta, const std::string& backend,
         const py::object& periodic, int ncrit, const std::string& precision, int image_levels) {
        return laplace(x, q, {p, theta, backend, periodic, ncrit, precision, image_levels});
      },
      laplace_doc, py::arg("x"), py::arg("q"), py::kw_only(), py::arg("p") = 10, py::arg("theta") = 0.4,
      py::arg("backend") = "auto", py::arg("periodic") = py::none(), py::arg("ncrit") = 64,
      py::arg("precision") = "single", py::arg("image_levels") = 6);
  m.def(
      "biot_savart",
      [](const DoubleArray& x, const DoubleArray& alpha, const py::object& sigma, int p, double theta,
         const std::string& backend, const py::object& periodic, int ncrit, const std::string& precision,
         int image_levels, double guard) {
        return biot_savart(x, alpha, sigma, {p, theta, backend, periodic, ncrit, precision, image_levels, guard});
      },
      biot_savart_doc, py::arg("x"), py::arg("alpha"), py::arg("sigma"), py::kw_only(), py::arg("p") = 10,
      py::arg("theta") = 0.4, py::arg("backend") = "auto", py::arg("periodic") = py::none(), py::arg("ncrit") = 64,
      py::arg("precision") = "single", py::arg("image_levels") = 6, py::arg("guard") = 6.0);
  m.def("_input_address", &input_address, py::arg("a"),
        "The address loom reads for array `a` (equal to a.ctypes.data when no copy is made); for tests.");
}

}  // namespace loom::python
