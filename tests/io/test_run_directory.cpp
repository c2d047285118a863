// Run directories: refuse to overwrite a run, write the effective input (which reads back), summary.json and
// series.csv atomically; the CSV always holds whole rows.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/temp_dir.hpp"
#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::io {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, ReplacesContentsAndLeavesNoTemporary) {
  test::TempDir dir;
  write_file_atomically(dir / "f.txt", "one");
  write_file_atomically(dir / "f.txt", "two");
  EXPECT_EQ(read_text(dir / "f.txt"), "two");
  EXPECT_EQ(dir.files(), std::vector<std::string>{"f.txt"});
  EXPECT_THROW(write_file_atomically(dir / "missing" / "f.txt", "x"), Error);
}

TEST(RunDirectory, CreatesAndRefusesToOverwrite) {
  test::TempDir dir;
  {
    const auto run = RunDirectory::create(dir / "runs" / "a", false);
    run.write_text("note.txt", "x");
  }  // the run ends: its lock is released (run_lock.hpp; a live run's directory is refused, test_run_lifecycle)
  EXPECT_THROW(RunDirectory::create(dir / "runs" / "a", false), UsageError);
  EXPECT_NO_THROW(RunDirectory::create(dir / "runs" / "a", true));
  try {
    RunDirectory::create(dir / "runs" / "a", false, "output.dir");
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("output.dir = \"", 0), 0u) << e.what();
  }
  std::ofstream(dir / "file") << "x";
  EXPECT_THROW(RunDirectory::create(dir / "file", true), UsageError);
}

TEST(RunDirectory, EffectiveInputSummaryAndSeries) {
  test::TempDir dir;
  Parameters p;
  p.add("grid.type", "bcc", "lattice");
  p.add("physics.g", 300.0, "interaction");
  p.set_text("grid.type", "c15", ParamSource::flag);
  const auto run = RunDirectory::create(dir / "run", false);
  run.write_input(p);
  run.write_summary({{"chemical_potential", 12.5}, {"steps", 10}});
  {
    auto series = run.open_series({"t", "norm"}, "series.csv", 1e9);  // flush only on close
    series->append({0.0, 1.0});
    series->append({0.5, 0.999999999999});
    EXPECT_EQ(read_text(run.file("series.csv")), "t,norm\n");  // header only until flushed
    series->close();
  }
  EXPECT_EQ(read_text(run.file("series.csv")), "t,norm\n0,1\n0.5,0.999999999999\n");
  const auto summary = nlohmann::json::parse(read_text(run.file("summary.json")));
  EXPECT_EQ(summary["chemical_potential"], 12.5);
  const std::string input = read_text(run.file("input.toml"));
  EXPECT_NE(input.find("[grid]\ntype = \"c15\"\n"), std::string::npos) << input;
  if (toml_supported()) {
    Parameters q;
    q.add("grid.type", "bcc", "lattice");
    q.add("physics.g", 1.0, "interaction");
    q.load_toml_file(run.file("input.toml").string());
    EXPECT_EQ(q.get_string("grid.type"), "c15");
    EXPECT_EQ(q.get_real("physics.g"), 300.0);
  }
  EXPECT_EQ(dir.files(), (std::vector<std::string>{".run.lock", "run"}));  // no temporary file; the live run's lock
}

TEST(Series, RowWidthMustMatchColumns) {
  test::TempDir dir;
  SeriesWriter s(dir / "s.csv", {"a", "b"});
  EXPECT_THROW(s.append({1.0}), Error);
}

}  // namespace
}  // namespace loom::io
