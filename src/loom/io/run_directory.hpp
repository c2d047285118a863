// A run's output folder: the effective input (input.toml, re-runnable as it is), summary.json, series.csv and
// field files. Created only after every parameter has been validated, so bad input leaves nothing behind. The
// run holds a lock on it while any copy of the RunDirectory lives (run_lock.hpp); overwriting replaces the
// directory whole, so no file of the old run stays beside the new run's.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "loom/io/output_file.hpp"
#include "loom/io/parameters.hpp"
#include "loom/io/run_lock.hpp"
#include "loom/io/series.hpp"

namespace loom::io {

class RunDirectory {
 public:
  // Creates `path` (and parents) and locks it. An existing non-empty folder is an error unless `overwrite`, and
  // is then replaced by a fresh one (made beside it, then swapped in; the old one is removed); a folder another
  // live run holds is an error even with `overwrite`. `key` names the parameter that chose the path.
  // An input of the run (a checkpoint to restart from) inside a directory that overwriting would remove is refused.
  static RunDirectory create(const std::filesystem::path& path, bool overwrite, const std::string& key = "output.dir",
                             const std::vector<NamedPath>& inputs = {});
  // A default name for a command's runs: runs/<command>-<YYYYmmdd-HHMMSS>.
  static std::filesystem::path default_path(const std::string& command);

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

  void write_input(const Parameters& params) const;           // input.toml
  void write_input(const std::string& effective_toml) const;  // the same from Parameters::to_toml()
  void write_summary(const nlohmann::json& summary) const;    // summary.json (pretty, atomic)
  void write_text(const std::string& name, const std::string& text) const;  // any file, atomically
  std::unique_ptr<SeriesWriter> open_series(std::vector<std::string> columns, const std::string& name = "series.csv",
                                            double flush_seconds = 2.0) const;

 private:
  RunDirectory(std::filesystem::path path, std::shared_ptr<RunLock> lock)
      : path_(std::move(path)), lock_(std::move(lock)) {}
  std::filesystem::path path_;
  std::shared_ptr<RunLock> lock_;  // released when the last copy goes
};

// The output keys every run directory's command shares: output.dir (default runs/<command>-<date>-<time>),
// output.overwrite, output.checkpoint_every and output.plots. A system adds its own output.every and fields.
void declare_run_directory_keys(Parameters& p, const std::string& command);

}  // namespace loom::io
