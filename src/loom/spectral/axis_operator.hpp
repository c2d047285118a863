// A linear operator along one group of a grid's axes (spectral-BH paper, eqs. 19-24): a field of
// inner x n_in x outer values (inner fastest) becomes inner x n_out x outer values, each of the inner * outer
// lines mapped by the same n_out x n_in matrix. Every spectral operation on a cube or a shell is one or a
// sequence of these: a Chebyshev derivative along r is (1, N_r, N_theta N_phi); an angular derivative on a shell
// is (N_r, N_theta N_phi, 1). `line` is the reference (FFT-based) map of one line; `key` names what makes the
// operator mathematically new (basis, extents, operation, parameters), for the operator cache.
#pragma once

#include <functional>
#include <string>

#include "loom/core/host_device.hpp"

namespace loom::spectral {

struct AxisShape {
  Index inner = 1, n_in = 1, n_out = 1, outer = 1;
  Index input_size() const { return inner * n_in * outer; }
  Index output_size() const { return inner * n_out * outer; }
};

// blocks = 1: one matrix for every line. blocks = shape.outer: the matrix depends on the outer index (the
// separable S2 path's per-m theta operators); `line` then receives the outer index as `block`.
struct AxisOperator {
  AxisShape shape;
  std::string key;
  std::function<void(const double* in, double* out)> line;
  Index blocks = 1;
  std::function<void(Index block, const double* in, double* out)> block_line = {};

  void apply_line(Index block, const double* in, double* out) const {
    if (blocks == 1)
      line(in, out);
    else
      block_line(block, in, out);
  }
};

// Applies the reference line map to every line of `components` consecutive fields (component-major).
void apply_reference(const AxisOperator& op, Index components, const double* in, double* out);

}  // namespace loom::spectral
