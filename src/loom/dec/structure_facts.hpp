// One replicable structure's facts as `loom lattice` reports them (counts, volumes, dual edges, the stability step
// of eq. 11, equal work under both rules of equal_work.hpp), as JSON: the computation lives here, the printing in
// the app.
#pragma once

#include <nlohmann/json.hpp>

#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {

// How the equal-work scale is defined, for the report.
extern const char* const equal_work_scale_definition;

nlohmann::json structure_facts(const ReplicableStructure& s);

}  // namespace loom::dec
