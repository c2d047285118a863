// For the stop-signal tests of the systems that run on several ranks (issue 17): the mpiexec launcher a LoomChild
// runs under, and the ranks it started, found by their rank number so that a test signals a chosen one. The test
// target defines LOOM_MPIEXEC.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace loom::test {

// `mpiexec -n ranks` with the flags of the ctest MPI cases (root allowed, oversubscribed, one OpenMP thread).
inline std::string mpiexec_launcher(int ranks, const std::string& flags = "") {
  return "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(LOOM_MPIEXEC) + " " + flags +
         " -n " + std::to_string(ranks) + " --oversubscribe -x OMP_NUM_THREADS=1";
}

// The processes whose parent is `launcher` (the ranks mpiexec started), by OMPI_COMM_WORLD_RANK, from /proc.
inline std::map<int, pid_t> ranks_of(pid_t launcher) {
  std::map<int, pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid != launcher) continue;
    std::ifstream environ(e.path() / "environ");
    const std::string key = "OMPI_COMM_WORLD_RANK=";
    for (std::string entry; std::getline(environ, entry, '\0');)
      if (entry.rfind(key, 0) == 0) out[std::stoi(entry.substr(key.size()))] = static_cast<pid_t>(std::stoi(name));
  }
  return out;
}

}  // namespace loom::test
