// loom.spectral's tensors with symmetries (spectral-BH paper, section 3.3): a tensor is a component-major NumPy
// array (components, N) whose rows are the kind's stored components (components(kind) lists their index
// tuples); DiffJac (eq. 8) and SpatialCoordJac (eqs. 9-11) run on the backend asked for, each one kernel per
// tensor. Both kernels read loom's own arrays (core::Array), so their inputs are copied once into one.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/spectral/jacobian.hpp"
#include "loom/spectral/tensor.hpp"
#include "spectral_support.hpp"

namespace loom::python {
namespace {

std::vector<std::vector<int>> components(const std::string& kind) {
  const spectral::TensorShape s = spectral::shape_of(spectral::parse_tensor_kind(kind, "kind"));
  std::vector<std::vector<int>> out;
  for (int c = 0; c < s.components(); ++c) {
    int idx[3] = {0, 0, 0};
    s.indices(c, idx);
    out.emplace_back(idx, idx + s.rank);
  }
  return out;
}

int component(const std::string& kind, const std::vector<int>& indices) {
  const spectral::TensorShape s = spectral::shape_of(spectral::parse_tensor_kind(kind, "kind"));
  bool fits = int(indices.size()) == s.rank;
  for (int k = 0; fits && k < s.rank; ++k) fits = indices[k] >= 0 && indices[k] < s.dim[k];
  if (!fits)
    throw UsageError("indices: expected " + std::to_string(s.rank) + " indices, each below its range (4 for a, b; " +
                     "3 for i, j) for kind " + kind);
  return s.component(indices.data());
}

// The Jacobian (3, 3, N) as loom's array, N from its shape.
core::Array<double> jacobian_of(const DoubleArray& j) {
  if (j.ndim() != 3 || j.shape(0) != 3 || j.shape(1) != 3)
    throw UsageError("jacobian: expected an array of shape (3, 3, N), [i, j, point] = d xi^j / d x^i");
  return core::Array<double>::from(std::span<const double>(j.data(), std::size_t(j.size())));
}

core::Array<double> copy_of(const DoubleArray& a) {
  return core::Array<double>::from(std::span<const double>(a.data(), std::size_t(a.size())));
}

py::array_t<double> diff_jac(const DoubleArray& jacobian, const DoubleArray& du, const std::string& backend) {
  const core::Backend b = core::parse_backend(backend, "backend");
  const Index n = jacobian.ndim() == 3 ? jacobian.shape(2) : 0;
  if (du.ndim() != 3 || du.shape(0) != 3 || du.shape(2) != n || n == 0)
    throw UsageError("du: expected an array of shape (3, components, N), the logical derivatives d/d xi^j, with N = "
                     "the Jacobian's " + std::to_string(n) + " points");
  const int components = int(du.shape(1));
  core::Array<double> out(std::size_t(du.size()));
  locked([&] {
    const auto j = jacobian_of(jacobian);
    spectral::diff_jac(b, j, n, components, copy_of(du), out);
  });
  return to_numpy(std::move(out), {3, du.shape(1), py::ssize_t(n)});
}

py::array_t<double> spatial_coord_jac(const DoubleArray& jacobian, const DoubleArray& t, const std::string& kind,
                                      const std::string& backend) {
  const core::Backend b = core::parse_backend(backend, "backend");
  const spectral::TensorShape s = spectral::shape_of(spectral::parse_tensor_kind(kind, "kind"));
  const Index n = jacobian.ndim() == 3 ? jacobian.shape(2) : 0;
  if (t.ndim() != 2 || t.shape(0) != s.components() || t.shape(1) != n || n == 0)
    throw UsageError("t: expected an array of shape (" + std::to_string(s.components()) + ", N) for kind " + kind +
                     ", with N = the Jacobian's " + std::to_string(n) + " points");
  spectral::Tensor out(s, n);
  locked([&] {
    spectral::Tensor in(s, n);
    in.data = copy_of(t);
    spectral::spatial_coord_jac(b, jacobian_of(jacobian), in, out);
  });
  return to_numpy(std::move(out.data), {t.shape(0), t.shape(1)});
}

}  // namespace

void bind_spectral_tensor(py::module_& m) {
  m.def("components", &components, py::arg("kind"),
        "The stored components of a tensor kind (scalar, a, aa, ab, abb, iaa, i, ij, ii) as index tuples, in "
        "storage order: row c of a tensor array holds components(kind)[c]. Spacetime indices a, b run over 0..3 "
        "(0 the time), spatial i, j over 0..2; a symmetric pair is stored once, with p <= q.");
  m.def("component", &component, py::arg("kind"), py::arg("indices"),
        "The row of a tensor array holding the component with these indices (either order of a symmetric pair).");
  m.def("diff_jac", &diff_jac, py::arg("jacobian"), py::arg("du"), py::arg("backend") = "auto",
        "DiffJac (spectral-BH paper, eq. 8): T_{..,i} = sum_j J[i, j] T_{..,j}, for du of shape (3, components, N) "
        "(the logical derivatives d/d xi^j) and the inverse Jacobian J (3, 3, N), e.g. Topology.inverse_jacobian. "
        "Returns (3, components, N). The GIL is released meanwhile.");
  m.def("spatial_coord_jac", &spatial_coord_jac, py::arg("jacobian"), py::arg("t"), py::arg("kind"),
        py::arg("backend") = "auto",
        "SpatialCoordJac (spectral-BH paper, eqs. 9-11): every spatial index of the tensor t (components(kind), N) "
        "contracted with the Jacobian, out_{..i..} = sum_j J[i, j] t_{..j..}; the time components (index 0 of a "
        "spacetime slot) are left alone. Returns an array of t's shape. The GIL is released meanwhile.");
}

}  // namespace loom::python
