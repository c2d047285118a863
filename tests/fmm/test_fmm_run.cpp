// The FMM's run layer (src/loom/fmm/run/): the typed configuration from the parameter registry (enums, the
// resolved core radius and periodic box, the keys that exclude each other refused with one-line messages), the
// errors of checks.hpp against results whose error is known exactly, and a whole run checked against the
// direct sum.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "loom/core/error.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/run/checks.hpp"
#include "loom/fmm/run/config.hpp"
#include "loom/fmm/run/fmm_run.hpp"

namespace loom::fmm {
namespace {

FmmConfig config_from(std::initializer_list<std::pair<const char*, const char*>> flags) {
  io::Parameters p;
  declare_parameters(p);
  for (const auto& [key, text] : flags) p.set_text(key, text, io::ParamSource::flag);
  return make_config(p);
}

std::string usage_message(std::initializer_list<std::pair<const char*, const char*>> flags) {
  try {
    config_from(flags);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(FmmConfig, IsTypedAndResolved) {
  const FmmConfig c = config_from({{"kernel", "biot-savart"},
                                   {"n", "8000"},
                                   {"dist", "plummer"},
                                   {"p", "7"},
                                   {"precision", "single-fast"},
                                   {"backend", "cpu"}});
  EXPECT_EQ(c.kernel, Kernel::biot_savart);
  EXPECT_EQ(c.bodies.distribution, Distribution::plummer);
  EXPECT_EQ(c.bodies.n, 8000);
  EXPECT_EQ(c.options.order, 7);
  EXPECT_EQ(c.options.precision, Precision::single_fast);
  EXPECT_EQ(c.options.backend, core::Backend::cpu);
  EXPECT_DOUBLE_EQ(c.sigma, 2.0 / 20.0);  // the mean spacing 2/n^(1/3)
  EXPECT_FALSE(c.options.periodic);

  const FmmConfig periodic =
      config_from({{"periodic", "true"}, {"image_levels", "3"}, {"kernel", "biot-savart"}, {"sigma", "0.25"}});
  EXPECT_TRUE(periodic.options.periodic);
  EXPECT_EQ(periodic.options.period, 2);
  EXPECT_EQ(periodic.options.box_lower.x, -1);
  EXPECT_EQ(periodic.options.image_levels, 3);
  EXPECT_EQ(periodic.sigma, 0.25);
}

TEST(FmmConfig, RefusesKeysThatExcludeEachOther) {
  EXPECT_EQ(usage_message({{"input", "b.csv"}, {"dist", "cube"}}),
            "dist: does not apply with --input (the bodies come from the file)");
  EXPECT_EQ(usage_message({{"input", "b.csv"}, {"kernel", "biot-savart"}}),
            "kernel = \"biot-savart\": input files hold charges x,y,z,q; use kernel laplace");
  EXPECT_EQ(usage_message({{"output", "r.csv"}, {"kernel", "biot-savart"}}), "");  // velocity and stretching
  EXPECT_EQ(usage_message({{"periodic", "true"}, {"dist", "sphere"}}),
            "periodic = true: needs dist = \"cube\" (the box [-1, 1)^3)");
  EXPECT_EQ(usage_message({{"input", "b.csv"}}), "");  // the file is read by the run, not the configuration
}

TEST(FmmChecks, ErrorsOfKnownDeviations) {
  const auto x = make_positions(Distribution::cube, 500, 3);
  const auto q = make_uniform(500, -1, 1, 4);
  Options o;
  const Reference ref = laplace_reference(x, q, reference_targets(500, 40, 1000000), o);
  ASSERT_EQ(ref.targets.size(), 40u);
  // a result equal to the direct sum everywhere, then scaled by (1 + eps): relative L2 errors 0, then eps
  LaplaceResult r;
  std::vector<Index> all(500);
  for (Index i = 0; i < 500; ++i) all[static_cast<std::size_t>(i)] = i;
  direct_laplace(x, q, all, r.potential, r.gradient);
  EXPECT_EQ(errors(r, ref).potential, 0);
  EXPECT_EQ(errors(r, ref).gradient, 0);
  const double eps = 1e-3;
  for (auto& v : r.potential) v *= 1 + eps;
  for (auto& g : r.gradient) g = (1 + eps) * g;
  EXPECT_NEAR(errors(r, ref).potential, eps, 1e-12);
  EXPECT_NEAR(errors(r, ref).gradient, eps, 1e-12);
  EXPECT_EQ(errors(r, Reference{}).potential, 0);  // no targets: nothing checked
}

TEST(FmmChecks, TargetsFitTheBudgetButNeverFewerThanTen) {
  EXPECT_EQ(reference_targets(1000, 200, 100000).size(), 100u);  // 1e5 pairs / 1000 bodies
  EXPECT_EQ(reference_targets(1000, 200, 1000).size(), 10u);
  EXPECT_EQ(reference_targets(1000, 5, 1000).size(), 5u);
  EXPECT_TRUE(reference_targets(1000, 0, 1000).empty());
}

TEST(FmmRun, ChecksItsResultAgainstTheDirectSum) {
  FmmConfig c = config_from({{"n", "3000"}, {"dist", "sphere"}, {"p", "10"}, {"samples", "100"}, {"backend", "cpu"}});
  FmmRun run(c);
  run.prepare();
  EXPECT_EQ(run.bodies(), 3000);
  EXPECT_EQ(run.source(), "sphere");
  run.evaluate();
  EXPECT_GT(run.statistics().m2l_pairs, 0);
  run.check();
  ASSERT_TRUE(run.laplace_errors());
  EXPECT_EQ(run.checked_targets(), 100);
  EXPECT_LT(run.laplace_errors()->potential, 1e-6);
  EXPECT_LT(run.laplace_errors()->gradient, 1e-6);
  EXPECT_GT(run.laplace_errors()->gradient, 0);  // an approximation, not the reference itself
  EXPECT_EQ(run.summary()["errors"]["targets"], 100);
}

TEST(FmmRun, PeriodicBiotSavartSaysWhyItIsNotChecked) {
  FmmConfig c = config_from({{"n", "1000"},
                             {"kernel", "biot-savart"},
                             {"periodic", "true"},
                             {"p", "4"},
                             {"samples", "10"},
                             {"backend", "cpu"}});
  std::ostringstream out, log;
  EXPECT_EQ(run_fmm(c, out, log), 0);
  EXPECT_NE(out.str().find("not checked (no periodic Biot-Savart reference in the tool)"), std::string::npos)
      << out.str();
  EXPECT_TRUE(log.str().empty());
}

}  // namespace
}  // namespace loom::fmm
