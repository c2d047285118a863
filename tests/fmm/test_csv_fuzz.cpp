// CSV bodies fuzzed: a valid body file mutated at random (fixed seed, fixed case count) is either read or
// refused with UsageError (exit 2), never anything else; a UTF-8 byte order mark is accepted (issue 17).
#include <gtest/gtest.h>

#include "io/mutator.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/body_file.hpp"

namespace loom::test {
namespace {

const std::string valid_csv = "x,y,z,q\n0.1,0.2,0.3,1\n-0.5,0.25,0.75,-2.5e-1\n1e-3, 4 ,5,6\r\n\n0.9,0.8,0.7,0.5\n";

TEST(CsvFuzz, ByteOrderMarkAccepted) {
  const auto b = fmm::parse_bodies_csv("\xEF\xBB\xBF" + valid_csv, "bom.csv");
  ASSERT_EQ(b.positions.size(), 4u);
  EXPECT_EQ(b.positions[0].x, 0.1);
  EXPECT_EQ(b.charges[1], -0.25);
}

TEST(CsvFuzz, MutatedFilesAreReadOrRefusedAsUsage) {
  std::mt19937 rng(17);
  int read = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = mutate(valid_csv, rng);
    try {
      const auto b = fmm::parse_bodies_csv(text, "fuzz.csv");
      ASSERT_EQ(b.positions.size(), b.charges.size());
      ASSERT_FALSE(b.positions.empty());
      ++read;
    } catch (const UsageError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "case " << i << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "case " << i << ": not a usage error: " << e.what();
    }
  }
  EXPECT_GT(read, 500);
  EXPECT_GT(refused, 500);
}

}  // namespace
}  // namespace loom::test
