// TOML input fuzzed: a valid `loom gpe` input file mutated at random (fixed seed, fixed case count) is either
// accepted or refused with UsageError (exit 2), never anything else (a crash, an internal Error, a hang).
#include <gtest/gtest.h>

#include "io/mutator.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/run/config.hpp"

namespace loom::test {
namespace {

TEST(TomlFuzz, MutatedInputIsAcceptedOrRefusedAsUsage) {
  if (!io::toml_supported()) GTEST_SKIP() << "built without toml++";
  io::Parameters valid = gpe::gpe_parameters();
  valid.set_text("grid.type", "fcc", io::ParamSource::flag);
  valid.set_text("output.every", "0.25", io::ParamSource::flag);
  const std::string text = valid.to_toml() + "\n# a comment\n";
  std::mt19937 rng(17);
  int accepted = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string input = mutate(text, rng);
    io::Parameters p = gpe::gpe_parameters();
    try {
      p.load_toml_text(input, "fuzz.toml");
      (void)gpe::gpe_config(p);
      ++accepted;
    } catch (const UsageError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "case " << i << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "case " << i << ": not a usage error: " << e.what() << "\n" << input;
    }
  }
  // Both outcomes occur: the mutations reach the parser's errors and leave some files valid.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace loom::test
