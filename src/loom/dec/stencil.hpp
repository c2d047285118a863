// The DEC Laplacian of one replicable structure in flat form, stored once and reused by every structure instance
// (section 4 of the DEC-GPE paper: the sets J^_i and the matrix rows of Algorithm 1). Per local index i: its
// faces' entries (neighbour local index, structure offset, weight |F|/|E*|) in [first[i], first[i+1]) and
// 1/|B_i|, with |B_i| and the dual vertex positions. StencilView is the trivially copyable handle a loop body or
// a CUDA kernel captures.
#pragma once

#include <cstdint>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::dec {

// One element of J^_i with its matrix weight: 16 bytes, so a warp reads them in whole transactions.
struct StencilEntry {
  double weight;           // |F| / |E*|
  std::int32_t neighbour;  // local index of the neighbouring dual vertex
  std::int8_t dx, dy, dz;  // its structure instance relative to this one
  std::int8_t padding;
};
static_assert(sizeof(StencilEntry) == 16);

struct StencilView {
  int cells = 0;                           // m_s
  const std::int32_t* first = nullptr;     // cells + 1 offsets into entries
  const StencilEntry* entries = nullptr;   // the faces of cell i: [first[i], first[i + 1])
  const double* inverse_volume = nullptr;  // 1 / |B_i|
  const double* volume = nullptr;          // |B_i|: the weights of sums over the domain (norm, energy)
  const Vec3* position = nullptr;          // the dual vertex (circumcentre) of cell i in its structure
  Vec3 size;                               // the structure's edges: instance (sx, sy, sz) starts at (sx, sy, sz) * size

  LOOM_HOST_DEVICE int faces(int local) const { return first[local + 1] - first[local]; }
};

class Stencil {
 public:
  Stencil() = default;
  // The stencil of `structure` (at its scale): weights scale as length, 1/|B| as length^-3.
  explicit Stencil(const ReplicableStructure& structure);

  int cells() const { return cells_; }
  int max_faces() const { return max_faces_; }
  std::int64_t entry_count() const { return static_cast<std::int64_t>(entries_.size()); }
  // Pointers valid on `where` (copies to the device once, lazily).
  StencilView view(core::Where where) const;

 private:
  int cells_ = 0, max_faces_ = 0;
  Vec3 size_;
  core::Array<std::int32_t> first_;
  core::Array<StencilEntry> entries_;
  core::Array<double> inverse_volume_, volume_;
  core::Array<Vec3> position_;
};

}  // namespace loom::dec
