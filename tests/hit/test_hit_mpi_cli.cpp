// `mpiexec -n N loom hit` as a user meets it (issue 20, item 4): on 2 and 3 ranks (16 planes: uneven slabs of
// 6, 6, 4) the run writes the outputs of the one-rank run to rounding (series, spectra, summary, field snapshots,
// checkpoint), with FFTW's MPI transforms, the MPI_Alltoall transposes (fft.slabs = alltoall) and on the GPU
// (skips without a device); a checkpoint written on 2 ranks continues on 3 to the straight one-rank result, across
// the two slab transforms too; more ranks than the slabs can feed, or a run directory that cannot be made, stop
// every rank with one message (exit 2).
// Launches mpiexec itself (label mpi).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/mpi_runs.hpp"
#include "gpe/relative_difference.hpp"
#include "loom/core/backend.hpp"
#include "loom/hit/checkpoint.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::test {
namespace {

// A random field on 16^3 at Courant steps (their length needs the speed of every rank), snapshots every 0.1.
const std::string problem =
    "hit --grid.n 16 --initial.type random --initial.k_peak 3 --physics.nu 0.01 --output.every 0.05 "
    "--output.fields_every 0.1 --quiet --output.plots false";
// Output periods for runs shorter than the periods above (a period past t_end is refused).
const std::string short_run = " --output.every 0.01 --output.fields_every 0.01";
constexpr double tolerance = 1e-12;
constexpr int wall_column = 16;  // series.csv's wall_s
constexpr int divergence_column = 15;  // series.csv's divergence_max

// series.csv of two runs: every column but the wall time and max |div u| to `tolerance` (relative). max |div u|
// is a rounding residue whose bits depend on the decomposition (each rank builds its own slab of the initial
// field): column_max checks it stays at rounding instead.
double series_difference(const std::filesystem::path& a, const std::filesystem::path& b) {
  const auto ra = csv_rows(a), rb = csv_rows(b);
  if (ra.size() != rb.size() || ra.empty()) return 1;
  double worst = 0;
  for (std::size_t c = 0; c < ra[0].size(); ++c) {
    if (int(c) == wall_column || int(c) == divergence_column) continue;
    double diff = 0, scale = 0;
    for (std::size_t r = 0; r < ra.size(); ++r)
      diff = std::max(diff, std::fabs(ra[r][c] - rb[r][c])), scale = std::max(scale, std::fabs(rb[r][c]));
    worst = std::max(worst, diff / std::max(scale, 1e-300));
  }
  return worst;
}

double column_max(const std::filesystem::path& csv, int column) {
  double m = 0;
  for (const auto& row : csv_rows(csv)) m = std::max(m, std::fabs(row[std::size_t(column)]));
  return m;
}

std::vector<double> modes_of(const std::filesystem::path& file) {
  const auto c = hit::read_checkpoint(file);
  const auto m = c.modes.host();
  std::vector<double> out;
  for (const auto& v : m) out.push_back(v.re), out.push_back(v.im);
  return out;
}

// The run of `problem + flags` on each of `rank_counts` against the one-rank run of `one_rank_flags`.
void expect_outputs_as_one_rank(const std::string& flags, std::initializer_list<int> rank_counts,
                                const std::string& one_rank_flags = "") {
  TempDir dir;
  const auto one = dir / "one";
  const RunResult r1 = run_on_ranks(1, problem + one_rank_flags + " --time.t_end 0.3 --output.dir " + one.string());
  ASSERT_EQ(r1.code, 0) << r1.err;
  for (int ranks : rank_counts) {
    const auto many = dir / ("ranks" + std::to_string(ranks));
    const RunResult r = run_on_ranks(ranks, problem + flags + " --time.t_end 0.3 --output.dir " + many.string());
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string what = std::to_string(ranks) + " ranks";
    EXPECT_EQ(line_count(r.out), 1u) << "rank 0 alone reports: " << r.out;
    for (const char* f : {"input.toml", "series.csv", "spectra.csv", "summary.json", "fields.xdmf", "fields_0000.h5",
                          "fields_0003.h5", "checkpoint.h5"})
      EXPECT_TRUE(std::filesystem::exists(many / f)) << f << ", " << what;
    EXPECT_LT(series_difference(many / "series.csv", one / "series.csv"), tolerance) << what;
    EXPECT_LT(column_max(many / "series.csv", divergence_column), 1e-13) << what;  // |u| ~ 1, |omega| ~ 3
    EXPECT_LT(csv_difference(many / "spectra.csv", one / "spectra.csv"), tolerance) << what;
    for (const char* f : {"fields_0000.h5", "fields_0003.h5"}) {
      const io::Hdf5Reader a(many / f), b(one / f);
      for (const char* field : {"fields/velocity", "fields/vorticity", "fields/vorticity_magnitude"})
        EXPECT_LT(max_relative_difference(a.read_double(field), b.read_double(field)), tolerance)
            << f << " " << field << ", " << what;
    }
    EXPECT_LT(max_relative_difference(modes_of(many / "checkpoint.h5"), modes_of(one / "checkpoint.h5")), tolerance)
        << what;
    const auto sa = nlohmann::json::parse(slurp(many / "summary.json")),
               sb = nlohmann::json::parse(slurp(one / "summary.json"));
    EXPECT_EQ(sa["ranks"], ranks);
    EXPECT_EQ(sb["ranks"], 1);
    EXPECT_EQ(sa["steps"], sb["steps"]);
    for (const char* key : {"energy", "enstrophy", "dissipation", "skewness", "re_lambda"})
      EXPECT_NEAR(sa[key].get<double>(), sb[key].get<double>(), tolerance * std::abs(sb[key].get<double>()))
          << key << ", " << what;
  }
}

TEST(HitMpiCli, OutputsOnSeveralRanksEqualOneRank) { expect_outputs_as_one_rank("", {2, 3}); }

// The GPU's algorithm (MPI_Alltoall transposes, transposed modes) on CPU ranks: the same outputs.
TEST(HitMpiCli, AlltoallSlabsOnSeveralRanksEqualOneRank) {
  expect_outputs_as_one_rank(" --fft.slabs alltoall", {2, 3});
}

// `mpiexec -n 2 loom hit --backend cuda`: the ranks share the one GPU (or take one each).
TEST(HitMpiCli, CudaOnTwoRanksEqualsOneRank) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  expect_outputs_as_one_rank(" --backend cuda", {2}, " --backend cuda");
}

// Fixed steps, so that the run split at t = 0.04 takes the steps of the straight one: written on 2 ranks with
// `first_flags`, continued on 3 and on 1 with `second_flags` (each rank reads its own slab of the checkpoint).
void expect_checkpoint_continues(const std::string& first_flags, const std::string& second_flags) {
  TempDir dir;
  const auto straight = dir / "straight", first = dir / "first";
  const std::string fixed = problem + " --time.dt 0.02";
  ASSERT_EQ(run_on_ranks(1, fixed + " --time.t_end 0.1 --output.dir " + straight.string()).code, 0);
  const RunResult a =
      run_on_ranks(2, fixed + first_flags + short_run + " --time.t_end 0.04 --output.dir " + first.string());
  ASSERT_EQ(a.code, 0) << a.err;
  const auto reference = hit::read_checkpoint(straight / "checkpoint.h5");
  for (int ranks : {3, 1}) {
    const auto second = dir / ("second-" + std::to_string(ranks));
    const RunResult b =
        run_on_ranks(ranks, fixed + second_flags + " --time.t_end 0.1 --initial.type checkpoint --initial.file " +
                                (first / "checkpoint.h5").string() + " --output.dir " + second.string());
    ASSERT_EQ(b.code, 0) << b.err;
    const auto c = hit::read_checkpoint(second / "checkpoint.h5");
    EXPECT_EQ(c.step, 5) << ranks;
    EXPECT_EQ(c.step, reference.step) << ranks;
    EXPECT_NEAR(c.time, reference.time, 1e-15) << ranks;
    EXPECT_LT(max_relative_difference(modes_of(second / "checkpoint.h5"), modes_of(straight / "checkpoint.h5")),
              tolerance)
        << ranks;
  }
}

// initial.type = file on 3 ranks (each reads its planes by a hyperslab) against 1 rank reading the same file.
TEST(HitMpiCli, FieldFilesAreReadBySlab) {
  TempDir dir;
  const auto source = dir / "source", one = dir / "one", three = dir / "three";
  const std::string fixed = problem + " --time.dt 0.02";
  ASSERT_EQ(run_on_ranks(1, fixed + " --time.t_end 0.1 --output.dir " + source.string()).code, 0);
  const std::string from_file = fixed + " --time.t_end 0.1 --initial.type file --initial.file " +
                                (source / "fields_0000.h5").string() + " --output.dir ";
  const RunResult a = run_on_ranks(1, from_file + one.string()), b = run_on_ranks(3, from_file + three.string());
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_LT(series_difference(three / "series.csv", one / "series.csv"), tolerance);
}

TEST(HitMpiCli, CheckpointsContinueOnAnotherNumberOfRanks) { expect_checkpoint_continues("", ""); }

// A checkpoint of the transposed modes continues under FFTW's MPI slabs, and the other way round.
TEST(HitMpiCli, CheckpointsCrossTheSlabTransforms) {
  expect_checkpoint_continues(" --fft.slabs alltoall", "");
  expect_checkpoint_continues("", " --fft.slabs alltoall");
}

// `mpiexec -n 2 loom bench hit --fft.slabs alltoall` (on the GPU: --backend cuda, the same counts): the bytes a
// rank sends per step, counted by hand: 4 evaluations of N x (6 inverse + 3 forward components), each component
// one MPI_Alltoall sending the other rank a block of 8 planes x 8 rows x 9 kx complex values (16^3 on 2 ranks).
TEST(HitMpiCli, BenchReportsTheAlltoallShareAndBytes) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_on_ranks(2, "bench hit --backend cpu --fft.slabs alltoall --sizes 16 --repeats 2 "
                                      "--warmup 1 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("alltoall %"), std::string::npos) << r.out;
  const auto step = nlohmann::json::parse(slurp(json))["steps"][0];
  EXPECT_EQ(step["ranks"], 2);
  EXPECT_EQ(step["alltoall_sent_bytes_per_step"].get<double>(), 4.0 * 9 * (8 * 8 * 9) * 16);
  EXPECT_EQ(step["alltoall_staged_bytes_per_step"].get<double>(), 0.0);  // host arrays travel as they are
  EXPECT_GT(step["alltoall_share"].get<double>(), 0.0);
  EXPECT_LT(step["alltoall_share"].get<double>(), 1.0);
}

std::size_t errors_in(const std::string& err) {
  std::size_t errors = 0;
  for (std::size_t at = err.find("error: "); at != std::string::npos; at = err.find("error: ", at + 1)) ++errors;
  return errors;
}

TEST(HitMpiCli, RanksWithoutAPlaneAreRefusedWithOneMessage) {
  TempDir dir;
  // 8 planes on 5 ranks: FFTW's blocks of 2 feed 4 ranks.
  const RunResult r =
      run_on_ranks(5, problem + short_run + " --grid.n 8 --time.t_end 0.01 --output.dir " + (dir / "x").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(errors_in(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("grid.n = 8 on 5 ranks"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at most 4 ranks"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x"));
  // The same on 4 ranks runs (and on 3: uneven 3, 3, 2).
  for (int ranks : {3, 4})
    EXPECT_EQ(run_on_ranks(ranks, problem + short_run + " --grid.n 8 --time.t_end 0.01 --output.dir " +
                                      (dir / std::to_string(ranks)).string())
                  .code,
              0)
        << ranks;
}

TEST(HitMpiCli, AnUnusableRunDirectoryStopsEveryRankWithOneMessage) {
  TempDir dir;
  const auto taken = dir / "taken";
  std::filesystem::create_directories(taken);
  { std::ofstream(taken / "something") << "x"; }
  const RunResult r = run_on_ranks(3, problem + short_run + " --time.t_end 0.01 --output.dir " + taken.string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(errors_in(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("output.dir"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loom::test
