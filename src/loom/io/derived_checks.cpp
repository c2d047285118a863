#include "loom/io/derived_checks.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

// Whether a file can be made in `dir`, found by making one (and removing it): access() alone says yes to root for
// any folder, /proc and read-only file systems included.
bool writable(const std::filesystem::path& dir) {
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return false;
  const std::filesystem::path probe = dir / (".loom-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

std::string path_message(std::string_view key, const std::filesystem::path& path, std::string_view what) {
  return invalid_value_message(key, path.string(), what);
}

}  // namespace

std::int64_t checked_step_count(double span, double dt, std::string_view key, const ParamValue& value) {
  const double steps = std::ceil(span / dt - 1e-9);
  if (!(std::isfinite(steps) && steps <= max_time_steps) || !(dt > 0))
    throw UsageError(invalid_value_message(
        key, value, fmt::format("a value giving at most {:g} time steps (here {:g} / {:.3g} = {:.3g} steps)",
                                max_time_steps, span, dt, span / dt)));
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(steps));
}

void check_output_period(std::string_view key, double every, double t_end) {
  if (every > t_end)
    throw UsageError(invalid_value_message(key, every, fmt::format("0 or a time <= time.t_end = {}", t_end)));
}

void require_positive_finite(double derived, std::string_view what, std::string_view key, const ParamValue& value) {
  if (std::isfinite(derived) && derived > 0) return;
  throw UsageError(invalid_value_message(key, value, fmt::format("a value giving a finite {} > 0 (here {})", what,
                                                                 derived)));
}

void check_output_file(std::string_view key, const std::filesystem::path& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError(path_message(key, path, "a file name, not a folder"));
  const std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  if (!std::filesystem::is_directory(dir, ec))
    throw UsageError(path_message(key, path, "a file in an existing folder (" + dir.string() + " is none)"));
  if (!writable(dir)) throw UsageError(path_message(key, path, "a file in a folder loom may write (" + dir.string() + ")"));
}

void check_output_dir(std::string_view key, const std::filesystem::path& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec))
    throw UsageError(path_message(key, path, "a folder, not an existing file"));
  std::filesystem::path existing = std::filesystem::absolute(path, ec);
  while (!existing.empty() && !std::filesystem::exists(existing, ec)) existing = existing.parent_path();
  if (!std::filesystem::is_directory(existing, ec))
    throw UsageError(path_message(key, path, "a folder under an existing folder (" + existing.string() + " is a file)"));
  if (!writable(existing))
    throw UsageError(path_message(key, path, "a folder loom may create or write (" + existing.string() + " is read-only)"));
}

void check_run_directory(std::string_view key, const std::filesystem::path& path, bool overwrite) {
  check_output_dir(key, path);
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec) && !std::filesystem::is_empty(path, ec))
    throw UsageError(path_message(key, path, "a new or empty folder (this one is not empty; or allow overwriting)"));
}

void refuse_unread_keys(const Parameters& p, const std::vector<std::string>& keys, std::string_view when) {
  for (const std::string& key : keys)
    if (p.user_set(key))
      throw UsageError(invalid_value_message(key, p.value(key), fmt::format("the key left unset {}", when)));
}

}  // namespace loom::io
