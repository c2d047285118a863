// A command's parameters from Python as `loom <command> [toml] --key value ...` resolves them, and a whole run of
// the command: what loom.gpe.run and loom.hit.run call.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "loom/io/parameters.hpp"

namespace loom::python {

using Flags = std::vector<std::pair<std::string, std::string>>;  // (key, flag text)

// The declarations, then the input file (if any), then the flags, each checked by the registry with its one-line
// messages (UsageError).
io::Parameters command_input(io::Parameters declared, const std::string& toml, const Flags& flags);

// Runs `run` on `p` with the GIL released, output.dir named beforehand (runs/<command>-<date>-<time> when not
// given) so that the caller learns where the run went; returns that directory. A nonzero exit code is an Error.
std::string run_command(io::Parameters p, const std::string& command, int (*run)(const io::Parameters&));

}  // namespace loom::python
