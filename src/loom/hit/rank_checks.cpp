#include "loom/hit/rank_checks.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {

Index ranks_with_planes(Index n, int ranks) {
  const Index block = (n + ranks - 1) / ranks;
  return (n + block - 1) / block;
}

void check_ranks(const HitConfig& c, int ranks) {
  if (ranks <= 1) return;
  const bool fftw_mpi = c.backend == core::Backend::cpu && c.solver.slabs == SlabTransform::fftw_mpi;
  if (fftw_mpi && !fftw_mpi_built())
    throw UsageError(fmt::format("fft.slabs = fftw_mpi on {} ranks: this loom was built without fftw3-mpi (Debian "
                                 "libfftw3-mpi-dev); expected fft.slabs = alltoall or one rank",
                                 ranks));
  const Index used = ranks_with_planes(c.grid.n, ranks);
  if (used < ranks)
    throw UsageError(fmt::format("grid.n = {} on {} ranks: slabs of {} planes leave {} ranks without a "
                                 "plane; expected at most {} ranks for this grid.n",
                                 c.grid.n, ranks, (c.grid.n + ranks - 1) / ranks, ranks - used, used));
}

}  // namespace loom::hit
