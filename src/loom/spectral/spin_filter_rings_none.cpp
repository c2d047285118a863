// SpinFilter's ring sets on the device in a build without CUDA: throws.
#include "loom/core/error.hpp"
#include "loom/spectral/spin_filter_rings.hpp"

namespace loom::spectral::rings {

void filter_cuda(const View&) { throw Error("SpinFilter: the GPU ring kernel needs a build with CUDA"); }

}  // namespace loom::spectral::rings
