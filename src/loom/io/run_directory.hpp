// A run's output folder: the effective input (input.toml, re-runnable as it is), summary.json, series.csv and
// field files. Created only after every parameter has been validated, so bad input leaves nothing behind.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "loom/io/parameters.hpp"
#include "loom/io/series.hpp"

namespace loom::io {

class RunDirectory {
 public:
  // Creates `path` (and parents). An existing non-empty folder is an error unless `overwrite`; `key` names the
  // parameter that chose the path, for the message.
  static RunDirectory create(const std::filesystem::path& path, bool overwrite, const std::string& key = "output.dir");
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
  explicit RunDirectory(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

}  // namespace loom::io
