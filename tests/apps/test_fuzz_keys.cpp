// Every key of every command, fed bad values (wrong type, nan, inf, -1, 0, 1e300, empty): each must exit 2 with
// one stderr line naming the key and leave nothing behind, before any work (issue 17). The keys come from the
// commands' own registries (`loom registry`), so a key added tomorrow is fuzzed tomorrow. Values equal to a key's
// default are valid by definition and skipped; the few other values that are legitimately valid are listed in
// valid_cases with the reason. The fast set runs a sample drawn with a fixed seed; the slow set runs every case.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

struct Case {
  std::string command, key, value;
};

// (command, key, value) that are valid runs, not bad input; each says why.
const std::set<std::tuple<std::string, std::string, std::string>> valid_cases = {
    {"gpe", "initial.seed", "0"}, {"hit", "initial.seed", "0"}, {"fmm", "seed", "0"},  // 0 is a seed like others
    {"vortex", "initial.seed", "0"},
    {"gpe", "initial.kappa", "0"}, {"gpe", "initial.kappa", "-1"},  // no vortex; the other winding
    {"gpe", "physics.g", "0"}, {"gpe", "physics.g", "-1"},          // no interaction; a weak attraction
    {"fmm", "samples", "0"},                                        // no check against direct sums
    {"gpe", "output.checkpoint_every", "0"}, {"hit", "output.checkpoint_every", "0"},  // only at the end
    {"bh", "output.checkpoint_every", "0"}, {"vortex", "output.checkpoint_every", "0"},
    {"bench ceilings", "warmup", "0"}, {"bench fmm", "warmup", "0"}, {"bench gpe", "warmup", "0"},
    {"bench hit", "warmup", "0"}, {"bench spectral", "warmup", "0"}, {"spectral", "warmup", "0"},  // no warm-up
    {"bench bh", "warmup", "0"}, {"bench vortex", "warmup", "0"},
    {"bench vortex", "reinit.every", "0"},  // steps timed without a reinitialisation
    {"bench fmm", "samples", "0"},  // no error check
    // No filtering; the spherical-harmonic cut keeping l = 0 alone.
    {"spectral", "filter.alpha", "0"}, {"bench spectral", "filter.alpha", "0"}, {"bh", "filter.alpha", "0"},
    {"bench bh", "filter.alpha", "0"}, {"spectral", "filter.l_keep", "0"}, {"bench spectral", "filter.l_keep", "0"},
    {"bh", "filter.l_keep", "0"}, {"bench bh", "filter.l_keep", "0"},
    {"vortex", "fmm.image_levels", "0"},  // periodic sums over the 3^3 near images alone
    {"vortex", "reinit.threshold", "0"},  // every node of the remeshing grid gets a particle
    {"vortex", "fmm.rebuild_cost", "0"}, {"bench vortex", "fmm.rebuild_cost", "0"},  // a new tree every step
    // Constraint damping: none beyond the 0.001 floor; SpEC's gamma1 = -1 (docs/gr.md).
    {"bh", "damping.gamma0", "0"}, {"bh", "damping.gamma2", "0"}, {"bh", "damping.gamma1", "-1"},
    {"bench bh", "damping.gamma0", "0"}, {"bench bh", "damping.gamma2", "0"}, {"bench bh", "damping.gamma1", "-1"},
};

std::vector<std::string> bad_values(const nlohmann::json& spec) {
  const std::string type = spec["type"];
  if (type == "bool") return {"maybe"};  // an empty value is a bare flag: true
  if (type == "integer" || type == "real") return {"abc", "nan", "inf", "-1", "0", "1e300", ""};
  if (!spec["choices"].empty()) return {"no_such_choice", ""};
  return {"/dev/null/loom/x", ""};  // paths and lists: under a file (no folder can be made there), nothing
}

bool is_default(const nlohmann::json& spec, const std::string& value) {
  const nlohmann::json& d = spec["default"];
  if (d.is_string()) return d.get<std::string>() == value;
  if (d.is_number()) {
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    return !value.empty() && *end == '\0' && v == d.get<double>();
  }
  return false;
}

std::vector<Case> all_cases() {
  const RunResult r = run_loom("registry");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto registry = nlohmann::json::parse(r.out);
  std::vector<Case> out;
  for (const auto& [command, keys] : registry.items())
    for (const auto& spec : keys)
      for (const std::string& value : bad_values(spec)) {
        const std::string key = spec["key"];
        if (is_default(spec, value) || valid_cases.count({command, key, value})) continue;
        out.push_back({command, key, value});
      }
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Outcome {
  int code = -1;
  std::string err;
  std::vector<std::string> left;  // files left in the working folder
};

Outcome run_case(const Case& c) {
  TempDir cwd;
  const std::string command = "cd " + cwd.path().string() + " && timeout 30 " + LOOM_EXECUTABLE + " " + c.command +
                              " --" + c.key + " " + shell_quote(c.value) + " > out 2> err";
  const int status = std::system(command.c_str());
  Outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(cwd / "err"), {}};
  std::filesystem::remove(cwd / "out");
  std::filesystem::remove(cwd / "err");
  o.left = cwd.files();
  return o;
}

// Runs `budget` of the cases (all of them when budget is 0), chosen with a fixed seed, and checks each.
void fuzz(std::size_t budget) {
  std::vector<Case> cases = all_cases();
  ASSERT_GT(cases.size(), 100u);
  std::mt19937 rng(17);
  std::shuffle(cases.begin(), cases.end(), rng);
  if (budget > 0 && cases.size() > budget) cases.resize(budget);
  // A refusal costs no CPU, but starting MPI in each process takes wall time: several cases at once.
  std::vector<Outcome> outcomes(cases.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w)
    workers.emplace_back([&] {
      for (std::size_t i; (i = next++) < cases.size();) outcomes[i] = run_case(cases[i]);
    });
  for (auto& w : workers) w.join();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const Outcome& o = outcomes[i];
    const std::string what = "loom " + c.command + " --" + c.key + " '" + c.value + "'";
    EXPECT_EQ(o.code, 2) << what << ": " << o.err;
    EXPECT_EQ(line_count(o.err), 1u) << what << ": " << o.err;
    EXPECT_NE(o.err.find(c.key), std::string::npos) << what << ": " << o.err;
    EXPECT_TRUE(o.left.empty()) << what << " left " << (o.left.empty() ? "" : o.left.front());
  }
}

// The fast set's share: a few hundred cases, the same ones every run.
TEST(FuzzKeys, SampledKeysRefuseBadValuesWithOneLine) { fuzz(300); }

// Every registered key of every command with every bad value (label slow).
TEST(FuzzKeys, EveryKeyOfEveryCommandRefusesBadValuesWithOneLine) { fuzz(0); }

}  // namespace
}  // namespace loom::test
