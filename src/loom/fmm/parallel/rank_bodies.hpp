// A rank's bodies as the runs over ranks move them (ranks_run.hpp, ranks_bench.hpp): positions, ncomp strengths
// and a core radius each, and each body's index in the input; as rows of 5 + ncomp doubles for exchange.hpp.
// The input is held whole on rank 0 only and scattered from there.
#pragma once

#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm::parallel {

struct RankBodies {
  int ncomp = 1;
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma;  // ncomp per body, interleaved; one per body
  std::vector<Index> id;
  int width() const { return 5 + ncomp; }
  std::vector<double> rows() const;
  static RankBodies from_rows(std::span<const double> rows, int ncomp);
};

// Collective. Rank 0's `all` (the whole input; ignored elsewhere) in equal slices of input order, one per rank.
RankBodies scatter_from_root(const comm::Communicator& comm, const RankBodies& all);

// Collective: partitioned by multisection (weights empty: counts) and moved to the ranks of their parts.
RankBodies partition_and_move(const comm::Communicator& comm, const RankBodies& mine, std::span<const double> weight = {});

}  // namespace loom::fmm::parallel
