// Command-line subcommands whose flags are a parameter registry's keys (`--grid.type bcc`), with an optional
// TOML input file as the positional argument. Values resolve as defaults < input file < flags. Unknown flags
// and bad values become UsageError (exit 2 in apps/loom), never CLI11's own exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <deque>
#include <functional>
#include <string>

#include "loom/io/parameters.hpp"

namespace loom::io {

class ParameterCommand {
 public:
  // Adds subcommand `name` to `parent` with one flag per key of `params`. `takes_input_file`: accept an
  // optional TOML file as the first positional argument.
  ParameterCommand(CLI::App& parent, const std::string& name, const std::string& description, Parameters params,
                   bool takes_input_file = true);
  ParameterCommand(const ParameterCommand&) = delete;
  ParameterCommand& operator=(const ParameterCommand&) = delete;

  CLI::App& app() { return *app_; }
  bool selected() const { return app_->parsed(); }
  // After CLI11 has parsed: rejects leftover arguments, loads the input file, applies the flags. Throws
  // UsageError. Returns the resolved parameters.
  const Parameters& resolve();
  const Parameters& parameters() const { return params_; }
  const std::string& input_file() const { return input_file_; }

 private:
  struct Binding {
    std::string key;
    std::string text;
    CLI::Option* option = nullptr;
  };
  CLI::App* app_;
  Parameters params_;
  std::deque<Binding> bindings_;  // stable addresses: CLI11 writes into Binding::text
  std::string input_file_;
};

// "loom bench ceilings": the names of a subcommand and its parents.
std::string command_path(const CLI::App& app);

// Throws UsageError for arguments CLI11 left over (unknown flags), with a "did you mean" hint from `params`.
void reject_extras(const CLI::App& app, const Parameters* params);

}  // namespace loom::io
