// NumPy arrays across the binding without copies where the layout allows: C-contiguous float64 inputs are read
// in place (a (n, 3) array as n Vec3d, whose three doubles are contiguous); any other input (float32, strided,
// Fortran order) is converted once by pybind11, because loom's kernels read contiguous doubles. Results move
// from loom's std::vector into the NumPy array's owner (a capsule), so they are never copied either.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <vector>

namespace loom::python {

namespace py = pybind11;

// What loom reads in place: C order, float64; anything else becomes such an array (one copy).
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// An (n, 3) array as n 3-vectors of doubles; throws ValueError (naming `name`) for another shape.
template <class Vec3>
std::span<const Vec3> as_vectors(const DoubleArray& a, const char* name) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "a 3-vector must be three packed doubles");
  if (a.ndim() != 2 || a.shape(1) != 3)
    throw py::value_error(std::string(name) + ": expected an array of shape (n, 3)");
  return {reinterpret_cast<const Vec3*>(a.data()), static_cast<std::size_t>(a.shape(0))};
}

// A 1-D array of `n` values (n < 0: any length); throws ValueError naming `name` otherwise.
std::span<const double> as_values(const DoubleArray& a, const char* name, py::ssize_t n = -1);

// The address loom reads for `a` (the test of zero-copy compares it with the caller's array).
std::uintptr_t input_address(const DoubleArray& a);

// A vector's memory handed to NumPy: shape (size,) or, for 3-vectors, (size, 3); no copy.
py::array_t<double> to_numpy(std::vector<double>&& v);
template <class Vec3>
py::array_t<double> vectors_to_numpy(std::vector<Vec3>&& v) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "a 3-vector must be three packed doubles");
  auto* owner = new std::vector<Vec3>(std::move(v));
  py::capsule free_when_done(owner, [](void* p) { delete static_cast<std::vector<Vec3>*>(p); });
  const auto n = static_cast<py::ssize_t>(owner->size());
  return py::array_t<double>({n, py::ssize_t{3}}, reinterpret_cast<const double*>(owner->data()), free_when_done);
}

}  // namespace loom::python
