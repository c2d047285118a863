// Stopping a run by a signal without losing data (docs/architecture.md, "Run lifecycle"). main() installs the
// handlers once. A command whose run polls stop_signal() between steps marks itself with a StopPolling guard:
// the first SIGINT or SIGTERM then only sets the flag (the run finishes its step, writes its checkpoint and
// outputs and exits with stop_exit_code); a second signal, or any signal to a command that does not poll, removes
// the registered temporary files and locks and ends the process at once by the signal's default action.
#pragma once

#include <filesystem>

namespace loom::io {

void install_stop_handlers();  // SIGINT, SIGTERM

// The first stop signal received while a StopPolling guard was alive (SIGINT or SIGTERM), else 0.
int stop_signal();
inline int stop_exit_code(int signal) { return 128 + signal; }  // 130 for SIGINT, 143 for SIGTERM
const char* signal_name(int signal);                            // "SIGINT", "SIGTERM"

// While alive, the first stop signal sets stop_signal() instead of ending the process.
class StopPolling {
 public:
  StopPolling();
  ~StopPolling();
  StopPolling(const StopPolling&) = delete;
  StopPolling& operator=(const StopPolling&) = delete;
};

// A path the signal handler removes before the process ends at once (a temporary file, a lock). The slot is
// released by the destructor; at most a few hundred at a time (more are not removed on a signal).
class RemoveOnSignal {
 public:
  explicit RemoveOnSignal(const std::filesystem::path& path);
  ~RemoveOnSignal();
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace loom::io
