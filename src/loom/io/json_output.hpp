// The `--json FILE` output of the commands that measure rather than run (the benchmarks, `loom spectral`) under
// the output-file rule (docs/architecture.md, "Run lifecycle"): an existing file is replaced only with
// `--overwrite`, the path is checked writable before any timing, and the file is written through a temporary
// name and a rename (write_file_atomically).
#pragma once

#include <string>

#include "loom/io/parameters.hpp"

namespace loom::io {

// Declares `json` (the file; empty: none) and `overwrite` (replace an existing one).
void declare_json_output(Parameters& p, const std::string& help);

// Before any work: UsageError naming `json` when the file exists without `overwrite`, names a folder, or lies in a
// folder that does not exist or cannot be written.
void check_json_output(const Parameters& p);

}  // namespace loom::io
