// For the lifecycle tests of every system: run loom as a child process that a test can signal, and check that
// everything a run left in its directory can be read (whole CSV rows, JSON that parses, HDF5 that opens, no
// temporary file, no lock left beside it).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "apps/run_loom.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::test {

// `loom <args>` started in the background, its stdout and stderr into files of `scratch`; `launcher` (mpiexec and
// its flags) runs it, when given, and is then the child process.
class LoomChild {
 public:
  LoomChild(const std::string& args, const std::filesystem::path& scratch, const std::string& launcher = "")
      : out_(scratch / "child.out"), err_(scratch / "child.err") {
    const std::string command = "exec " + launcher + (launcher.empty() ? "" : " ") + std::string(LOOM_EXECUTABLE) +
                                " " + args + " > " + out_.string() + " 2> " + err_.string();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~LoomChild() {
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // Waits (polling) until `ready` holds or the child ends; false after `seconds`.
  bool wait_until(const std::function<bool()>& ready, double seconds = 120) const {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_)
        return false;  // ended (still waitable: WNOWAIT)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }
  void signal(int sig) const { ::kill(pid_, sig); }
  pid_t pid() const { return pid_; }
  // The exit code, or -1 when a signal ended it (killed_by() says which).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    waited_ = true;
    killed_by_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  int killed_by() const { return killed_by_; }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  std::filesystem::path out_, err_;
  pid_t pid_ = -1;
  bool waited_ = false;
  int killed_by_ = 0;
};

// What cannot be read in `dir` (empty: everything can), and whether anything was left beside it.
inline std::vector<std::string> unreadable_files(const std::filesystem::path& dir) {
  std::vector<std::string> bad;
  for (const auto& e : std::filesystem::directory_iterator(dir.parent_path())) {
    const std::string name = e.path().filename().string();
    if (name.rfind("." + dir.filename().string(), 0) == 0) bad.push_back(name + ": left beside the run directory");
  }
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const std::string ext = e.path().extension().string();
    if (name.find(".tmp") != std::string::npos) bad.push_back(name + ": a temporary file");
    try {
      if (ext == ".csv") {
        std::istringstream lines(slurp(e.path()));
        std::string header, row;
        std::getline(lines, header);
        const auto commas = std::count(header.begin(), header.end(), ',');
        while (std::getline(lines, row))
          if (std::count(row.begin(), row.end(), ',') != commas || row.find("nan") != std::string::npos ||
              row.find("inf") != std::string::npos)
            bad.push_back(name + ": row \"" + row + "\"");
        const std::string text = slurp(e.path());
        if (text.empty() || text.back() != '\n') bad.push_back(name + ": ends inside a row");
      } else if (ext == ".json") {
        const auto j = nlohmann::json::parse(slurp(e.path()));
        if (j.dump().find("null") != std::string::npos) bad.push_back(name + ": holds null");
      } else if (ext == ".h5") {
        const io::Hdf5Reader h5(e.path());
      } else if (ext == ".xdmf") {
        if (slurp(e.path()).find("</Xdmf>") == std::string::npos) bad.push_back(name + ": incomplete");
      }
    } catch (const std::exception& x) {
      bad.push_back(name + ": " + x.what());
    }
  }
  return bad;
}

inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// The last row of a CSV file, split at commas.
inline std::vector<double> last_row(const std::filesystem::path& csv) {
  std::istringstream lines(slurp(csv));
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  std::vector<double> values;
  std::istringstream cells(last);
  std::string cell;
  while (std::getline(cells, cell, ',')) values.push_back(std::stod(cell));
  return values;
}

}  // namespace loom::test
