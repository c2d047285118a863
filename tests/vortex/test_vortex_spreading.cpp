// When the cores spread (issue 21, twelfth session). With the paper's spreading at every step, sigma^2 grows by
// 2 nu (t - t_r) after the reinitialisation at t_r for all of a particle's strength, also for the part the
// stretching made after t_r: the small scales the cascade makes between reinitialisations are over-diffused by half
// the interval T on average, a damping ~ exp(-nu k^2 T) of E(k) on top of the cores' smoothing, so the dissipation
// depends on reinit.every. physics.spreading = reinit applies each interval's diffusion at its two ends (Strang
// splitting; the cores stay sigma = h between): the dissipation no longer depends on the interval to first order.
// From loom hit's seeded field on 32^3 (k_peak 1.5, nu 0.057: Re_lambda 12, kmax eta 1.85), particles on hit's grid,
// dt 0.04, to t = 0.8, against loom hit on the same grid. Measured (p 6, theta 0.6; docs/performance.md, twelfth
// session), dissipation at t = 0.8 against hit's, reinit.every 5 / 20: spreading at steps -7.26% / -10.88% (the
// two 3.9% apart), at the reinitialisations -6.09% / -7.59% (1.6% apart: the splitting's second-order error at an
// interval of 0.8, a fifth of an eddy turnover). Slow: ~3 minutes on two cores (two runs of 32^3 particles).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

// The dissipation in the last row of a run's series.csv.
double last_dissipation(const std::filesystem::path& series) {
  std::istringstream in(slurp(series));
  std::string line, last;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::istringstream h(line); std::getline(h, line, ',');) names.push_back(line);
  const auto column = std::size_t(std::find(names.begin(), names.end(), "dissipation") - names.begin());
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<double> row;
  for (std::istringstream r(last); std::getline(r, line, ',');) row.push_back(std::stod(line));
  return row.at(column);
}

TEST(VortexSpreading, AtTheReinitialisationsTheDissipationForgetsTheInterval) {
  TempDir dir;
  const std::string field = " --initial.seed 7 --initial.k_peak 1.5 --physics.nu 0.057 --time.t_end 0.8 --quiet "
                            "--output.fields false --output.plots false --backend cpu --output.dir ";
  ASSERT_EQ(run_loom("hit --grid.n 32 --initial.type random --time.dt 0.01 --output.every 0.8" + field +
                     (dir / "hit").string())
                .code,
            0);
  const auto vortex = [&](int every) {
    const std::filesystem::path out = dir / ("every" + std::to_string(every));
    const RunResult r = run_loom("vortex --particles.n 32 --initial.type hit --time.dt 0.04 --fmm.order 6 --fmm.theta "
                                 "0.6 --physics.spreading reinit --output.every 20 --reinit.every " +
                                 std::to_string(every) + field + out.string());
    EXPECT_EQ(r.code, 0) << r.err;
    return last_dissipation(out / "series.csv");
  };
  const double hit = last_dissipation(dir / "hit" / "series.csv");
  const double every5 = vortex(5), every20 = vortex(20);
  std::printf("dissipation at t = 0.8: hit %.6g, vortex every 5 %.6g (%+.2f%%), every 20 %.6g (%+.2f%%)\n", hit,
              every5, 100 * (every5 / hit - 1), every20, 100 * (every20 / hit - 1));
  EXPECT_NEAR(every20 / every5, 1, 0.025) << "spreading at steps: 0.961";
  EXPECT_NEAR(every5 / hit, 1, 0.068) << "spreading at steps: -7.26% with reinit.every 5";
  EXPECT_NEAR(every20 / hit, 1, 0.09) << "spreading at steps: -10.88% with reinit.every 20";
}

}  // namespace
}  // namespace loom::test
