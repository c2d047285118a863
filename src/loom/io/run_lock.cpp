#include "loom/io/run_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof(name) - 1);
  return name;
}

// Creates the lock file exclusively with "<pid> <host>"; false when it exists.
bool try_create(const std::filesystem::path& lock, const std::string& key, const std::filesystem::path& dir) {
  const int fd = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0 && errno == EEXIST) return false;
  if (fd < 0)
    throw UsageError(fmt::format("{} = \"{}\": cannot create the lock {}: {}", key, dir.string(), lock.string(),
                                 std::strerror(errno)));
  const std::string text = fmt::format("{} {}\n", ::getpid(), host_name());
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) throw UsageError(fmt::format("{} = \"{}\": cannot write the lock {}", key, dir.string(), lock.string()));
  return true;
}

// True when the process named in the lock is gone (on this host); a lock of another host is never stale here.
bool stale(const std::filesystem::path& lock, long& pid, std::string& host) {
  std::ifstream in(lock);
  pid = 0;
  host.clear();
  in >> pid >> host;
  if (pid <= 0) return true;  // an empty or half-written lock: its writer died while creating it
  return host == host_name() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

std::filesystem::path RunLock::path_for(const std::filesystem::path& dir) {
  std::filesystem::path d = std::filesystem::absolute(dir).lexically_normal();
  if (!d.has_filename()) d = d.parent_path();  // "runs/x/"
  return d.parent_path() / ("." + d.filename().string() + ".lock");
}

RunLock::RunLock(const std::filesystem::path& dir, const std::string& key) : path_(path_for(dir)) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (try_create(path_, key, dir)) {
      remove_on_signal_ = std::make_unique<RemoveOnSignal>(path_);
      return;
    }
    long pid = 0;
    std::string host;
    if (!stale(path_, pid, host))
      throw UsageError(fmt::format("{} = \"{}\": in use by another run (process {} on {}; its lock is {})", key,
                                   dir.string(), pid, host, path_.string()));
    std::error_code ec;
    std::filesystem::remove(path_, ec);  // the stale lock of a process that is gone
  }
  throw UsageError(fmt::format("{} = \"{}\": its lock {} keeps coming back", key, dir.string(), path_.string()));
}

RunLock::~RunLock() {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

}  // namespace loom::io
