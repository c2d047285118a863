// The end of a run that steps (gpe, hit, bh, vortex): summary.json written, with `stopped_by` when a signal ended
// the run, and then one line saying where its checkpoint and outputs are (docs/architecture.md, "Run lifecycle").
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "loom/io/run_directory.hpp"

namespace loom::io {

// Returns true when a signal stopped the run: the caller then draws no plots (the user wants it to end).
bool write_final_summary(const RunDirectory& run, nlohmann::json summary, int stop_signal, std::string_view system,
                         long long step, double time);

}  // namespace loom::io
