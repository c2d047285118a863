// loom: one executable, one subcommand per tool (DESIGN.md). Exit codes: 0 success, 2 bad usage or input
// (one line on stderr naming the key, value and what is allowed), 1 a failure inside loom.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"
#include "loom/version_info.hpp"

int main(int argc, char** argv) {
  using namespace loom;
  try {
    comm::Session mpi(argc, argv);
    CLI::App app{"loom: GPU-accelerated time integration of physical fields", "loom"};
    app.set_version_flag("--version", std::string("loom ") + LOOM_VERSION + " (" + LOOM_GIT_COMMIT + ")");
    app.allow_extras();
    std::vector<app::Subcommand> subcommands;
    app::add_info_command(app, subcommands);
    app::add_bench_commands(app, subcommands);
    app::add_lattice_commands(app, subcommands);
    app::add_fmm_command(app, subcommands);
    app::add_gpe_command(app, subcommands);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::cerr << "error: " << e.what() << " (see loom --help)\n";
      return 2;
    }
    // Run the deepest selected command (`loom lattice dispersion` runs dispersion, not lattice).
    for (auto& s : subcommands)
      if (s.command->selected() && s.command->app().get_subcommands().empty()) return s.run(s.command->resolve());
    // No runnable command: say what was wrong at the deepest level the user reached (`loom bench frob`).
    CLI::App* level = &app;
    while (!level->get_subcommands().empty()) level = level->get_subcommands().front();
    io::reject_extras(*level, nullptr);
    std::cerr << level->help() << "\nerror: " << io::command_path(*level) << ": no command given\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "loom failed: " << e.what() << "\n";
    return 1;
  }
}
