// A rank's part of a GPE lattice under the slab decomposition of the DEC-GPE paper, section 4.2 (Fig. 3): the
// structure layers [begin, end) of comm::slab_of() plus one halo layer towards each neighbouring rank (the stencil
// reaches +-1 structure in z), stored as a lattice of its own in Algorithm 1's layout with a z offset, so every
// kernel runs on it unchanged. psi = 0 beyond the global ends as on one rank: there is no halo there. On one rank
// the slab is the global lattice itself, with no copy and no overhead.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/comm/slab.hpp"
#include "loom/core/array.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/kernels/layer_range.hpp"

namespace loom::gpe {

class SlabDomain {
 public:
  // `global` must outlive the SlabDomain. Collective only in that every rank must construct it the same way.
  SlabDomain(const LatticeDomain& global, comm::Communicator comm);
  SlabDomain(const SlabDomain&) = delete;
  SlabDomain& operator=(const SlabDomain&) = delete;

  const comm::Communicator& comm() const { return comm_; }
  bool distributed() const { return comm_.size() > 1; }
  const comm::Slab& slab() const { return slab_; }
  const LatticeDomain& global() const { return *global_; }
  // The lattice this rank stores: its layers and halos, z_offset = begin - halo_below() (the global one on one rank).
  const LatticeDomain& local() const { return local_ ? *local_ : *global_; }

  int halo_below() const { return slab_.below >= 0 ? 1 : 0; }
  int halo_above() const { return slab_.above >= 0 ? 1 : 0; }
  LayerRange owned_layers() const { return {halo_below(), static_cast<int>(slab_.layers())}; }  // local z
  Index layer_size() const;                                           // m_s nx ny values per structure layer
  Index owned_offset() const { return layer_size() * halo_below(); }  // local index of the first owned value
  Index owned_size() const { return layer_size() * slab_.layers(); }

  // The rank's part of a global field (its layers and halos), valid on the host; on one rank `global` itself.
  core::Array<Complex> restrict_to_slab(core::Array<Complex> global) const;
  // The owned layers of every rank assembled in `out` (the global size) on rank 0; on one rank a copy.
  void gather(const core::Array<Complex>& local, std::span<Complex> out) const;
  // Only the global layers [first, last) of `local` into their places in `out` (the global size) on rank 0.
  void gather_layers(const core::Array<Complex>& local, int first, int last, std::span<Complex> out) const;

 private:
  comm::Communicator comm_;
  comm::Slab slab_;
  const LatticeDomain* global_;
  std::unique_ptr<LatticeDomain> local_;
};

}  // namespace loom::gpe
