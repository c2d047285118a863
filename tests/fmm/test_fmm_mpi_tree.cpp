// The ranks' tree built by the backend code (Options::tree_on_backend, the GPU ranks' default; here the same code
// on thrust's host system): its root cut into the rank's near-cubic pieces, as the host's cubic tree
// (parallel/cubic_tree.hpp) cuts it. A rank's domain is elongated (two ranks: halves 1 x 1 x 1/2 of the cube);
// the plain tree's cells there are 2 : 2 : 1 at every level and need about twice the M2L pairs
// (test_fmm_cubic_tree.cpp). So the backend tree's local M2L pairs stay near the host tree's, on every rank.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "fmm/mpi_bodies.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/distributed.hpp"

namespace loom::fmm::parallel {
namespace {

using namespace mpi_test;

// This rank's local M2L pairs of one Laplace evaluation over 6e4 uniform bodies (p 4: only the lists matter).
double local_m2l_pairs(const Options& o) {
  const Bodies mine = distribute(make_bodies(Distribution::cube, 60000, 1, 21));
  RankReport report;
  laplace(world(), o, mine.x, mine.strength, &report);
  return double(report.local_stats.m2l_pairs);
}

TEST(FmmRanksTree, BackendTreeCutsTheRootIntoNearCubicPieces) {
#if !defined(LOOM_HAVE_CUDA)
  GTEST_SKIP() << "the backend tree needs a build with CUDA (thrust)";
#else
  Options host;
  host.order = 4;
  Options backend = host;
  backend.tree_on_backend = true;
  const double a = local_m2l_pairs(host), b = local_m2l_pairs(backend);
  std::printf("rank %d of %d: local M2L pairs %.0f (host cubic tree), %.0f (backend tree)\n", world().rank(),
              world().size(), a, b);
  EXPECT_LT(b, 1.15 * a);
  EXPECT_GT(b, a / 1.15);
#endif
}

}  // namespace
}  // namespace loom::fmm::parallel
