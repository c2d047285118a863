// The GPE on slabs across MPI ranks (the DEC-GPE paper, section 4.2; issue 5, item 3), run by ctest under mpiexec
// with 2, 3 and 4 ranks (and alone, as one rank). The independent result is the one-rank integration of the same
// problem, which every rank also computes by itself: after 200 leapfrog steps the gathered slabs and the observables
// reduced over ranks must equal it to rounding on BCC and C15, a checkpoint written on N ranks must continue on
// M ranks, and on the GPU every kernel must do the same with two ranks sharing one device.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "gpe/relative_difference.hpp"
#include "io/temp_dir.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/halo_exchange.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/model/initial_state.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"
#include "loom/gpe/parallel/slab_observables.hpp"
#include "loom/gpe/run/checkpoint.hpp"

namespace loom::gpe {
namespace {

using comm::Communicator;
using core::Backend;
using dec::GridType;

constexpr double tolerance = 1e-12;  // the "equal to rounding"
constexpr int steps = 200;           // the issue's

// max |a_i - b_i| / max |b_i| over the global lattice, of the slabs `local` gathered on rank 0 against `global`;
// the same number on every rank.
double gathered_difference(const SlabDomain& slab, const core::Array<Complex>& local,
                           const core::Array<Complex>& global) {
  std::vector<Complex> all(slab.comm().is_root() ? global.size() : 0);
  slab.gather(local, all);
  std::array<double, 1> d{0};
  if (slab.comm().is_root()) d[0] = loom::test::max_relative_difference(std::span<const Complex>(all), global.host());
  slab.comm().broadcast(d, 0);
  return d[0];
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

// Rank 0's path on every rank (the ranks share the machine's file system).
std::filesystem::path rank0_path(const Communicator& comm, const std::filesystem::path& mine) {
  const std::string text = mine.string();
  std::array<double, 1> length{double(text.size())};
  comm.broadcast(length, 0);
  std::vector<double> chars(static_cast<std::size_t>(length[0]));
  for (std::size_t i = 0; i < chars.size() && comm.is_root(); ++i)
    chars[i] = double(static_cast<unsigned char>(text[i]));
  comm.broadcast(chars, 0);
  std::string out;
  for (double c : chars) out.push_back(static_cast<char>(static_cast<unsigned char>(c)));
  return out;
}

// A state that evolves, cheap to make (the comparison needs no stationary state): a singly quantised vortex in a
// Gaussian, (x + i y) exp(-|r|^2 / 2) in units of a quarter of the box, with a seeded 1% perturbation, on
// nx x ny x nz structures of mean dual edge `edge`.
struct Evolving {
  LatticeDomain domain;
  core::Array<Complex> start;
};
Evolving evolving(GridType grid, double edge, int nx, int ny, int nz) {
  Evolving e{make_lattice_domain(grid, scale_for_dual_edge(grid, edge), nx, ny, nz), {}};
  const Hamiltonian h = e.domain.hamiltonian(core::Where::host, {1.0, 100.0});
  const dec::Vec3 quarter = 0.25 * e.domain.extent();
  e.start = core::Array<Complex>(static_cast<std::size_t>(e.domain.dof()));
  Complex* p = e.start.write(core::Where::host);
  for (Index i = 0; i < e.domain.dof(); ++i) {
    const dec::Vec3 r = h.position(i);
    const double x = r.x / quarter.x, y = r.y / quarter.y, z = r.z / quarter.z;
    p[i] = std::exp(-0.5 * (x * x + y * y + z * z)) * Complex{x, y};
  }
  perturb(e.start, 0.01, 5);
  normalise(core::Backend::cpu, h, e.start);
  return e;
}
Evolving evolving(GridType grid) {
  return grid == GridType::c15 ? evolving(grid, 0.6, 2, 2, 6) : evolving(grid, 0.45, 4, 4, 9);
}

double stable_dt(Backend b, const LatticeDomain& domain, const core::Array<Complex>& psi) {
  LeapfrogIntegrator probe(b, domain, {1.0, 100.0});
  probe.set_state(psi.clone(), psi.clone(), 0, 0, 0);
  return 0.9 * probe.stability_bound();
}

// `step_count` steps on one rank (every rank alone) and on slabs over `comm`, from the RK4 starter; compares psi, the
// stability bound and every observable of a run's series.
void expect_slabs_equal_one_rank(const Communicator& comm, Backend b, const LatticeDomain& domain,
                                 const core::Array<Complex>& start, LeapfrogKernel kernel, HaloTransport transport,
                                 const std::string& what, int step_count = steps) {
  const auto w = core::where(b);
  const double dt = stable_dt(b, domain, start);
  LeapfrogIntegrator one(b, domain, {1.0, 100.0});
  one.set_kernel(kernel);
  one.start_from(start.clone(), 0, dt);
  one.step(step_count);

  const SlabDomain slab(domain, comm);
  LeapfrogIntegrator many(b, slab, {1.0, 100.0}, transport);
  many.set_kernel(kernel);
  many.set_state(slab.restrict_to_slab(start.clone()), slab.restrict_to_slab(start.clone()), 0, 0, 0);
  EXPECT_EQ(0.9 * many.stability_bound(), dt) << what;  // a max over ranks: exact
  many.start_from(slab.restrict_to_slab(start.clone()), 0, dt);
  many.step(step_count);
  EXPECT_EQ(many.steps_done(), one.steps_done());
  EXPECT_LT(gathered_difference(slab, many.current(), one.current()), tolerance) << what;
  EXPECT_LT(gathered_difference(slab, many.previous(), one.previous()), tolerance) << what;

  const Hamiltonian h1 = domain.hamiltonian(w, {1.0, 100.0}), hn = many.hamiltonian();
  const Complex* psi1 = one.current().read(w);
  const Complex* psin = many.current().read(w);
  const Observables a = measure(b, h1, psi1), c = measure(slab, b, hn, psin);
  EXPECT_LT(relative(c.norm, a.norm), tolerance) << what;
  EXPECT_LT(relative(c.energy(), a.energy()), tolerance) << what;
  EXPECT_LT(relative(c.mu(), a.mu()), tolerance) << what;
  EXPECT_EQ(c.max_abs, a.max_abs) << what;  // a max: exact
  const core::Array<Complex> reference = slab.restrict_to_slab(start.clone());
  const Complex o1 = inner_product(b, h1, start.read(w), psi1);
  const Complex on = inner_product(slab, b, hn, reference.read(w), psin);
  EXPECT_LT(core::abs(on - o1) / core::abs(o1), tolerance) << what;
  const Complex phase = core::polar(1.0, -0.3);
  EXPECT_LT(relative(rms_difference(slab, b, psin, reference.read(w), phase),
                     rms_difference(b, domain.dof(), psi1, start.read(w), phase)),
            tolerance)
      << what;
}

TEST(GpeSlabs, SlabsCoverTheLatticeAndGatherBack) {
  const auto world = Communicator::world();
  const LatticeDomain domain = make_lattice_domain(GridType::c15, 1.0, 2, 3, 7);
  const SlabDomain slab(domain, world);
  EXPECT_EQ(slab.local().dof(), slab.layer_size() * (slab.slab().layers() + slab.halo_below() + slab.halo_above()));
  EXPECT_EQ(slab.local().z_offset, slab.slab().begin - slab.halo_below());
  EXPECT_EQ(world.sum(std::int64_t{slab.owned_size()}), domain.dof());
  // A field numbering the global vertices: the slab holds its own numbers, halos included; gathered, all of them.
  core::Array<Complex> numbers(static_cast<std::size_t>(domain.dof()));
  Complex* n = numbers.write(core::Where::host);
  for (Index i = 0; i < domain.dof(); ++i) n[i] = {double(i), -double(i)};
  const core::Array<Complex> mine = slab.restrict_to_slab(numbers.clone());
  const Index first_global = slab.layer_size() * slab.local().z_offset;
  for (Index i = 0; i < slab.local().dof(); i += 97)
    ASSERT_EQ(mine.host()[std::size_t(i)].re, double(first_global + i));
  EXPECT_EQ(gathered_difference(slab, mine, numbers), 0.0);
  // Positions of the slab's Hamiltonian are the global ones, to the bit.
  const Hamiltonian g = domain.hamiltonian(core::Where::host, {1, 0}),
                    l = slab.local().hamiltonian(core::Where::host, {1, 0});
  for (Index i = 0; i < slab.local().dof(); i += 13) {
    EXPECT_EQ(l.position(i).z, g.position(first_global + i).z);
    EXPECT_EQ(l.potential(i), g.potential(first_global + i));
  }
}

TEST(GpeSlabs, BccEqualsOneRankAfter200Steps) {
  const auto e = evolving(GridType::bcc);
  ASSERT_GE(e.domain.lattice.nz, Communicator::world().size());
  for (LeapfrogKernel kernel : leapfrog_kernels(Backend::cpu))
    expect_slabs_equal_one_rank(Communicator::world(), Backend::cpu, e.domain, e.start, kernel,
                                HaloTransport::automatic, "bcc " + std::string(to_string(kernel)));
}

TEST(GpeSlabs, C15EqualsOneRankAfter200Steps) {
  const auto e = evolving(GridType::c15);
  ASSERT_GE(e.domain.lattice.nz, Communicator::world().size());
  for (LeapfrogKernel kernel : leapfrog_kernels(Backend::cpu))
    expect_slabs_equal_one_rank(Communicator::world(), Backend::cpu, e.domain, e.start, kernel,
                                HaloTransport::automatic, "c15 " + std::string(to_string(kernel)));
}

// Five layers: on 4 ranks three of them own a single layer, both edges at once (2, 1, 1, 1); on 3, (2, 2, 1).
TEST(GpeSlabs, SingleLayerSlabsEqualOneRank) {
  for (GridType grid : {GridType::bcc, GridType::c15}) {
    const auto e = evolving(grid, 0.5, 3, 2, 5);
    for (LeapfrogKernel kernel : leapfrog_kernels(Backend::cpu))
      expect_slabs_equal_one_rank(Communicator::world(), Backend::cpu, e.domain, e.start, kernel,
                                  HaloTransport::automatic,
                                  std::string(dec::to_string(grid)) + " " + std::string(to_string(kernel)));
  }
}

// A checkpoint written from N ranks (gathered on rank 0, as loom gpe writes it) continues on M = 1..N ranks (the first
// M ranks of the job), and one written from M ranks continues on N, to the one-rank result.
TEST(GpeSlabs, CheckpointsRestartOnOtherRankCounts) {
  const auto world = Communicator::world();
  loom::test::TempDir dir;
  const std::filesystem::path file = rank0_path(world, dir / "slab.h5");
  for (GridType grid : {GridType::bcc, GridType::c15}) {
    const auto e = evolving(grid);
    const double dt = stable_dt(Backend::cpu, e.domain, e.start);
    LeapfrogIntegrator one(Backend::cpu, e.domain, {1.0, 100.0});
    one.start_from(e.start.clone(), 0, dt);
    one.step(steps);
    for (int writers = 1; writers <= world.size(); ++writers) {
      const int readers = writers == world.size() ? 1 : world.size();  // N -> 1 and M -> N
      {
        const Communicator part = world.split(world.rank() < writers ? 0 : 1);
        if (world.rank() < writers) {
          const SlabDomain slab(e.domain, part);
          LeapfrogIntegrator it(Backend::cpu, slab, {1.0, 100.0});
          it.start_from(slab.restrict_to_slab(e.start.clone()), 0, dt);
          it.step(steps / 2);
          Checkpoint c;
          c.previous.resize(part.is_root() ? std::size_t(e.domain.dof()) : 0);
          c.current.resize(c.previous.size());
          slab.gather(it.previous(), c.previous);
          slab.gather(it.current(), c.current);
          if (part.is_root()) {
            c.grid = std::string(dec::to_string(grid));
            c.nx = e.domain.lattice.nx;
            c.ny = e.domain.lattice.ny;
            c.nz = e.domain.lattice.nz;
            c.time = it.time();
            c.dt = it.dt();
            c.step = it.steps_done();
            write_checkpoint(file, c);
          }
        }
        world.barrier();
      }
      const Communicator part = world.split(world.rank() < readers ? 0 : 1);
      if (world.rank() < readers) {
        const Checkpoint c = read_checkpoint(file);
        const SlabDomain slab(e.domain, part);
        LeapfrogIntegrator it(Backend::cpu, slab, {1.0, 100.0});
        it.set_state(slab.restrict_to_slab(core::Array<Complex>::from(c.previous)),
                     slab.restrict_to_slab(core::Array<Complex>::from(c.current)), c.time, c.dt, c.step);
        it.step(steps - c.step);
        EXPECT_EQ(it.steps_done(), steps);
        EXPECT_EQ(it.time(), one.time());
        const double d = gathered_difference(slab, it.current(), one.current());
        EXPECT_LT(d, tolerance) << dec::to_string(grid) << ": written on " << writers << ", read on " << readers;
      }
      world.barrier();
    }
  }
}

bool cuda_on_every_rank(const Communicator& world) {
  return world.min(core::backend_available(Backend::cuda) ? 1.0 : 0.0) > 0;
}

// Two ranks sharing one GPU (the coordinator runs it under mpiexec -n 2 on an H200): every kernel, halos through
// pinned host buffers and, where the MPI library is CUDA-aware, device to device, against one rank on the GPU.
TEST(GpeSlabsCuda, EveryKernelEqualsOneRankOnTheGpu) {
  const auto world = Communicator::world();
  if (!cuda_on_every_rank(world)) GTEST_SKIP() << "no CUDA device on every rank";
  comm::select_rank_device(world);
  std::vector<HaloTransport> transports{HaloTransport::staged};
  if (comm::cuda_aware_mpi()) transports.push_back(HaloTransport::cuda_aware);
  for (GridType grid : {GridType::bcc, GridType::c15}) {
    const auto e = evolving(grid);
    for (LeapfrogKernel kernel : leapfrog_kernels(Backend::cuda))
      for (HaloTransport t : transports)
        expect_slabs_equal_one_rank(
            world, Backend::cuda, e.domain, e.start, kernel, t,
            std::string(dec::to_string(grid)) + " " + std::string(to_string(kernel)) + " " + std::string(to_string(t)));
  }
}

// A few steps of every kernel with both transports on a small BCC lattice: short enough for compute-sanitizer's
// memcheck under mpiexec (the layer ranges, the slab's plain kernel, the copies into and out of the halos).
TEST(GpeSlabsCuda, ShortRunsForTheSanitizer) {
  const auto world = Communicator::world();
  if (!cuda_on_every_rank(world)) GTEST_SKIP() << "no CUDA device on every rank";
  comm::select_rank_device(world);
  std::vector<HaloTransport> transports{HaloTransport::staged};
  if (comm::cuda_aware_mpi()) transports.push_back(HaloTransport::cuda_aware);
  const auto e = evolving(GridType::bcc, 0.5, 3, 2, 5);
  for (LeapfrogKernel kernel : leapfrog_kernels(Backend::cuda))
    for (HaloTransport t : transports)
      expect_slabs_equal_one_rank(world, Backend::cuda, e.domain, e.start, kernel, t,
                                  std::string(to_string(kernel)) + " " + std::string(to_string(t)), 10);
}

}  // namespace
}  // namespace loom::gpe
