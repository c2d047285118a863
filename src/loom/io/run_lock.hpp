// The lock a run holds on its run directory while it writes there: the file ".<name>.lock" beside the directory
// (outside it, so that replacing the directory whole keeps the lock), created exclusively, holding the writer's
// process id and host. A second run is refused (exit 2) even with overwriting allowed. A lock left by a process
// of this host that no longer exists (killed by SIGKILL, say) is stale and taken over.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "loom/io/stop_signal.hpp"

namespace loom::io {

class RunLock {
 public:
  // Throws UsageError `key = "dir": ...` when a live process holds the lock, or when it cannot be created.
  RunLock(const std::filesystem::path& dir, const std::string& key);
  ~RunLock();  // removes the lock file
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  static std::filesystem::path path_for(const std::filesystem::path& dir);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::unique_ptr<RemoveOnSignal> remove_on_signal_;
};

}  // namespace loom::io
