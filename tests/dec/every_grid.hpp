// The value-parameterised fixture of the DEC tests that run once per grid: TEST_P(EveryGrid, ...) runs on cubic,
// FCC, BCC, A15, C15 and Z, each case named after its grid. Include it in one source file per test program (it
// instantiates the suite).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "loom/dec/crystal.hpp"

namespace loom::dec {
namespace {

class EveryGrid : public ::testing::TestWithParam<GridType> {};

inline std::string grid_name(const ::testing::TestParamInfo<GridType>& info) {
  return std::string(to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(Grids, EveryGrid, ::testing::ValuesIn(all_grid_types().begin(), all_grid_types().end()),
                         grid_name);

}  // namespace
}  // namespace loom::dec
