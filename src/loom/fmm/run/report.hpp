// What `loom fmm` prints of a run (fmm_run.hpp): the set-up line, the tree and the time of each phase, the
// errors against the reference; and the timings as JSON.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "loom/fmm/fmm.hpp"

namespace loom::fmm {

class FmmRun;

nlohmann::json timings_json(const Timings& t);
void print_start(std::ostream& out, const FmmRun& run);
void print_evaluation(std::ostream& out, const FmmRun& run);
void print_check(std::ostream& out, const FmmRun& run);

}  // namespace loom::fmm
