// The build's identity as every summary and benchmark JSON records it, under the key "loom".
#pragma once

#include <nlohmann/json.hpp>

#include "loom/core/version.hpp"

namespace loom::io {

inline nlohmann::json build_identity() {
  return {{"version", core::loom_version()}, {"git_commit", core::git_commit()}, {"build_type", core::build_type()}};
}

}  // namespace loom::io
