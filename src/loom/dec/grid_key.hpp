// The parameter grid.type, declared once for every command that takes a DEC grid (`loom gpe`, `loom lattice`,
// `loom lattice dispersion`, `loom lattice export`): the registry validates it against the six grids.
#pragma once

#include <string>
#include <string_view>

#include "loom/dec/crystal.hpp"
#include "loom/io/parameters.hpp"

namespace loom::dec {

// Declares grid.type (default bcc, one of grid_type_names()) with the command's help line.
void add_grid_type_key(io::Parameters& p, std::string help);
// The grid named `text`; throws UsageError naming `key`, the value and the allowed values.
GridType parse_grid_type(std::string_view text, std::string_view key = "grid.type");
// The value of grid.type in validated parameters.
GridType grid_type(const io::Parameters& p);

}  // namespace loom::dec
