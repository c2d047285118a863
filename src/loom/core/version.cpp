#include "loom/core/version.hpp"

#include "loom/version_info.hpp"

namespace loom::core {

const char* loom_version() { return LOOM_VERSION; }
const char* git_commit() { return LOOM_GIT_COMMIT; }
const char* build_type() { return LOOM_BUILD_TYPE; }

}  // namespace loom::core
