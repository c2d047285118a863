// Flattening of ReplicableStructure into the per-local-index arrays of Algorithm 1.
#include "loom/dec/stencil.hpp"

#include <algorithm>
#include <vector>

#include "loom/core/error.hpp"

namespace loom::dec {

Stencil::Stencil(const ReplicableStructure& structure) : cells_(structure.cell_count()), size_(structure.size) {
  std::vector<std::int32_t> first{0};
  std::vector<StencilEntry> entries;
  std::vector<double> inverse_volume, volume;
  std::vector<Vec3> position;
  for (const auto& cell : structure.cells) {
    for (const auto& f : cell.faces) {
      for (int k = 0; k < 3; ++k)
        LOOM_REQUIRE(f.offset[k] >= -127 && f.offset[k] <= 127, "Stencil: structure offset out of range");
      entries.push_back({f.weight(), f.neighbour, static_cast<std::int8_t>(f.offset[0]),
                         static_cast<std::int8_t>(f.offset[1]), static_cast<std::int8_t>(f.offset[2]), 0});
    }
    first.push_back(static_cast<std::int32_t>(entries.size()));
    inverse_volume.push_back(1.0 / cell.volume);
    volume.push_back(cell.volume);
    position.push_back(cell.circumcenter);
    max_faces_ = std::max(max_faces_, static_cast<int>(cell.faces.size()));
  }
  first_ = core::Array<std::int32_t>::from(first);
  entries_ = core::Array<StencilEntry>::from(entries);
  inverse_volume_ = core::Array<double>::from(inverse_volume);
  volume_ = core::Array<double>::from(volume);
  position_ = core::Array<Vec3>::from(position);
}

StencilView Stencil::view(core::Where where) const {
  return {cells_,
          first_.read(where),
          entries_.read(where),
          inverse_volume_.read(where),
          volume_.read(where),
          position_.read(where),
          size_};
}

}  // namespace loom::dec
