#include "loom/core/error.hpp"

#include <filesystem>

namespace loom {

void throw_error(const std::string& what, const char* file, int line) {
  throw Error(what + " (" + std::filesystem::path(file).filename().string() + ":" + std::to_string(line) + ")");
}

}  // namespace loom
