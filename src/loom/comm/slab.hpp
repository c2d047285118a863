// Slab decomposition along z (the DEC-GPE paper, section 4.2): rank r owns structure layers [begin, end) of
// nz, as evenly as possible, and exchanges `width` halo layers with the ranks below and above each step.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loom/comm/communicator.hpp"

namespace loom::comm {

struct Slab {
  std::int64_t begin = 0, end = 0;  // owned layers [begin, end)
  int below = -1, above = -1;       // neighbouring ranks, -1 at a non-periodic boundary
  std::int64_t layers() const { return end - begin; }
};

// Throws UsageError when there are more ranks than layers.
Slab slab_of(std::int64_t nz, int ranks, int rank, bool periodic);

// Host-memory halo exchange on a slab stored as [width halo layers][layers owned][width halo layers], each
// layer `layer_bytes` long: the lowest `width` owned layers go to the rank below (into its upper halo) and the
// highest to the rank above (into its lower halo). Halos at a non-periodic boundary are left untouched.
void exchange_halos(const Communicator& comm, const Slab& slab, void* base, std::size_t layer_bytes, int width);

}  // namespace loom::comm
