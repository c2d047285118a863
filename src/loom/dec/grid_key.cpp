#include "loom/dec/grid_key.hpp"

#include <utility>

#include "loom/core/error.hpp"

namespace loom::dec {

GridType parse_grid_type(std::string_view text, std::string_view key) {
  if (const auto grid = find_grid_type(text)) return *grid;
  std::string allowed;
  for (const std::string& name : grid_type_names()) allowed += (allowed.empty() ? "" : ", ") + name;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of " + allowed));
}

void add_grid_type_key(io::Parameters& p, std::string help) {
  p.add("grid.type", "bcc", std::move(help)).one_of(grid_type_names());
}

GridType grid_type(const io::Parameters& p) { return parse_grid_type(p.get_string("grid.type")); }

}  // namespace loom::dec
