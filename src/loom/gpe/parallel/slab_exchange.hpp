// The halo exchange of a GPE slab after each leapfrog step (the DEC-GPE paper, section 4.2, Fig. 3): a rank's
// lowest owned layer goes into the upper halo of the rank below, its highest into the lower halo of the rank
// above. The integrator updates the edge layers (those sent) first, start()s the transfer, updates the interior
// meanwhile, and finish()es it. On the GPU the edge layers run on one stream, the interior on another, and
// events order them (the paper's streams and events), while the host does the MPI part.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "loom/comm/halo_exchange.hpp"
#include "loom/core/backend.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"

namespace loom::gpe {

// How halos travel on the GPU: through pinned host buffers (cudaMemcpyAsync on the edge stream, MPI on the host
// copies), or device to device by a CUDA-aware MPI. automatic: CUDA-aware where the MPI library reports it
// (comm::cuda_aware_mpi()), staging otherwise. The CPU backend always exchanges its host arrays directly.
enum class HaloTransport { automatic, staged, cuda_aware };
std::string_view to_string(HaloTransport t);
// Throws UsageError naming `key` for an unknown name.
HaloTransport parse_halo_transport(std::string_view text, std::string_view key);

class SlabExchange {
 public:
  // `layer_cells` > 0: the fields' layers are that many cells apart (psi with pitched rows), else
  // slab.layer_size().
  explicit SlabExchange(const SlabDomain& slab, Index layer_cells = 0);
  virtual ~SlabExchange() = default;
  SlabExchange(const SlabExchange&) = delete;
  SlabExchange& operator=(const SlabExchange&) = delete;

  // The owned layers (local z) that neighbours need, to be updated first; and the others.
  const std::vector<LayerRange>& edges() const { return edges_; }
  LayerRange interior() const { return interior_; }
  // cudaStream_t of each part on the GPU (nullptr: the default stream, or the CPU).
  virtual void* edge_stream() const { return nullptr; }
  virtual void* interior_stream() const { return nullptr; }

  // After the edge layers of `field` were written (enqueued on the edge stream): starts sending them.
  virtual void start(Complex* field) = 0;
  // After the interior was written (enqueued): the halos of `field` hold the neighbours' layers for whatever
  // runs next on the backend.
  virtual void finish(Complex* field) = 0;
  // Both, for a field written by anything else (the starter's stages).
  virtual void exchange(Complex* field) = 0;
  virtual std::string_view transport() const = 0;

 protected:
  // Where the halo buffers of `field` are (host or device pointers, as `field`).
  comm::HaloBuffers buffers_of(Complex* field) const;
  std::size_t halo_bytes() const { return static_cast<std::size_t>(layer_size_) * sizeof(Complex); }
  const SlabDomain& slab_;

 private:
  Index layer_size_ = 0;
  std::vector<LayerRange> edges_;
  LayerRange interior_;
};

// The exchange for `backend` of fields whose layers are `layer_cells` apart (0: slab.layer_size()); throws
// UsageError when cuda_aware is asked of an MPI that is not.
std::unique_ptr<SlabExchange> make_slab_exchange(core::Backend backend, const SlabDomain& slab, HaloTransport transport,
                                                 Index layer_cells = 0);

// The CUDA implementation (slab_exchange_cuda.cu); throws in a build without CUDA.
std::unique_ptr<SlabExchange> make_cuda_slab_exchange(const SlabDomain& slab, bool cuda_aware, Index layer_cells);

}  // namespace loom::gpe
