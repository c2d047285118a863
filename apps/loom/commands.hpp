// The loom executable's subcommands. Each add_* function registers a subcommand on the CLI11 app and returns
// the function that runs it once parsing selected it; main() turns exceptions into messages and exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <vector>

#include "loom/io/command_line.hpp"

namespace loom::app {

struct Subcommand {
  std::unique_ptr<io::ParameterCommand> command;
  std::function<int(const io::Parameters&)> run;
};

void add_info_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bench_commands(CLI::App& app, std::vector<Subcommand>& out);
void add_lattice_commands(CLI::App& app, std::vector<Subcommand>& out);
void add_fmm_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bench_fmm_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench fmm`, under bench
void add_gpe_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bench_gpe_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench gpe`, under bench
void add_spectral_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bench_spectral_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench spectral`
void add_hit_command(CLI::App& app, std::vector<Subcommand>& out);
void add_vortex_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bh_command(CLI::App& app, std::vector<Subcommand>& out);
void add_bench_hit_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench hit`, under bench
void add_bench_bh_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench bh`, under bench
void add_bench_vortex_command(CLI::App& bench, std::vector<Subcommand>& out);  // `loom bench vortex`
// `loom registry` (hidden): every command's keys as JSON, for the fuzz test (tests/apps/test_fuzz_keys.cpp).
// Added last: it lists the commands already in `out`.
void add_registry_command(CLI::App& app, std::vector<Subcommand>& out);

}  // namespace loom::app
