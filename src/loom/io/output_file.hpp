// The rules for a command's output files (docs/architecture.md, "Run lifecycle"): an existing file is replaced
// only when the command's overwrite key allows it, and never when it is one of the command's inputs. Checked
// with the parameters, before any work.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace loom::io {

struct NamedPath {
  std::string key;  // the parameter that names it ("input")
  std::filesystem::path path;
};

// Throws UsageError `key = "path": ...` when `path` exists and `overwrite` is false (naming `overwrite_key`), when
// it is a directory, or when it is the same file as one of `inputs` (empty paths are skipped).
void check_output_file(const NamedPath& output, bool overwrite, const std::string& overwrite_key,
                       const std::vector<NamedPath>& inputs = {});

}  // namespace loom::io
