// fft.callbacks = on where cuFFT cannot plan with loom's LTO callbacks: measured on the H200 image (cuFFT 12.0.0.61
// of CUDA 13.0 with nvJitLink 13.0.88), where planning fails with CUFFT_INTERNAL_ERROR even for an identity load
// callback. A distinct type so that benchmarks and tests can report the limitation rather than fail the run.
#pragma once

#include <string>

#include "loom/core/error.hpp"

namespace loom::hit {

class CallbacksUnavailable : public Error {
 public:
  explicit CallbacksUnavailable(const std::string& what) : Error(what) {}
};

}  // namespace loom::hit
