// Issue 21's accuracy budget, measured on the CPU: the Laplace gradient's relative L2 error against direct sums
// (a sample of targets) for uniform bodies in [-1, 1)^3, over p, theta and ncrit, with the counts the GPU's cost
// follows (M2L pairs, P2P interactions, cells). The same expansions and MAC as the GPU passes (whose single
// precision adds ~1e-6). Prints one row per (n, ncrit, theta, p); src/loom/fmm/accuracy_budget.cpp holds the
// rows. Usage: fmm_accuracy_table N [ncrit,...] [theta,...] [targets]; targets 0: the counts only (p 0), no
// evaluation.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace {

std::vector<double> numbers(const char* text) {
  std::vector<double> v;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) v.push_back(std::stod(item));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace loom::fmm;
  using loom::Index;
  if (argc < 2) {
    std::fprintf(stderr, "usage: fmm_accuracy_table N [ncrit,...] [theta,...] [targets]\n");
    return 2;
  }
  const auto n = static_cast<Index>(std::atof(argv[1]));
  const auto ncrits = numbers(argc > 2 ? argv[2] : "32,64,128");
  const auto thetas = numbers(argc > 3 ? argv[3] : "0.5,0.55,0.6,0.65,0.7");
  const Index sample = argc > 4 ? std::atoi(argv[4]) : 300;
  const auto x = make_positions(Distribution::cube, n, 21);
  const auto q = make_uniform(n, -1, 1, 22);
  const auto targets = sample_targets(n, sample);
  std::vector<double> phi;
  std::vector<Vec3d> exact;
  if (sample > 0) direct_laplace(x, q, targets, phi, exact);
  std::printf("%9s %5s %5s %2s %10s %10s %12s %8s %8s\n", "n", "ncrit", "theta", "p", "grad_err", "m2l_pairs",
              "p2p_inter", "cells", "leaves");
  for (double nc : ncrits)
    for (double theta : thetas) {
      if (sample == 0) {
        const Tree tree(x, static_cast<int>(nc));
        TraversalOptions t;
        t.theta = theta;
        const InteractionLists l = traverse(tree, tree, t);
        std::printf("%9lld %5d %5.2f %2d %10.3e %10lld %12.4e %8d %8d\n", static_cast<long long>(n),
                    static_cast<int>(nc), theta, 0, 0.0, static_cast<long long>(l.m2l_count()),
                    p2p_interactions(tree, tree, l), static_cast<int>(tree.cells().size()),
                    static_cast<int>(tree.leaves().size()));
        continue;
      }
      Options o;
      o.ncrit = static_cast<int>(nc);
      o.theta = theta;
      o.order = 8;
      Evaluator e(o);
      e.set_positions(x);
      for (int p = 8; p >= 4; --p) {
        e.set_order(p);
        const LaplaceResult r = e.laplace(q);
        std::vector<Vec3d> mine;
        for (Index t : targets) mine.push_back(r.gradient[static_cast<std::size_t>(t)]);
        std::printf("%9lld %5d %5.2f %2d %10.3e %10lld %12.4e %8d %8d\n", static_cast<long long>(n), o.ncrit, theta, p,
                    relative_l2_error(mine, exact), static_cast<long long>(r.stats.m2l_pairs),
                    r.stats.p2p_interactions, r.stats.cells, r.stats.leaves);
        std::fflush(stdout);
      }
    }
  return 0;
}
