// The run lifecycle's platform parts (docs/architecture.md, "Run lifecycle"): a run directory locked while a run
// writes it (a second writer refused even with overwriting, a dead writer's lock taken over), overwriting that
// replaces the directory whole, the rules for output files, and the signal handler's two stages.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include "io/temp_dir.hpp"
#include "loom/core/error.hpp"
#include "loom/io/output_file.hpp"
#include "loom/io/run_directory.hpp"
#include "loom/io/stop_signal.hpp"

namespace loom::io {
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(RunLock, ASecondWriterIsRefusedEvenWithOverwrite) {
  test::TempDir dir;
  const auto path = dir / "run";
  {
    const RunDirectory first = RunDirectory::create(path, false);
    EXPECT_TRUE(std::filesystem::exists(RunLock::path_for(path)));
    const RunDirectory copy = first;  // copies share the lock
    const std::string why = usage_message([&] { RunDirectory::create(path, true); });
    EXPECT_EQ(
        why.rfind(
            "output.dir = \"" + path.string() + "\": in use by another run (process " + std::to_string(::getpid()), 0),
        0u)
        << why;
  }
  EXPECT_FALSE(std::filesystem::exists(RunLock::path_for(path)));  // released with the last copy
  EXPECT_NO_THROW(RunDirectory::create(path, true));
  EXPECT_EQ(dir.files(), std::vector<std::string>{"run"});  // nothing left beside it
}

TEST(RunLock, TheLockOfADeadProcessIsTakenOver) {
  test::TempDir dir;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);  // reaped: its process id names no process now
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  std::ofstream(RunLock::path_for(dir / "run")) << child << " " << host << "\n";
  EXPECT_NO_THROW(RunDirectory::create(dir / "run", false));
  // A lock of another host cannot be checked from here: it is respected.
  std::ofstream(RunLock::path_for(dir / "run")) << child << " another-host\n";
  EXPECT_NE(usage_message([&] { RunDirectory::create(dir / "run", true); }).find("in use by another run"),
            std::string::npos);
}

TEST(RunDirectory, OverwriteReplacesTheDirectoryWhole) {
  test::TempDir dir;
  const auto path = dir / "run";
  {
    const RunDirectory old = RunDirectory::create(path, false);
    for (int i = 0; i < 12; ++i) old.write_text("psi_" + std::to_string(i) + ".h5", "old");
    std::filesystem::create_directories(path / "sub");
  }
  {
    const RunDirectory fresh = RunDirectory::create(path / "", true);  // a trailing slash names the same folder
    fresh.write_text("psi_0.h5", "new");
  }
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(path)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"psi_0.h5"});
  EXPECT_EQ(dir.files(), std::vector<std::string>{"run"});  // no sibling of the swap, no lock
}

TEST(RunDirectory, OverwriteNeverDeletesTheRunsInput) {
  test::TempDir dir;
  const auto path = dir / "run";
  RunDirectory::create(path, false).write_text("checkpoint.h5", "the state to restart from");
  const std::string why = usage_message([&] {
    RunDirectory::create(path, true, "output.dir", {{"initial.checkpoint", path / "checkpoint.h5"}});
  });
  EXPECT_EQ(why, "output.dir = \"" + path.string() + "\": holds the input initial.checkpoint = \"" +
                     (path / "checkpoint.h5").string() +
                     "\", which overwriting would delete; choose another directory");
  EXPECT_TRUE(std::filesystem::exists(path / "checkpoint.h5"));
  EXPECT_NO_THROW(
      RunDirectory::create(dir / "run2", true, "output.dir", {{"initial.checkpoint", path / "checkpoint.h5"}}));
}

TEST(OutputFile, ExistingFilesInputsAndDirectories) {
  test::TempDir dir;
  const auto input = dir / "b.csv", output = dir / "r.csv";
  std::ofstream(input) << "x,y,z,q\n";
  EXPECT_NO_THROW(check_output_file({"output", output}, false, "overwrite", {{"input", input}}));
  std::ofstream(output) << "old\n";
  EXPECT_EQ(usage_message([&] {
              check_output_file({"output", output}, false, "overwrite");
            }),
            "output = \"" + output.string() + "\": exists; choose another name, or set overwrite = true to replace it");
  EXPECT_NO_THROW(check_output_file({"output", output}, true, "overwrite", {{"input", input}}));
  // The input itself, under another spelling, is refused even with overwriting allowed.
  const auto same = dir / "." / "b.csv";
  EXPECT_EQ(usage_message([&] {
              check_output_file({"output", same}, true, "overwrite", {{"input", input}});
            }),
            "output = \"" + same.string() + "\": is the same file as input = \"" + input.string() +
                "\"; choose another output file");
  EXPECT_NE(usage_message([&] {
              check_output_file({"json", dir.path()}, true, "overwrite");
            }).find("is a directory"),
            std::string::npos);
}

// A child process: the first SIGTERM only sets the flag; the second removes the registered file and ends the
// process by SIGTERM.
TEST(StopSignal, FirstSignalIsPolledSecondEndsAtOnceWithoutTemporaryFiles) {
  test::TempDir dir;
  const auto tmp = dir / ".psi.xdmf.tmp-1";
  const pid_t child = ::fork();
  if (child == 0) {
    install_stop_handlers();
    const StopPolling polling;
    std::ofstream(tmp) << "partial";
    const RemoveOnSignal remove(tmp);
    std::raise(SIGTERM);
    if (stop_signal() != SIGTERM || !std::filesystem::exists(tmp)) ::_exit(3);
    std::raise(SIGTERM);
    ::_exit(4);  // not reached
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(std::filesystem::exists(tmp));
  EXPECT_EQ(stop_exit_code(SIGINT), 130);
  EXPECT_EQ(stop_exit_code(SIGTERM), 143);
}

// Without a run that polls, the first signal already removes the temporary files and ends the process.
TEST(StopSignal, WithoutPollingTheFirstSignalEndsAtOnce) {
  test::TempDir dir;
  const auto tmp = dir / ".f.tmp-2";
  const pid_t child = ::fork();
  if (child == 0) {
    install_stop_handlers();
    std::ofstream(tmp) << "partial";
    const RemoveOnSignal remove(tmp);
    std::raise(SIGINT);
    ::_exit(4);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_FALSE(std::filesystem::exists(tmp));
}

}  // namespace
}  // namespace loom::io
