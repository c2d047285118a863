#include "loom/io/run_directory.hpp"

#include "loom/io/derived_checks.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <unistd.h>

#include <ctime>

#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"

namespace loom::io {

namespace {

// Replaces the non-empty folder `path` by an empty one: a fresh sibling is made, the old folder is renamed away,
// the sibling takes its name, and the old one is removed. Only hidden siblings ever hold the old files.
void replace_whole(const std::filesystem::path& path, const std::string& key) {
  namespace fs = std::filesystem;
  fs::path dir = fs::absolute(path).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  const std::string pid = std::to_string(::getpid());
  const fs::path fresh = dir.parent_path() / ("." + dir.filename().string() + ".new-" + pid);
  const fs::path old = dir.parent_path() / ("." + dir.filename().string() + ".old-" + pid);
  std::error_code ec;
  fs::create_directory(fresh, ec);
  if (!ec) fs::rename(dir, old, ec);
  if (!ec) fs::rename(fresh, dir, ec);
  if (ec) {
    fs::remove(fresh, ec);
    throw UsageError(fmt::format("{} = \"{}\": cannot replace the directory: {}", key, path.string(), ec.message()));
  }
  fs::remove_all(old, ec);
  if (ec) throw Error(fmt::format("cannot remove the old run directory {}: {}", old.string(), ec.message()));
}

// Refuses to replace a directory that holds one of the run's inputs (restarting from runs/x/checkpoint.h5 into
// runs/x would delete the checkpoint, and with it the way back should the new run fail).
void keep_inputs(const std::filesystem::path& path, const std::string& key, const std::vector<NamedPath>& inputs) {
  std::error_code ec;
  const std::string dir = std::filesystem::weakly_canonical(path, ec).string() + "/";
  for (const auto& in : inputs)
    if (!in.path.empty() && std::filesystem::weakly_canonical(in.path, ec).string().rfind(dir, 0) == 0)
      throw UsageError(fmt::format("{} = \"{}\": holds the input {} = \"{}\", which overwriting would delete; choose "
                                   "another directory",
                                   key, path.string(), in.key, in.path.string()));
}

}  // namespace

RunDirectory RunDirectory::create(const std::filesystem::path& path, bool overwrite, const std::string& key,
                                  const std::vector<NamedPath>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    throw UsageError(fmt::format("{} = \"{}\": exists and is not a directory", key, path.string()));
  const fs::path parent = fs::absolute(path).lexically_normal().parent_path();
  fs::create_directories(parent, ec);
  if (ec) throw UsageError(fmt::format("{} = \"{}\": cannot create directory: {}", key, path.string(), ec.message()));
  auto lock = std::make_shared<RunLock>(path, key);
  if (fs::exists(path, ec) && !fs::is_empty(path, ec)) {
    if (!overwrite)
      throw UsageError(fmt::format("{} = \"{}\": directory exists and is not empty (choose another, or allow "
                                   "overwriting)", key, path.string()));
    keep_inputs(path, key, inputs);
    replace_whole(path, key);
  }
  fs::create_directories(path, ec);
  if (ec) throw UsageError(fmt::format("{} = \"{}\": cannot create directory: {}", key, path.string(), ec.message()));
  return RunDirectory(path, std::move(lock));
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

void declare_run_directory_keys(Parameters& p, const std::string& command) {
  p.add("output.dir", "", "run directory (default runs/" + command + "-<date>-<time>)");
  p.add("output.overwrite", false, "write into an existing non-empty run directory");
  p.add("output.checkpoint_every", 600.0, "wall-clock seconds between checkpoints; 0: only at the end")
      .at_least(0)
      .at_most(max_wall_seconds);
  p.add("output.plots", true, "make PNG plots at the end (needs /usr/bin/python3 with matplotlib)");
}

}  // namespace loom::io
