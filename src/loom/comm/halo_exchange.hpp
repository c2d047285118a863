// Nonblocking halo exchange of the slab decomposition (the DEC-GPE paper, section 4.2 and Fig. 3): start() posts
// the receives of both halos and the sends of both boundary layers, wait() completes them, and the caller updates
// its interior in between, so the transfer overlaps the computation. The buffers may be host memory or, with a
// CUDA-aware MPI (cuda_aware_mpi()), device memory.
#pragma once

#include <cstddef>
#include <memory>

#include "loom/comm/communicator.hpp"
#include "loom/comm/slab.hpp"

namespace loom::comm {

// Where the boundary layers are read from and the halos written to; a side without a neighbour is ignored.
struct HaloBuffers {
  const void* send_below = nullptr;  // my lowest owned layers, for the rank below
  const void* send_above = nullptr;  // my highest owned layers, for the rank above
  void* receive_below = nullptr;     // my lower halo, from the rank below
  void* receive_above = nullptr;     // my upper halo, from the rank above
};

class HaloExchange {
 public:
  // `halo_bytes`: the bytes of one side's halo (layers x bytes per layer), the same on every rank.
  HaloExchange(Communicator comm, const Slab& slab, std::size_t halo_bytes);
  ~HaloExchange();  // completes an exchange still in flight
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  void start(const HaloBuffers& buffers);
  void wait();
  bool in_flight() const;
  const Slab& slab() const { return slab_; }

 private:
  struct Requests;
  Communicator comm_;
  Slab slab_;
  std::size_t bytes_ = 0;
  std::unique_ptr<Requests> requests_;
};

// True when the MPI library can send from and receive into CUDA device memory, as it reports at run time
// (Open MPI's MPIX_Query_cuda_support); false without MPI or without such a query.
bool cuda_aware_mpi();

}  // namespace loom::comm
