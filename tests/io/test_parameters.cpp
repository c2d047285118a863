// The parameter registry: typed values, one-line validation messages, TOML files, flags over files, and the
// effective input written back so that it reads in again to the same values.
#include <gtest/gtest.h>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

namespace loom::io {
namespace {

Parameters example() {
  Parameters p;
  p.add("backend", "auto", "where to run").one_of({"cpu", "cuda", "auto"});
  p.add("grid.type", "bcc", "lattice").one_of({"cubic", "fcc", "bcc", "a15", "c15", "z"});
  p.add("grid.points_per_wavelength", 20, "dual edges per effective wavelength").at_least(4);
  p.add("physics.g", 300.0, "interaction strength");
  p.add("physics.lambda", 1.0, "trap anisotropy").greater_than(0);
  p.add("initial.kappa", 1, "winding number");
  p.add("time.unsafe", false, "allow dt above the stability bound");
  p.add("output.dir", "", "run directory");
  return p;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

TEST(Parameters, DefaultsAndTypes) {
  const Parameters p = example();
  EXPECT_EQ(p.get_string("grid.type"), "bcc");
  EXPECT_EQ(p.get_int("grid.points_per_wavelength"), 20);
  EXPECT_EQ(p.get_real("physics.g"), 300.0);
  EXPECT_FALSE(p.get_bool("time.unsafe"));
  EXPECT_FALSE(p.user_set("grid.type"));
}

TEST(Parameters, MessagesNameKeyValueAndWhatIsAllowed) {
  Parameters p = example();
  EXPECT_EQ(message_of([&] { p.set_text("grid.type", "hex", ParamSource::flag); }),
            "grid.type = \"hex\": expected one of cubic, fcc, bcc, a15, c15, z");
  EXPECT_EQ(message_of([&] { p.set_text("initial.kappa", "1.5", ParamSource::flag); }),
            "initial.kappa = 1.5: expected an integer");
  EXPECT_EQ(message_of([&] { p.set_text("physics.lambda", "-1", ParamSource::flag); }),
            "physics.lambda = -1.0: expected a number > 0");
  EXPECT_EQ(message_of([&] { p.set_text("physics.g", "abc", ParamSource::flag); }),
            "physics.g = \"abc\": expected a number");
  EXPECT_EQ(message_of([&] { p.set_text("grid.points_per_wavelength", "3", ParamSource::flag); }),
            "grid.points_per_wavelength = 3: expected an integer >= 4");
  EXPECT_EQ(message_of([&] { p.set_text("time.unsafe", "perhaps", ParamSource::flag); }),
            "time.unsafe = \"perhaps\": expected true or false");
  EXPECT_EQ(message_of([&] { p.set_text("grid.tpye", "bcc", ParamSource::flag); }),
            "unknown parameter \"grid.tpye\" (did you mean grid.type?)");
  EXPECT_EQ(p.get_string("grid.type"), "bcc");  // failed sets change nothing
}

TEST(Parameters, FlagTextIsParsedByType) {
  Parameters p = example();
  p.set_text("physics.g", "-2.5e3", ParamSource::flag);
  p.set_text("initial.kappa", "-3", ParamSource::flag);
  p.set_text("time.unsafe", "true", ParamSource::flag);
  EXPECT_EQ(p.get_real("physics.g"), -2500.0);
  EXPECT_EQ(p.get_int("initial.kappa"), -3);
  EXPECT_TRUE(p.get_bool("time.unsafe"));
  EXPECT_EQ(p.source("physics.g"), ParamSource::flag);
}

TEST(Parameters, HelpListsEveryKeyWithDefault) {
  const std::string help = example().help_text();
  EXPECT_NE(help.find("--grid.type"), std::string::npos);
  EXPECT_NE(help.find("(default \"bcc\"; one of cubic, fcc, bcc, a15, c15, z)"), std::string::npos);
  EXPECT_NE(help.find("--physics.lambda"), std::string::npos);
  EXPECT_NE(help.find("a number > 0"), std::string::npos);
}

TEST(Parameters, DeclaringAKeyTwiceIsABug) {
  Parameters p;
  p.add("a", 1, "");
  EXPECT_THROW(p.add("a", 2, ""), Error);
}

class TomlInput : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!toml_supported()) GTEST_SKIP() << "built without toml++";
  }
};

TEST_F(TomlInput, SectionsSetDottedKeys) {
  Parameters p = example();
  p.load_toml_text("backend = \"cpu\"\n[grid]\ntype = \"c15\"\n[physics]\ng = 5000\nlambda = 0.1\n", "in.toml");
  EXPECT_EQ(p.get_string("backend"), "cpu");
  EXPECT_EQ(p.get_string("grid.type"), "c15");
  EXPECT_EQ(p.get_real("physics.g"), 5000.0);  // a TOML integer is a fine real
  EXPECT_EQ(p.get_real("physics.lambda"), 0.1);
  EXPECT_EQ(p.source("grid.type"), ParamSource::input_file);
}

TEST_F(TomlInput, ErrorsNameFileLineKeyAndValue) {
  Parameters p = example();
  EXPECT_EQ(message_of([&] { p.load_toml_text("[grid]\ntype = \"hex\"\n", "in.toml"); }),
            "in.toml:2: grid.type = \"hex\": expected one of cubic, fcc, bcc, a15, c15, z");
  EXPECT_EQ(message_of([&] { p.load_toml_text("[initial]\nkappa = 2.5\n", "in.toml"); }),
            "in.toml:2: initial.kappa = 2.5: expected an integer");
  EXPECT_EQ(message_of([&] { p.load_toml_text("[grid]\ntpye = \"bcc\"\n", "in.toml"); }),
            "in.toml:2: unknown key \"grid.tpye\" (did you mean grid.type?)");
  const std::string syntax = message_of([&] { p.load_toml_text("[grid\ntype = 1\n", "in.toml"); });
  EXPECT_EQ(syntax.rfind("in.toml:1:", 0), 0u) << syntax;
  EXPECT_EQ(message_of([&] { p.load_toml_file("/nonexistent/run.toml"); }),
            "input file \"/nonexistent/run.toml\": no such file");
}

TEST_F(TomlInput, FlagsWinOverFile) {
  Parameters p = example();
  p.load_toml_text("[grid]\ntype = \"fcc\"\n", "in.toml");
  p.set_text("grid.type", "z", ParamSource::flag);
  EXPECT_EQ(p.get_string("grid.type"), "z");
}

TEST_F(TomlInput, EffectiveInputReadsBackToTheSameValues) {
  Parameters p = example();
  p.set_text("grid.type", "a15", ParamSource::flag);
  p.set_text("physics.g", "0.1", ParamSource::flag);
  p.set_text("physics.lambda", "3", ParamSource::flag);
  p.set_text("output.dir", "runs/a \"quoted\" name", ParamSource::flag);
  p.set_text("time.unsafe", "true", ParamSource::flag);
  Parameters q = example();
  q.load_toml_text(p.to_toml(), "effective.toml");
  EXPECT_EQ(q.to_json(), p.to_json());
}

}  // namespace
}  // namespace loom::io

namespace loom::io {
namespace {

// `--n 6e8`: a whole number written as a float is the integer; a fraction or one beyond int64 is refused.
TEST(Parameters, IntegerWrittenAsFloat) {
  Parameters p;
  p.add("n", 1, "count").at_least(1);
  p.set_text("n", "6e8", ParamSource::flag);
  EXPECT_EQ(p.get_int("n"), 600000000);
  EXPECT_THROW(p.set_text("n", "2.5e0", ParamSource::flag), UsageError);
  EXPECT_THROW(p.set_text("n", "1e300", ParamSource::flag), UsageError);
  EXPECT_THROW(p.set_text("n", "nan", ParamSource::flag), UsageError);
}

}  // namespace
}  // namespace loom::io
