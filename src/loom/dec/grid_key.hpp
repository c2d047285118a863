// The parameter grid.type, declared once for every command that takes a DEC grid (`loom gpe`, `loom lattice`,
// `loom lattice dispersion`, `loom lattice export`): the registry validates it against the six grids.
#pragma once

#include <string>

#include "loom/dec/crystal.hpp"
#include "loom/io/parameters.hpp"

namespace loom::dec {

// Declares grid.type (default bcc, one of grid_type_names()) with the command's help line.
void add_grid_type_key(io::Parameters& p, std::string help);
// The value of grid.type in validated parameters.
GridType grid_type(const io::Parameters& p);

}  // namespace loom::dec
