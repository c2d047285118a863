#include "spectral_support.hpp"

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::python {

std::mutex& spectral_mutex() {
  static std::mutex m;
  return m;
}

spectral::Strategy resolve_strategy(const std::string& backend, const std::optional<std::string>& strategy) {
  if (!strategy) {
    const core::Backend b = core::parse_backend(backend, "backend");
    return b == core::Backend::cpu ? spectral::Strategy::blas : spectral::Strategy::batched;
  }
  const spectral::Strategy s = spectral::parse_strategy(*strategy, "strategy");
  const core::Backend b = spectral::backend_of(s);
  if (backend != "auto" && core::parse_backend(backend, "backend") != b)
    throw UsageError(io::invalid_value_message("strategy", *strategy,
                                               b == core::Backend::cpu ? "batched, streamed or fused with backend cuda"
                                                                       : "reference or blas with backend cpu"));
  if (!core::backend_available(b))
    throw UsageError(io::invalid_value_message("strategy", *strategy, "reference or blas (no CUDA device present)"));
  return s;
}

Field as_field(const DoubleArray& u, Index points, const char* name) {
  const bool one = u.ndim() == 1 && u.shape(0) == points;
  const bool many = u.ndim() == 2 && u.shape(1) == points && u.shape(0) > 0;
  if (!one && !many)
    throw UsageError(std::string(name) + ": expected an array of shape (" + std::to_string(points) +
                     ",) or (components, " + std::to_string(points) + "), one value per collocation point");
  return {u.data(), many ? Index(u.shape(0)) : 1, std::vector<py::ssize_t>(u.shape(), u.shape() + u.ndim())};
}

const double* on_side(const double* values, std::size_t count, core::Where w, core::Array<double>& keep) {
  if (w == core::Where::host) return values;
  keep = core::Array<double>::from(std::span<const double>(values, count));
  return keep.read(w);
}

py::array_t<double> to_numpy(core::Array<double>&& a, const std::vector<py::ssize_t>& shape) {
  auto* owner = new core::Array<double>(std::move(a));
  const double* host = owner->read(core::Where::host);
  py::capsule free_when_done(owner, [](void* p) { delete static_cast<core::Array<double>*>(p); });
  return py::array_t<double>(shape, host, free_when_done);
}

std::vector<py::ssize_t> prepend(std::vector<py::ssize_t> shape, std::initializer_list<py::ssize_t> extra) {
  shape.insert(shape.begin(), extra);
  return shape;
}

}  // namespace loom::python
