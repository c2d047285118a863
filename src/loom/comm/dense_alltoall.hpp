// The all-to-all of equal blocks (MPI_Alltoall) that transposes a slab-decomposed field between two distributed
// axes (`loom hit`'s GPU slabs). Device pointers only where the MPI is CUDA-aware (cuda_aware_mpi() of
// halo_exchange.hpp, asked at run time); otherwise the caller stages through pinned host memory.
#pragma once

#include <cstddef>

#include "loom/comm/communicator.hpp"

namespace loom::comm {

// Rank r sends block d of `send` (bytes [d, d + 1) x block_bytes) to rank d, which stores it as block r of
// `receive`; `send` and `receive` hold size() blocks each and must not overlap. block_bytes is a multiple of 16
// (the blocks travel as 16-byte values: each block below 2^31 of them). On one rank, a copy.
void all_to_all(const Communicator& comm, const void* send, void* receive, std::size_t block_bytes);

}  // namespace loom::comm
