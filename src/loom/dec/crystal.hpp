// The six crystals of the DEC-GPE paper (section 2, Fig. 1) as point sets in a cuboid unit cell: the primal
// 0-cells of each grid, generated from the crystal's Wyckoff positions. Everything else (Delaunay cells, dual
// complex, stencils) is computed from these points.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loom/dec/vec3.hpp"

namespace loom::dec {

enum class GridType { cubic, fcc, bcc, a15, c15, z };

// cubic, fcc, bcc, a15, c15, z: in the paper's order (Table 1).
std::span<const GridType> all_grid_types();
std::string_view to_string(GridType grid);     // "bcc": the parameter value
std::string_view display_name(GridType grid);  // "BCC": as the paper writes it
std::vector<std::string> grid_type_names();    // the allowed values of grid.type
// The grid named `text` (as to_string writes it), or nullopt; parse_grid_type (grid_key.hpp) makes the message.
std::optional<GridType> find_grid_type(std::string_view text);

struct Crystal {
  GridType grid = GridType::cubic;
  std::string source;          // the structure type and where its positions come from
  Vec3 size;                   // edges of the cuboid cell that the structure tiles
  std::vector<Vec3> vertices;  // positions inside [0, size) (Cartesian)
};

// The unit cell: cubic, FCC, BCC, A15 and C15 in a cube of edge 1; Z (hexagonal, a = c = 1) in an orthorhombic
// cell 1 x sqrt(3) x 1 holding two hexagonal cells, so that every structure tiles a cuboid.
Crystal make_crystal(GridType grid);

// The Z phase's free parameters, idealised (see crystal.cpp).
inline constexpr double z_phase_c_over_a = 1.0;
inline constexpr double z_phase_zr_height = 0.25;

}  // namespace loom::dec
