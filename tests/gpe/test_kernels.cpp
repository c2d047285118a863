// The CUDA leapfrog kernels (plain, tuned, shared, soa, march) against the CPU after 1000 steps on every grid (issue 5:
// agreement to 1e-12 relative). Needs a GPU; skips without one.
#include <gtest/gtest.h>

#include <vector>

#include "gpe/gpe_fixtures.hpp"
#include "gpe/relative_difference.hpp"
#include "loom/dec/crystal.hpp"

namespace loom::gpe {
namespace {

TEST(LeapfrogKernels, EveryKernelAgreesWithTheCpuAfter1000Steps) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : dec::all_grid_types()) {
    auto p = test::make_problem(grid, 1.0, 100.0, 1, 0.3);
    core::Array<Complex> start = p.psi0.clone();
    perturb(start, 0.01, 5);  // a state that evolves
    LeapfrogIntegrator cpu(core::Backend::cpu, p.domain, {1.0, 100.0});
    cpu.set_state(start.clone(), start.clone(), 0, 0, 0);
    const double dt = 0.9 * cpu.stability_bound();
    cpu.start_from(start.clone(), 0, dt);
    cpu.step(1000);
    for (LeapfrogKernel kernel : leapfrog_kernels(core::Backend::cuda)) {
      LeapfrogIntegrator gpu(core::Backend::cuda, p.domain, {1.0, 100.0});
      gpu.set_kernel(kernel);
      gpu.start_from(start.clone(), 0, dt);
      gpu.step(1000);
      EXPECT_LT(loom::test::max_relative_difference(gpu.current(), cpu.current()), 1e-12)
          << dec::to_string(grid) << " " << to_string(kernel) << " dof " << p.domain.dof();
    }
  }
}

// An evolving state on a grid's small vortex lattice, and the plain CUDA kernel's psi after 50 steps from it: the
// reference of the soa launch choices (which change only the order of the updates).
struct PlainReference {
  test::Problem problem;
  core::Array<Complex> start;
  double dt = 0;
  core::Array<Complex> after_50_steps;
};

PlainReference plain_reference(dec::GridType grid, unsigned seed) {
  PlainReference r;
  r.problem = test::make_problem(grid, 1.0, 100.0, 1, 0.3);
  r.start = r.problem.psi0.clone();
  perturb(r.start, 0.01, seed);
  LeapfrogIntegrator plain(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
  plain.set_kernel(LeapfrogKernel::plain);
  plain.set_state(r.start.clone(), r.start.clone(), 0, 0, 0);
  r.dt = 0.9 * plain.stability_bound();
  plain.start_from(r.start.clone(), 0, r.dt);
  plain.step(50);
  r.after_50_steps = plain.current().clone();
  return r;
}

// 50 steps of the soa kernel with `tuning` from the reference's start.
core::Array<Complex> soa_after_50_steps(const PlainReference& r, SoaTuning tuning) {
  LeapfrogIntegrator gpu(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
  gpu.set_kernel(LeapfrogKernel::soa);
  gpu.set_soa_tuning(tuning);
  gpu.start_from(r.start.clone(), 0, r.dt);
  gpu.step(50);
  return gpu.current().clone();
}

// The march kernel (a block marches a tile along z with a ring of layers in shared memory) on every grid: the
// default tile, tiles that leave partial tiles in x and y, single structures, and segments of 1, 2 and 5 layers
// (short last segments), with one and two layers copied ahead (two only where the ring fits shared memory: the
// default tiles of A15, Z and C15 do not), psi's rows pitched (the default; padded on the cubic, FCC and A15 test
// lattices, rows of 39, 17 and 9 structures, while BCC's 14, C15's 7 and Z's 9 are whole lines already) and in the
// lattice's layout, against the plain kernel after 50 steps; and a
// run switched from the march kernel to the plain one after 25 steps (the pitched state unpacked).
TEST(LeapfrogKernels, EveryMarchTilingEqualsThePlainKernel) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : dec::all_grid_types()) {
    const PlainReference r = plain_reference(grid, 13);
    const int m_s = r.problem.domain.lattice.cells;
    MarchTiling default_two_ahead = default_march_tiling(m_s), default_lattice_rows = default_march_tiling(m_s);
    default_two_ahead.ahead = 2;
    default_lattice_rows.pitched_rows = false;
    std::vector<MarchTiling> tilings = {
        default_march_tiling(m_s), MarchTiling{3, 2, 5},    MarchTiling{1, 1, 1}, MarchTiling{2, 1, 2},
        MarchTiling{3, 2, 0},      MarchTiling{2, 1, 1, 2}, default_lattice_rows, MarchTiling{3, 2, 5, 1, false}};
    if (m_s <= 12) tilings.insert(tilings.end(), {default_two_ahead, MarchTiling{3, 2, 5, 2}});
    for (const MarchTiling& tiling : tilings) {
      LeapfrogIntegrator gpu(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
      gpu.set_kernel(LeapfrogKernel::march);
      gpu.set_march_tiling(tiling);
      gpu.start_from(r.start.clone(), 0, r.dt);
      gpu.step(50);
      EXPECT_LT(loom::test::max_relative_difference(gpu.current(), r.after_50_steps), 1e-13)
          << dec::to_string(grid) << " march tile " << tiling.tile_x << "x" << tiling.tile_y << ", segments of "
          << tiling.segment_layers << ", " << tiling.ahead << " ahead" << (tiling.pitched_rows ? "" : ", lattice rows");
    }
    LeapfrogIntegrator switched(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
    switched.set_kernel(LeapfrogKernel::march);
    switched.start_from(r.start.clone(), 0, r.dt);
    switched.step(25);
    switched.set_kernel(LeapfrogKernel::plain);
    switched.step(25);
    EXPECT_LT(loom::test::max_relative_difference(switched.current(), r.after_50_steps), 1e-13)
        << dec::to_string(grid) << " march, then plain";
  }
}

// The pitched state read one array at a time (each of current() and previous() unpacks only its own array): psi(n)
// read alone mid-run, then more steps, then psi(n-1) before psi(n), equal the plain kernel's at the same steps; on
// cubic and FCC, whose test lattices' rows are padded.
TEST(LeapfrogKernels, PitchedStateReadOneArrayAtATime) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : {dec::GridType::cubic, dec::GridType::fcc}) {
    const PlainReference r = plain_reference(grid, 17);
    const dec::StructureLattice& lattice = r.problem.domain.lattice;
    ASSERT_NE(march_row_pitch(lattice.nx, lattice.cells), lattice.nx * lattice.cells)  // rows padded: the copies
        << dec::to_string(grid);
    LeapfrogIntegrator plain(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
    LeapfrogIntegrator march(core::Backend::cuda, r.problem.domain, {1.0, 100.0});
    plain.set_kernel(LeapfrogKernel::plain);
    march.set_kernel(LeapfrogKernel::march);
    ASSERT_TRUE(march.march_tiling().pitched_rows);
    plain.start_from(r.start.clone(), 0, r.dt);
    march.start_from(r.start.clone(), 0, r.dt);
    plain.step(25);
    march.step(25);
    EXPECT_LT(loom::test::max_relative_difference(march.current(), plain.current()), 1e-13)
        << dec::to_string(grid) << " psi(n) after 25 steps";
    plain.step(25);
    march.step(25);
    EXPECT_LT(loom::test::max_relative_difference(march.previous(), plain.previous()), 1e-13)
        << dec::to_string(grid) << " psi(n-1) after 50 steps";
    EXPECT_LT(loom::test::max_relative_difference(march.current(), plain.current()), 1e-13)
        << dec::to_string(grid) << " psi(n) after 50 steps";
  }
}

// The column order (a block updates a band of rows of one row segment over several layers) on every grid: column
// heights 1 and 3 layers (the lattices' layer counts leave a short last segment for 3 on most grids), bands of 1
// and 4 rows, 1 and 2 vertices per thread, grid stride and counter, against the plain kernel after 50 steps.
TEST(LeapfrogKernels, ColumnOrderEqualsThePlainKernel) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : dec::all_grid_types()) {
    const PlainReference r = plain_reference(grid, 11);
    for (int column_layers : {1, 3})
      for (int band_rows : {1, 4})
        for (int vertices : {1, 2})
          for (bool ordered : {false, true})
            EXPECT_LT(loom::test::max_relative_difference(
                          soa_after_50_steps(r, {band_rows, vertices, true, ordered, column_layers}), r.after_50_steps),
                      1e-13)
                << dec::to_string(grid) << " columns of " << column_layers << " layers, bands of " << band_rows
                << " rows, " << vertices << " vertices per thread" << (ordered ? ", in order" : "");
  }
}

// The soa kernel's launch choices change only the order of the updates: band heights 0 (whole slices), 1, one that
// leaves a short last band and the default 16, each with 1 and 2 vertices per thread, on every grid, equal the
// plain kernel after 50 steps, with tiles of whole chunks and of single rows, taken by a grid stride and in
// order from a counter.
TEST(LeapfrogKernels, EverySoaTuningEqualsThePlainKernel) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : dec::all_grid_types()) {
    const PlainReference r = plain_reference(grid, 7);
    const int ny = r.problem.domain.lattice.ny;
    int uneven = 2;  // a band height that leaves a short last band
    while (uneven < ny && ny % uneven == 0) ++uneven;
    ASSERT_LT(uneven, ny) << dec::to_string(grid);
    for (int band_rows : {0, 1, uneven, 16})
      for (int vertices : {1, 2})
        for (bool row_tiles : {false, true})
          for (bool ordered : {false, true})
            EXPECT_LT(loom::test::max_relative_difference(
                          soa_after_50_steps(r, {band_rows, vertices, row_tiles, ordered}), r.after_50_steps),
                      1e-13)
                << dec::to_string(grid) << " bands of " << band_rows << " rows, " << vertices << " vertices per thread"
                << (row_tiles ? ", row tiles" : "") << (ordered ? ", tiles in order" : "");
  }
}

// A few steps of every kernel on two grids: small enough for compute-sanitizer's memcheck and racecheck.
TEST(LeapfrogKernels, ShortRunsAgree) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (dec::GridType grid : {dec::GridType::bcc, dec::GridType::c15}) {
    auto p = test::make_problem(grid, 1.0, 100.0, 1, 0.5);
    LeapfrogIntegrator plain(core::Backend::cuda, p.domain, {1.0, 100.0});
    plain.set_kernel(LeapfrogKernel::plain);
    plain.start_from(p.psi0.clone(), 0, 1e-3);
    plain.step(20);
    for (LeapfrogKernel kernel :
         {LeapfrogKernel::tuned, LeapfrogKernel::shared, LeapfrogKernel::soa, LeapfrogKernel::march}) {
      LeapfrogIntegrator gpu(core::Backend::cuda, p.domain, {1.0, 100.0});
      gpu.set_kernel(kernel);
      gpu.start_from(p.psi0.clone(), 0, 1e-3);
      gpu.step(20);
      EXPECT_LT(loom::test::max_relative_difference(gpu.current(), plain.current()), 1e-13) << to_string(kernel);
    }
    // The march kernel copying two layers ahead (for the sanitizers), also in short segments whose last copies are
    // empty groups (tiles whose rings of six layers fit C15's shared memory too).
    for (const MarchTiling tiling : {MarchTiling{2, 1, 0, 2}, MarchTiling{2, 1, 2, 2}}) {
      LeapfrogIntegrator gpu(core::Backend::cuda, p.domain, {1.0, 100.0});
      gpu.set_kernel(LeapfrogKernel::march);
      gpu.set_march_tiling(tiling);
      gpu.start_from(p.psi0.clone(), 0, 1e-3);
      gpu.step(20);
      EXPECT_LT(loom::test::max_relative_difference(gpu.current(), plain.current()), 1e-13)
          << "march " << tiling.tile_x << "x" << tiling.tile_y << ", 2 ahead";
    }
  }
}

}  // namespace
}  // namespace loom::gpe
