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
  if (!fftw_mpi_built())
    throw UsageError(fmt::format("loom hit on {} ranks: this loom was built without fftw3-mpi (Debian "
                                 "libfftw3-mpi-dev); expected one rank",
                                 ranks));
  if (c.backend != core::Backend::cpu)
    throw UsageError(fmt::format("backend = {} on {} ranks: expected cpu (several ranks run on the CPU only; "
                                 "GPU slabs are not built yet), or one rank",
                                 core::to_string(c.backend), ranks));
  const Index used = ranks_with_planes(c.grid.n, ranks);
  if (used < ranks)
    throw UsageError(fmt::format("grid.n = {} on {} ranks: FFTW's slabs of {} planes leave {} ranks without a "
                                 "plane; expected at most {} ranks for this grid.n",
                                 c.grid.n, ranks, (c.grid.n + ranks - 1) / ranks, ranks - used, used));
}

}  // namespace loom::hit
