// The reinitialisation (src/loom/vortex/lattice.*, rbf.*, reinit.*): the Gaussian sums on a lattice against the
// direct sum written in the test, conjugate gradients reaching their tolerance, and the new particles' vorticity
// field matching the old one (on the nodes to the solver's tolerance, between them to the interpolation's
// accuracy).
#include <gtest/gtest.h>

#include <cmath>

#include <omp.h>

#include "loom/vortex/reinit.hpp"
#include "loom/vortex/ring.hpp"
#include "vortex/direct_sums.hpp"

namespace loom::test {
namespace {

// A few blobs of mixed strength and core off the lattice's nodes.
Particles scattered_blobs() {
  Particles p;
  const Vec3d centres[] = {{0.31, -0.12, 0.05}, {-0.2, 0.27, -0.33}, {0.04, 0.11, 0.29}, {-0.35, -0.3, 0.12}};
  const Vec3d strengths[] = {{0.2, -0.1, 0.05}, {-0.05, 0.3, 0.1}, {0.1, 0.1, -0.2}, {0.0, -0.15, 0.25}};
  for (int i = 0; i < 4; ++i) {
    p.x.push_back(centres[i]);
    p.alpha.push_back(strengths[i]);
    p.sigma.push_back(0.1 + 0.02 * i);
  }
  return p;
}

TEST(VortexReinit, LatticeSumsMatchDirectSums) {
  const Particles p = scattered_blobs();
  const vortex::Lattice lattice = vortex::covering_lattice(p, 0.05, 0.8);
  const std::vector<Vec3d> omega = vortex::vorticity_on_lattice(lattice, p);
  double err = 0, norm = 0;
  for (Index m = 0; m < lattice.size(); m += 7) {
    const Vec3d exact = direct_vorticity(p, lattice.node(m));
    err = std::max(err, std::sqrt(fmm::norm2(omega[std::size_t(m)] - exact)));
    norm = std::max(norm, std::sqrt(fmm::norm2(exact)));
  }
  EXPECT_LT(err, 2e-5 * norm);  // the cut at 5 sigma per direction: e^{-12.5} = 4e-6 of a blob's peak
  // the threads split the z-planes: any team gives the one thread's sums, bit for bit
  const int team = omp_get_max_threads();
  omp_set_num_threads(3);
  const std::vector<Vec3d> three = vortex::vorticity_on_lattice(lattice, p);
  omp_set_num_threads(1);
  const std::vector<Vec3d> one = vortex::vorticity_on_lattice(lattice, p);
  omp_set_num_threads(team);
  for (std::size_t m = 0; m < one.size(); ++m)
    ASSERT_TRUE(one[m].x == three[m].x && one[m].y == three[m].y && one[m].z == three[m].z) << "node " << m;

  // The lattice-to-lattice sum: the nodes' strengths as blobs of one core.
  Particles nodes;
  std::vector<Vec3d> in(std::size_t(lattice.size()));
  for (Index m = 0; m < lattice.size(); m += 97) {
    in[std::size_t(m)] = {std::sin(double(m)), std::cos(double(m)), 0.5};
    nodes.x.push_back(lattice.node(m));
    nodes.alpha.push_back(in[std::size_t(m)]);
    nodes.sigma.push_back(0.06);
  }
  std::vector<Vec3d> out;
  vortex::gaussian_lattice_sum(lattice, 0.06, vortex::default_gaussian_cutoff, in, out);
  err = norm = 0;
  for (Index m = 0; m < lattice.size(); m += 13) {
    const Vec3d exact = direct_vorticity(nodes, lattice.node(m));
    err = std::max(err, std::sqrt(fmm::norm2(out[std::size_t(m)] - exact)));
    norm = std::max(norm, std::sqrt(fmm::norm2(exact)));
  }
  EXPECT_LT(err, 2e-5 * norm);
}

TEST(VortexReinit, RingIsReproducedOnTheLattice) {
  const vortex::RingShape ring{1.0, 1.0, 0.2};
  const Particles old = vortex::vortex_ring(ring, 0.1, 1.0);
  vortex::ReinitOptions o;
  o.tolerance = 1e-6;
  const vortex::ReinitResult r = vortex::reinitialise(old, vortex::Domain{}, 0.1, 0, o);
  EXPECT_TRUE(r.cg.converged) << r.cg.iterations << " iterations, residual " << r.cg.residual;
  EXPECT_LE(r.cg.residual, 1e-6);
  EXPECT_GT(r.cg.iterations, 1);
  // The new field against the old: at the nodes to the solve's tolerance (plus the nodes left out), between them
  // (the cells' centres) to the interpolation's accuracy.
  double on = 0, between = 0, peak = 0;
  for (std::size_t i = 0; i < r.particles.x.size(); i += 41) {
    const Vec3d x = r.particles.x[i], y{x.x + 0.05, x.y + 0.05, x.z + 0.05};
    const Vec3d w_old = direct_vorticity(old, x);
    peak = std::max(peak, std::sqrt(fmm::norm2(w_old)));
    on = std::max(on, std::sqrt(fmm::norm2(direct_vorticity(r.particles, x) - w_old)));
    between = std::max(between, std::sqrt(fmm::norm2(direct_vorticity(r.particles, y) - direct_vorticity(old, y))));
  }
  EXPECT_LT(on, 1e-5 * peak);       // measured 8e-7
  EXPECT_LT(between, 1e-3 * peak);  // measured 1.1e-4
}

TEST(VortexReinit, InterpolationBeatsSamplingOnTheNodes) {
  // The plain omega h^3 (CG's first guess, zero iterations) reproduces the field on the nodes far worse than the
  // solved strengths: the solve does work.
  const vortex::RingShape ring{1.0, 1.0, 0.2};
  const Particles old = vortex::vortex_ring(ring, 0.1, 1.0);
  vortex::ReinitOptions o;
  o.max_iterations = 1;
  o.tolerance = 1e-12;
  const vortex::ReinitResult one = vortex::reinitialise(old, vortex::Domain{}, 0.1, 0, o);
  EXPECT_FALSE(one.cg.converged);
  EXPECT_GT(one.cg.residual, 1e-3);
}

}  // namespace
}  // namespace loom::test
