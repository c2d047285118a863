// The evaluator's options and the names of its enums (fmm.hpp, precision.hpp, kernels/kernel.hpp).
#include <string>

#include "loom/core/error.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm {

std::string_view to_string(Kernel k) { return k == Kernel::laplace ? "laplace" : "biot-savart"; }

Kernel parse_kernel(std::string_view text) {
  if (text == "laplace") return Kernel::laplace;
  if (text == "biot-savart") return Kernel::biot_savart;
  throw UsageError("kernel = \"" + std::string(text) + "\": expected one of laplace, biot-savart");
}

Precision parse_precision(std::string_view text) {
  if (text == "single") return Precision::single;
  if (text == "single-fast") return Precision::single_fast;
  if (text == "double") return Precision::double_;
  throw UsageError("precision = \"" + std::string(text) + "\": expected one of single, single-fast, double");
}

std::string_view to_string(Precision p) {
  return p == Precision::single ? "single" : (p == Precision::single_fast ? "single-fast" : "double");
}

int default_m2l_block(int order, int ncomp) {
  // the fastest runs per thread on the H200 (docs/performance.md, "FMM M2L and P2M on the GPU")
  return ncomp == 1 || order >= 10 ? 4 : 2;
}

void validate(const Options& o) {
  auto fail = [](const std::string& key, const std::string& value, const std::string& expected) {
    throw UsageError(key + " = " + value + ": expected " + expected);
  };
  if (o.order < 1 || o.order > max_order)
    fail("p", std::to_string(o.order), "an integer in [1, " + std::to_string(max_order) + "]");
  if (!(o.theta > 0 && o.theta < 1)) fail("theta", std::to_string(o.theta), "a number in (0, 1)");
  if (o.ncrit < 1) fail("ncrit", std::to_string(o.ncrit), "an integer >= 1");
  if (!(o.guard >= 0)) fail("guard", std::to_string(o.guard), "a number >= 0");
  if (o.periodic && !(o.period > 0)) fail("period", std::to_string(o.period), "a number > 0 when periodic");
  if (o.image_levels < 0) fail("image_levels", std::to_string(o.image_levels), "an integer >= 0");
  if (o.m2l_block != 0 && o.m2l_block != 1 && o.m2l_block != 2 && o.m2l_block != 4)
    fail("m2l_block", std::to_string(o.m2l_block), "1, 2 or 4 (0: the default)");
  if (o.backend == core::Backend::cuda && !core::backend_available(core::Backend::cuda))
    throw UsageError("backend = \"cuda\": no CUDA device is available");
}

}  // namespace loom::fmm
