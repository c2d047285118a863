// Which runs of `loom hit` several MPI ranks can take, checked before anything is allocated (exit 2, one line).
// FFTW's MPI transforms give every rank ceil(n / ranks) planes of z but the last ones, so ranks need not divide
// grid.n (uneven slabs are handled); only a rank count that leaves some rank without a plane is refused.
#pragma once

#include "loom/hit/config.hpp"

namespace loom::hit {

// The planes of z each rank holds under FFTW's default blocks: ceil(n / ranks), the rest on the last rank with
// planes; the number of ranks that get at least one plane.
Index ranks_with_planes(Index n, int ranks);

// Throws UsageError when `ranks` > 1 and the build has no fftw3-mpi, the backend is not the CPU (GPU slabs are not
// built yet), or some rank would hold no plane of grid.n.
void check_ranks(const HitConfig& config, int ranks);

}  // namespace loom::hit
