// `loom vortex` under `mpiexec -n N` (issue 22, item 4), with the same keys and outputs as on one process. Every
// rank reads the input and builds the initial particles alike (so bad input is refused on every rank before any
// work); the particles are partitioned by multisection (fmm/parallel/multisection.hpp) and each rank advances its
// own: the velocity and stretching by the FMM over ranks (fmm/parallel/distributed.hpp, its local essential
// trees; periodic images as in one process), the time scheme and core spreading per particle. Whenever a
// reinitialisation, a row of series.csv, a snapshot or a checkpoint is due, the particles (with AB2's previous
// rates) are gathered to rank 0 in one order, rank 0's run does what one process would (reinitialisation,
// statistics and all files), and the particles are partitioned again from there. The reinitialisation and the
// periodic statistics therefore run on rank 0 alone: they are the gather's price, not distributed.
// The classical stretching only: the transpose form's Gaussian sum has no distributed evaluation yet.
#pragma once

#include "loom/comm/communicator.hpp"
#include "loom/io/parameters.hpp"

namespace loom::vortex {

// Collective; returns the exit code run_vortex would.
int run_vortex_on_ranks(const comm::Communicator& comm, const io::Parameters& params);

}  // namespace loom::vortex
