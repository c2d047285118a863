#include "loom/spectral/axis_operator.hpp"

#include <vector>

namespace loom::spectral {

void apply_reference(const AxisOperator& op, Index components, const double* in, double* out) {
  const AxisShape& s = op.shape;
  std::vector<double> a(static_cast<std::size_t>(s.n_in)), b(static_cast<std::size_t>(s.n_out));
  for (Index c = 0; c < components * s.outer; ++c) {
    const double* x = in + c * s.inner * s.n_in;
    double* y = out + c * s.inner * s.n_out;
    for (Index i = 0; i < s.inner; ++i) {
      for (Index k = 0; k < s.n_in; ++k) a[k] = x[i + s.inner * k];
      op.apply_line(c % s.outer % op.blocks, a.data(), b.data());
      for (Index k = 0; k < s.n_out; ++k) y[i + s.inner * k] = b[k];
    }
  }
}

}  // namespace loom::spectral
