#include "loom/comm/slab.hpp"

#include <fmt/format.h>

#include <span>

#include "loom/core/error.hpp"

namespace loom::comm {

Slab slab_of(std::int64_t nz, int ranks, int rank, bool periodic) {
  if (ranks < 1 || rank < 0 || rank >= ranks) throw Error(fmt::format("slab_of: rank {} of {}", rank, ranks));
  if (nz < ranks)
    throw UsageError(fmt::format("{} z layers cannot be split over {} ranks: use at most {} ranks", nz, ranks, nz));
  const std::int64_t base = nz / ranks, extra = nz % ranks;
  Slab s;
  s.begin = rank * base + std::min<std::int64_t>(rank, extra);
  s.end = s.begin + base + (rank < extra ? 1 : 0);
  s.below = rank > 0 ? rank - 1 : (periodic ? ranks - 1 : -1);
  s.above = rank < ranks - 1 ? rank + 1 : (periodic ? 0 : -1);
  return s;
}

void exchange_halos(const Communicator& comm, const Slab& slab, void* base, std::size_t layer_bytes, int width) {
  LOOM_REQUIRE(slab.layers() >= width, "exchange_halos: fewer owned layers than the halo width");
  auto* bytes = static_cast<std::byte*>(base);
  const std::size_t halo = layer_bytes * static_cast<std::size_t>(width);
  const std::size_t owned = layer_bytes * static_cast<std::size_t>(slab.layers());
  std::byte* lower_halo = bytes;
  std::byte* lowest_owned = bytes + halo;
  std::byte* highest_owned = bytes + owned;  // the top `width` owned layers
  std::byte* upper_halo = bytes + halo + owned;
  // Upward: my top layers to the rank above, my lower halo from the rank below. Then downward.
  comm.send_receive({highest_owned, halo}, slab.above, {lower_halo, halo}, slab.below, 1);
  comm.send_receive({lowest_owned, halo}, slab.below, {upper_halo, halo}, slab.above, 2);
}

}  // namespace loom::comm
