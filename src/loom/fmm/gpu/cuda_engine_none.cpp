// The CUDA engine in a build without CUDA (cuda_engine.cpp is not compiled): the CUDA backend is refused
// earlier by Options' validation, so reaching this is a bug or a direct call.
#include "loom/core/error.hpp"
#include "loom/fmm/engine/pass_engine.hpp"

namespace loom::fmm::detail {

std::unique_ptr<PassEngine> make_cuda_engine(const Options&, TreeData&) {
  throw Error("fmm: the CUDA backend is not built into this loom");
}

}  // namespace loom::fmm::detail
