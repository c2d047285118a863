#include "numpy_arrays.hpp"

namespace loom::python {

std::span<const double> as_values(const DoubleArray& a, const char* name, py::ssize_t n) {
  if (a.ndim() != 1 || (n >= 0 && a.shape(0) != n))
    throw py::value_error(std::string(name) + ": expected a 1-D array" +
                          (n >= 0 ? " of " + std::to_string(n) + " values (one per body)" : std::string()));
  return {a.data(), static_cast<std::size_t>(a.shape(0))};
}

std::uintptr_t input_address(const DoubleArray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); }

py::array_t<double> to_numpy(std::vector<double>&& v) {
  auto* owner = new std::vector<double>(std::move(v));
  py::capsule free_when_done(owner, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({static_cast<py::ssize_t>(owner->size())}, owner->data(), free_when_done);
}

}  // namespace loom::python
