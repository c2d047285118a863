// Each system's memory estimate (what check_memory compares with the free memory) against the peak resident set
// the kernel measured for a run of that size: within a factor 1.5 either way, so that a refusal is honest and a
// run that fits is not refused. The runs are sized for their arrays to outweigh the executable's base.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "apps/run_loom.hpp"
#include "loom/fmm/run/config.hpp"
#include "loom/fmm/run/memory_need.hpp"
#include "loom/gpe/run/memory_need.hpp"
#include "loom/gr/config.hpp"
#include "loom/gr/memory_need.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/memory.hpp"
#include "loom/spectral/memory_need.hpp"
#include "loom/spectral/tool_config.hpp"

namespace loom::test {
namespace {

struct Measured {
  int code = -1;
  double peak_rss = 0;  // bytes
  std::string err;
};

// Runs loom with `args` (split at spaces) as a child of its own and returns its peak RSS (wait4's rusage).
Measured run_measured(const std::string& args, const TempDir& dir) {
  std::vector<std::string> words{LOOM_EXECUTABLE};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  const std::string err_path = (dir / "stderr").string();
  const pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(err_path.c_str(), "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(127);
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, double(usage.ru_maxrss) * 1024, slurp(dir / "stderr")};
}

void expect_close(double estimate, double measured, const std::string& what) {
  EXPECT_LT(estimate, 1.5 * measured) << what << ": estimate " << estimate / 1e6 << " MB, peak RSS "
                                      << measured / 1e6 << " MB";
  EXPECT_GT(estimate, measured / 1.5) << what << ": estimate " << estimate / 1e6 << " MB, peak RSS "
                                      << measured / 1e6 << " MB";
}

TEST(MemoryEstimates, GpeHostEstimateMatchesPeakRss) {
  TempDir dir;
  const Measured m = run_measured("gpe --grid.points_per_wavelength 60 --physics.g 100 --time.t_end 0.005 "
                                  "--backend cpu --output.plots false --output.dir " + (dir / "run").string(), dir);
  ASSERT_EQ(m.code, 0) << m.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(m.err, match, std::regex("([0-9]+) dual vertices"))) << m.err;
  const double dof = std::stod(match[1]);
  expect_close(gpe::gpe_memory_need(dof).host_bytes, m.peak_rss, "gpe, " + match[1].str() + " unknowns");
}

TEST(MemoryEstimates, HitHostEstimateMatchesPeakRss) {
  TempDir dir;
  const std::string args = "--grid.n 128 --time.t_end 0.002 --backend cpu --output.plots false";
  const Measured m = run_measured("hit " + args + " --output.dir " + (dir / "run").string(), dir);
  ASSERT_EQ(m.code, 0) << m.err;
  io::Parameters p = hit::hit_parameters();
  p.set_text("grid.n", "128", io::ParamSource::flag);
  expect_close(hit::estimate_memory(hit::make_hit_config(p)).host_bytes, m.peak_rss, "hit, 128^3");
}

TEST(MemoryEstimates, FmmHostEstimateMatchesPeakRss) {
  TempDir dir;
  const Measured m = run_measured("fmm --n 500000 --samples 10 --backend cpu", dir);
  ASSERT_EQ(m.code, 0) << m.err;
  io::Parameters p;
  fmm::declare_parameters(p);
  p.set_text("n", "500000", io::ParamSource::flag);
  expect_close(fmm::memory_need(fmm::make_config(p)).host_bytes, m.peak_rss, "fmm, 5e5 bodies");
}

using Flags = std::vector<std::pair<std::string, std::string>>;

// `flags` (pairs of key and value) set on a command's parameters as from the command line.
io::Parameters with_flags(io::Parameters p, const Flags& flags) {
  for (const auto& [key, value] : flags) p.set_text(key, value, io::ParamSource::flag);
  return p;
}

// The parameters of a command whose keys `declare` adds.
io::Parameters declared(void (*declare)(io::Parameters&), const Flags& flags) {
  io::Parameters p;
  declare(p);
  return with_flags(std::move(p), flags);
}

std::string flag_text(const Flags& flags) {
  std::string text;
  for (const auto& [key, value] : flags) text += " --" + key + " " + value;
  return text;
}

// Three shapes whose largest arrays differ: the dense angular matrices (2 x (N_theta N_phi)^2 doubles), the fields
// of a many-component tensor on a long radial axis, and a cube's fields (its matrices are n^2).
TEST(MemoryEstimates, SpectralHostEstimateMatchesPeakRss) {
  const std::vector<Flags> runs = {
      {{"extents", "10,44,88"}},
      {{"extents", "400,16,32"}, {"tensor", "abb"}},
      {{"topology", "cube"}, {"extents", "64,64,64"}, {"tensor", "abb"}}};
  for (const auto& flags : runs) {
    TempDir dir;
    const Measured m = run_measured("spectral --repeats 1 --warmup 0" + flag_text(flags), dir);
    ASSERT_EQ(m.code, 0) << m.err;
    const auto p = declared(spectral::declare_spectral_parameters, flags);
    expect_close(spectral::spectral_memory_need(spectral::spectral_tool_config(p)).host_bytes, m.peak_rss,
                 "spectral" + flag_text(flags));
  }
}

// The quick sweeps' largest point: the Jacobian sweep's diffjac on 10^5 points of T_abb (40 components, 3 blocks).
TEST(MemoryEstimates, BenchSpectralHostEstimateMatchesPeakRss) {
  TempDir dir;
  const Flags flags = {
      {"quick", "true"}, {"backend", "cpu"}, {"cpu_threads", "0"}};
  const Measured m = run_measured("bench spectral" + flag_text(flags), dir);
  ASSERT_EQ(m.code, 0) << m.err;
  const auto p = declared(spectral::declare_bench_spectral_parameters, flags);
  expect_close(spectral::bench_spectral_memory_need(spectral::bench_spectral_config(p)).need.host_bytes, m.peak_rss,
               "bench spectral --quick");
}

TEST(MemoryEstimates, BhHostEstimateMatchesPeakRss) {
  TempDir dir;
  const Flags flags = {
      {"grid.extents", "16,32,64"}, {"time.t_end", "0.01"}, {"time.dt", "0.01"}, {"backend", "cpu"}};
  const Measured m = run_measured("bh --quiet true --output.fields false --output.plots false" + flag_text(flags) +
                                      " --output.dir " + (dir / "run").string(),
                                  dir);
  ASSERT_EQ(m.code, 0) << m.err;
  const auto c = gr::make_bh_config(with_flags(gr::bh_parameters(), flags));
  expect_close(gr::bh_memory_need(c, core::cpu_threads()).host_bytes, m.peak_rss, "bh 16,32,64 on two shells");
}

}  // namespace
}  // namespace loom::test
