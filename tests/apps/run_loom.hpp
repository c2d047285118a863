// Runs the loom executable as a user would, for the command-line tests of every module: exit code, stdout and
// stderr. The test target defines LOOM_EXECUTABLE (the built binary) and depends on the loom target.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/temp_dir.hpp"

namespace loom::test {

struct RunResult {
  int code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline RunResult run_loom(const std::string& args) {
  TempDir scratch;
  const std::string command = std::string(LOOM_EXECUTABLE) + " " + args + " > " + (scratch / "out").string() +
                              " 2> " + (scratch / "err").string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(scratch / "out"), slurp(scratch / "err")};
}

#ifdef LOOM_MPIEXEC
// The same under `mpiexec -n ranks` (the test target also defines LOOM_MPIEXEC), one OpenMP thread per rank; root
// allowed, as the ctest MPI cases allow it (CI containers run as root).
inline RunResult run_loom_on_ranks(int ranks, const std::string& args) {
  TempDir scratch;
  const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(LOOM_MPIEXEC) +
                              " -n " + std::to_string(ranks) + " --oversubscribe -x OMP_NUM_THREADS=1 " +
                              LOOM_EXECUTABLE + " " + args + " > " + (scratch / "out").string() + " 2> " +
                              (scratch / "err").string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(scratch / "out"), slurp(scratch / "err")};
}
#endif

inline std::size_t line_count(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace loom::test
