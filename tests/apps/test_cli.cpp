// The loom executable as a user meets it: exit codes (0 ok, 2 bad usage), one-line errors that name the key,
// the value and what is allowed, --help on every subcommand, and JSON outputs that parse.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

using Result = RunResult;
Result run(const std::string& args) { return run_loom(args); }
std::size_t lines(const std::string& s) { return line_count(s); }

TEST(Cli, InfoDescribesTheBuild) {
  const Result r = run("info");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("backends: cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mpi:"), std::string::npos);
  EXPECT_NE(r.out.find("hdf5"), std::string::npos);
}

TEST(Cli, InfoJsonParses) {
  const Result r = run("info --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"version", "git_commit", "build_type", "backends", "cuda", "mpi", "libraries"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["backends"][0], "cpu");
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {
           Case{"info --bogus", "error: loom info: unknown flag --bogus; see loom info --help\n"},
           Case{"bench ceilings --backend gpu",
                "error: backend = \"gpu\": expected one of all, auto, cpu, cuda\n"},
           Case{"bench ceilings --repeats 0", "error: repeats = 0: expected an integer >= 1\n"},
           Case{"bench ceilings --repeats 2.5", "error: repeats = 2.5: expected an integer >= 1\n"},
           Case{"bench ceilings --repeat 3",
                "error: loom bench ceilings: unknown flag --repeat (did you mean --repeats?); see loom bench "
                "ceilings --help\n"},
           Case{"bench ceilings --repeats", nullptr},  // CLI11's own message; still exit 2 and one line
       }) {
    const Result r = run(c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
    if (c.message) EXPECT_EQ(r.err, c.message) << c.args;
    else EXPECT_EQ(lines(r.err), 1u) << c.args << ": " << r.err;
  }
}

TEST(Cli, UnknownCommandListsTheCommands) {
  const Result r = run("frob");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("error: loom: unknown command \"frob\" (commands: info, bench", 0), 0u) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  const Result b = run("bench frob");
  EXPECT_EQ(b.code, 2);
  EXPECT_EQ(b.err.rfind("error: loom bench: unknown command \"frob\" (commands: ceilings", 0), 0u) << b.err;
  EXPECT_EQ(lines(b.err), 1u) << b.err;
}

TEST(Cli, CudaBackendWithoutDeviceIsAUsageError) {
  const Result info = run("info --json");
  if (!nlohmann::json::parse(info.out)["cuda"]["devices"].empty()) GTEST_SKIP() << "a CUDA device is present";
  const Result r = run("bench ceilings --backend cuda --quick");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("backend = \"cuda\""), std::string::npos) << r.err;
}

TEST(Cli, RepeatedFlagTakesTheLastValue) {
  const Result r = run("bench ceilings --backend gpu --backend cpu --repeats 0 --repeats 1 --quick");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Cli, HelpOnEverySubcommand) {
  const Result top = run("--help");
  EXPECT_EQ(top.code, 0);
  EXPECT_NE(top.out.find("info"), std::string::npos);
  EXPECT_NE(top.out.find("bench"), std::string::npos);
  const Result bench = run("bench --help");
  EXPECT_EQ(bench.code, 0);
  EXPECT_NE(bench.out.find("ceilings"), std::string::npos);
  const Result ceilings = run("bench ceilings --help");
  EXPECT_EQ(ceilings.code, 0);
  for (const char* key : {"--backend", "--json", "--quick", "--repeats", "--warmup", "--stream_mib", "--gemm_n"})
    EXPECT_NE(ceilings.out.find(key), std::string::npos) << key;
  EXPECT_NE(ceilings.out.find("[default 10; an integer >= 1]"), std::string::npos) << ceilings.out;
  EXPECT_EQ(run("info --help").code, 0);
}

TEST(Cli, CeilingsJsonFile) {
  TempDir dir;
  const Result r = run("bench ceilings --quick --backend cpu --json " + (dir / "c.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(dir / "c.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["ceilings"].size(), 6u);
  EXPECT_GT(j["ceilings"][0]["value"].get<double>(), 0);
  EXPECT_EQ(dir.files(), std::vector<std::string>{"c.json"});  // no temporary left
  EXPECT_NE(r.out.find("dgemm"), std::string::npos);
}

}  // namespace
}  // namespace loom::test
