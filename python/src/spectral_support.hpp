// What loom.spectral's bindings share: one lock for the toolkit (its bases own FFTW buffers and plans, and FFTW's
// planner and the operator tables are not thread-safe, so calls run one at a time, with the GIL released so that
// other Python threads run meanwhile), the backend and strategy from their Python names, fields as
// component-major arrays ((N,) or (components, N)) read in place on the host, and results handed to NumPy
// without a copy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/spectral/apply.hpp"
#include "numpy_arrays.hpp"

namespace loom::python {

// The lock every loom.spectral computation holds, with the GIL released (locked() does both). No holder ever
// waits for the GIL (locked() unlocks it before taking the GIL back), so a destructor, called with the GIL held,
// may take it too: it waits for a running computation, which then ends without needing the GIL.
std::mutex& spectral_mutex();

// Runs f() with the GIL released and the toolkit's lock held.
template <class F>
decltype(auto) locked(F&& f) {
  py::gil_scoped_release unlocked;
  std::lock_guard<std::mutex> hold(spectral_mutex());
  return f();
}

// backend "cpu", "cuda" or "auto" and strategy None (cpu: blas, cuda: batched) or a name (reference, blas,
// batched, streamed, fused); UsageError naming the key when they disagree or the backend is absent.
spectral::Strategy resolve_strategy(const std::string& backend, const std::optional<std::string>& strategy);

// A field of `points` values per component: shape (points,) or (components, points).
struct Field {
  const double* host = nullptr;
  Index components = 1;
  std::vector<py::ssize_t> shape;  // the caller's
};
Field as_field(const DoubleArray& u, Index points, const char* name = "u");

// A pointer to `values` on side w: the host array itself (no copy), or a device copy kept in `keep`.
const double* on_side(const double* values, std::size_t count, core::Where w, core::Array<double>& keep);

// loom's array as a NumPy array of `shape` over its host copy (copied from the device when that is the valid
// side), owned by a capsule: no copy on the host.
py::array_t<double> to_numpy(core::Array<double>&& a, const std::vector<py::ssize_t>& shape);

// shape with `extra` dimensions in front (a gradient's 3, a Jacobian's 3 x 3).
std::vector<py::ssize_t> prepend(std::vector<py::ssize_t> shape, std::initializer_list<py::ssize_t> extra);

}  // namespace loom::python
