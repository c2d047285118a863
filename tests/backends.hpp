// One test body per backend (DESIGN.md, "Tests"): parameterise a test on core::Backend, and skip (not fail) the
// CUDA case on a machine without a CUDA device.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "loom/core/backend.hpp"

namespace loom::test {

inline void skip_unless_available(core::Backend b) {
  if (!core::backend_available(b)) GTEST_SKIP() << "backend " << core::to_string(b) << " not available here";
}

inline std::string backend_name(const ::testing::TestParamInfo<core::Backend>& info) {
  return std::string(core::to_string(info.param));
}

#define LOOM_INSTANTIATE_FOR_BACKENDS(Suite) \
  INSTANTIATE_TEST_SUITE_P(Backends, Suite, ::testing::Values(::loom::core::Backend::cpu, ::loom::core::Backend::cuda), \
                           ::loom::test::backend_name)

}  // namespace loom::test
