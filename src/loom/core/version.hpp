// The build's identity, recorded in every run's summary and benchmark JSON and printed by `loom --version`.
// Defined in version.cpp, the one translation unit that includes the generated loom/version_info.hpp, so that a
// new commit recompiles one file rather than every file that reports it.
#pragma once

namespace loom::core {

const char* loom_version();  // the project's version (CMake's PROJECT_VERSION)
const char* git_commit();    // the commit built, "-dirty" when the tree had changes, "unknown" without git
const char* build_type();    // CMake's build type

}  // namespace loom::core
