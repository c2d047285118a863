#include "loom/io/run_directory.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <ctime>

#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"

namespace loom::io {

RunDirectory RunDirectory::create(const std::filesystem::path& path, bool overwrite, const std::string& key) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec))
      throw UsageError(fmt::format("{} = \"{}\": exists and is not a directory", key, path.string()));
    if (!overwrite && !fs::is_empty(path, ec))
      throw UsageError(fmt::format("{} = \"{}\": directory exists and is not empty (choose another, or allow "
                                   "overwriting)", key, path.string()));
  }
  fs::create_directories(path, ec);
  if (ec) throw UsageError(fmt::format("{} = \"{}\": cannot create directory: {}", key, path.string(), ec.message()));
  return RunDirectory(path);
}

std::filesystem::path RunDirectory::default_path(const std::string& command) {
  const std::time_t now = std::time(nullptr);
  return std::filesystem::path("runs") / fmt::format("{}-{:%Y%m%d-%H%M%S}", command, fmt::localtime(now));
}

void RunDirectory::write_input(const Parameters& params) const { write_input(params.to_toml()); }

void RunDirectory::write_input(const std::string& effective_toml) const {
  write_file_atomically(file("input.toml"),
                        "# The effective input of this run (defaults, input file and flags resolved).\n" +
                            effective_toml);
}

void RunDirectory::write_summary(const nlohmann::json& summary) const {
  write_file_atomically(file("summary.json"), summary.dump(2) + "\n");
}

void RunDirectory::write_text(const std::string& name, const std::string& text) const {
  write_file_atomically(file(name), text);
}

std::unique_ptr<SeriesWriter> RunDirectory::open_series(std::vector<std::string> columns, const std::string& name,
                                                        double flush_seconds) const {
  return std::make_unique<SeriesWriter>(file(name), std::move(columns), flush_seconds);
}

}  // namespace loom::io
