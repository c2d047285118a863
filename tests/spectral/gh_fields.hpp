// The GH state's fields for the spectral tests of several tensors in one call (T_aa, T_iaa, T_aa: 50 random
// components), the FFT reference's gradient of each tensor alone, and the lists and maps the routes take.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/spectral/operations.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral::gh {

using fields::random_array;

struct Fields {
  std::vector<Tensor> tensors;
  std::vector<const Tensor*> in;
  std::vector<Tensor*> in_mut;
  Index components = 0;
};

inline Fields gh_fields(Index n, unsigned first_seed = 3) {
  Fields f;
  unsigned seed = first_seed;
  for (auto kind : {TensorKind::aa, TensorKind::iaa, TensorKind::aa}) {
    Tensor t(shape_of(kind), n);
    t.data = random_array(t.components() * n, seed++);
    f.components += t.components();
    f.tensors.push_back(std::move(t));
  }
  for (auto& t : f.tensors) f.in.push_back(&t), f.in_mut.push_back(&t);
  return f;
}

inline double relative_difference(const core::Array<double>& a, const core::Array<double>& b) {
  const double *x = a.read(core::Where::host), *y = b.read(core::Where::host);
  double scale = 0, e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(x[i]));
    e = std::max(e, std::abs(x[i] - y[i]));
  }
  return e / scale;
}

// The gradient of each tensor alone by the FFT reference, dense angular route.
inline std::vector<core::Array<double>> reference_gradients(const Shell& s, const Fields& f,
                                                            const core::Array<double>& ij) {
  OperatorCache cache;
  const Differentiator d(s, AngularMethod::dense);
  std::vector<core::Array<double>> out;
  for (const Tensor& t : f.tensors) {
    core::Array<double> scratch(3 * t.components() * s.size());
    out.emplace_back(3 * t.components() * s.size());
    d.cartesian_gradient(Strategy::reference, cache, ij, t, scratch, out.back());
  }
  return out;
}

inline std::vector<core::Array<double>> outputs(const Fields& f, Index values_per_component) {
  std::vector<core::Array<double>> out;
  for (const Tensor& t : f.tensors) out.emplace_back(values_per_component * t.components() * t.points);
  return out;
}

inline std::vector<core::Array<double>*> pointers(std::vector<core::Array<double>>& v) {
  std::vector<core::Array<double>*> p;
  for (auto& a : v) p.push_back(&a);
  return p;
}

// The tensors as inputs and out[t] as outputs on the host, or the tensors in place when out is null.
inline sweep::ComponentMap host_map(std::vector<Tensor>& tensors, std::vector<core::Array<double>>* out) {
  std::vector<const double*> from;
  std::vector<double*> to;
  std::vector<Index> comps;
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    double* o = out ? (*out)[t].write(core::Where::host) : tensors[t].data.read_write(core::Where::host);
    from.push_back(out ? tensors[t].data.read(core::Where::host) : o);
    to.push_back(o);
    comps.push_back(tensors[t].components());
  }
  return component_map(from, to, comps);
}

// The tensors as inputs and out[t] as outputs on the device.
inline sweep::ComponentMap device_map(const std::vector<Tensor>& tensors, std::vector<core::Array<double>>& out) {
  std::vector<const double*> from;
  std::vector<double*> to;
  std::vector<Index> comps;
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    from.push_back(tensors[t].data.read(core::Where::device));
    to.push_back(out[t].write(core::Where::device));
    comps.push_back(tensors[t].components());
  }
  return component_map(from, to, comps);
}

}  // namespace loom::spectral::gh
