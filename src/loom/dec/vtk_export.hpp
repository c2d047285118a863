// One replicable structure for ParaView, as two legacy ASCII VTK unstructured grids: the primal 3-cells (each
// cell's boundary faces as polygons, tagged with the cell's local index) and the dual graph (dual vertices at
// the circumcentres, dual edges as lines, with the images of neighbours across the structure boundary).
#pragma once

#include <filesystem>

#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {

struct VtkFiles {
  std::filesystem::path primal, dual;
};

// Writes `<stem>_primal.vtk` and `<stem>_dual.vtk` (each atomically). Cell data of the primal file: cell (local
// index), volume, face_area, dual_edge. Point data of the dual file: cell (local index), volume, image (0 for
// the structure's own dual vertices, 1 for a neighbour's copy in an adjacent structure); cell data: weight
// (|F|/|E*|), dual_edge, face_area.
VtkFiles write_structure_vtk(const std::filesystem::path& stem, const ReplicableStructure& structure);

}  // namespace loom::dec
