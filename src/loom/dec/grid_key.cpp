#include "loom/dec/grid_key.hpp"

#include <utility>

namespace loom::dec {

void add_grid_type_key(io::Parameters& p, std::string help) {
  p.add("grid.type", "bcc", std::move(help)).one_of(grid_type_names());
}

GridType grid_type(const io::Parameters& p) { return parse_grid_type(p.get_string("grid.type")); }

}  // namespace loom::dec
