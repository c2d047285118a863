// Which runs of `loom hit` several MPI ranks can take, checked before anything is allocated (exit 2, one line).
// FFTW's MPI transforms give every rank ceil(n / ranks) planes of z but the last ones, so ranks need not divide
// grid.n (uneven slabs are handled); only a rank count that leaves some rank without a plane is refused.
#pragma once

#include "loom/hit/config.hpp"

namespace loom::hit {

// The planes of z each rank holds under FFTW's default blocks: ceil(n / ranks), the rest on the last rank with
// planes; the number of ranks that get at least one plane.
Index ranks_with_planes(Index n, int ranks);

// Throws UsageError when `ranks` > 1 and FFTW's MPI transforms are asked of a build without fftw3-mpi, or some
// rank would hold no plane of grid.n (the same blocks for both slab transforms).
void check_ranks(const HitConfig& config, int ranks);

}  // namespace loom::hit
