#include "loom/gpe/parallel/slab_exchange.hpp"

#include <string>

#include "loom/comm/halo_exchange.hpp"
#include "loom/core/error.hpp"

namespace loom::gpe {

std::string_view to_string(HaloTransport t) {
  switch (t) {
    case HaloTransport::automatic:
      return "auto";
    case HaloTransport::staged:
      return "staged";
    case HaloTransport::cuda_aware:
      return "cuda_aware";
  }
  return "?";
}

HaloTransport parse_halo_transport(std::string_view text, std::string_view key) {
  for (auto t : {HaloTransport::automatic, HaloTransport::staged, HaloTransport::cuda_aware})
    if (to_string(t) == text) return t;
  throw UsageError(std::string(key) + " = \"" + std::string(text) + "\": expected one of auto, staged, cuda_aware");
}

SlabExchange::SlabExchange(const SlabDomain& slab, Index layer_cells)
    : slab_(slab), layer_size_(layer_cells > 0 ? layer_cells : slab.layer_size()) {
  LOOM_REQUIRE(layer_size_ >= slab.layer_size(), "SlabExchange: layers smaller than the lattice's");
  const LayerRange owned = slab.owned_layers();
  const int last = owned.first + owned.count - 1;
  if (slab.halo_below()) edges_.push_back({owned.first, 1});
  if (slab.halo_above() && (edges_.empty() || last != owned.first)) edges_.push_back({last, 1});
  const int lo = owned.first + slab.halo_below(), hi = last + 1 - slab.halo_above();
  interior_ = {lo, std::max(0, hi - lo)};
}

comm::HaloBuffers SlabExchange::buffers_of(Complex* field) const {
  const LayerRange owned = slab_.owned_layers();
  const Index n = layer_size_;
  return {field + n * owned.first, field + n * (owned.first + owned.count - 1), field,
          field + n * (owned.first + owned.count)};
}

namespace {

// The CPU backend: MPI reads and writes the host array itself.
class HostSlabExchange final : public SlabExchange {
 public:
  HostSlabExchange(const SlabDomain& slab, Index layer_cells)
      : SlabExchange(slab, layer_cells), halo_(slab.comm(), slab.slab(), halo_bytes()) {}
  void start(Complex* field) override { halo_.start(buffers_of(field)); }
  void finish(Complex*) override { halo_.wait(); }
  void exchange(Complex* field) override {
    start(field);
    finish(field);
  }
  std::string_view transport() const override { return "host memory"; }

 private:
  comm::HaloExchange halo_;
};

}  // namespace

std::unique_ptr<SlabExchange> make_slab_exchange(core::Backend backend, const SlabDomain& slab, HaloTransport transport,
                                                 Index layer_cells) {
  if (backend == core::Backend::cpu) return std::make_unique<HostSlabExchange>(slab, layer_cells);
  const bool aware = comm::cuda_aware_mpi();
  if (transport == HaloTransport::cuda_aware && !aware)
    throw UsageError("halo transport cuda_aware: this MPI library reports no CUDA support (use staged or auto)");
  return make_cuda_slab_exchange(
      slab, transport == HaloTransport::cuda_aware || (transport == HaloTransport::automatic && aware), layer_cells);
}

#if !defined(LOOM_HAVE_CUDA)
std::unique_ptr<SlabExchange> make_cuda_slab_exchange(const SlabDomain&, bool, Index) {
  throw Error("make_cuda_slab_exchange: this loom was built without CUDA");
}
#endif

}  // namespace loom::gpe
