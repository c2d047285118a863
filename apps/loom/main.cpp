// loom: one executable, one subcommand per tool (DESIGN.md). Exit codes: 0 success, 2 bad usage or input
// (one line on stderr naming the key, value and what is allowed), 1 a failure inside loom. Under mpiexec, bad
// input is found by every rank alike and rank 0 alone reports it; any other failure may strike one rank only,
// while the others wait for it in a collective, so it names the rank and ends the whole job.
#include <fmt/format.h>

#include <iostream>
#include <new>
#include <memory>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/core/version.hpp"

int main(int argc, char** argv) {
  using namespace loom;
  std::unique_ptr<comm::Session> mpi;
  try {
    mpi = std::make_unique<comm::Session>(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "loom failed: " << e.what() << "\n";
    return 1;
  }
  io::install_stop_handlers();  // a signal never leaves a temporary file; runs that poll stop cleanly
  const comm::Communicator world = comm::Communicator::world();
  auto usage_error = [&](const std::string& text) {
    if (world.is_root()) std::cerr << text << std::flush;
    world.barrier();  // mpiexec ends the job at the first failing rank: let rank 0 speak first
    return 2;
  };
  try {
    CLI::App app{"loom: GPU-accelerated time integration of physical fields", "loom"};
    app.set_version_flag("--version",
                         std::string("loom ") + loom::core::loom_version() + " (" + loom::core::git_commit() + ")");
    app.allow_extras();
    std::vector<app::Subcommand> subcommands;
    app::add_info_command(app, subcommands);
    app::add_bench_commands(app, subcommands);
    app::add_lattice_commands(app, subcommands);
    app::add_fmm_command(app, subcommands);
    app::add_gpe_command(app, subcommands);
    app::add_spectral_command(app, subcommands);
    app::add_hit_command(app, subcommands);
    app::add_vortex_command(app, subcommands);
    app::add_bh_command(app, subcommands);
    app::add_registry_command(app, subcommands);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return world.is_root() ? app.exit(e) : 0;
    } catch (const CLI::CallForAllHelp& e) {
      return world.is_root() ? app.exit(e) : 0;
    } catch (const CLI::CallForVersion& e) {
      return world.is_root() ? app.exit(e) : 0;
    } catch (const CLI::ParseError& e) {
      return usage_error(std::string("error: ") + e.what() + " (see loom --help)\n");
    }
    // Run the deepest selected command (`loom lattice dispersion` runs dispersion, not lattice).
    for (auto& s : subcommands)
      if (s.command->selected() && s.command->app().get_subcommands().empty()) return s.run(s.command->resolve());
    // No runnable command: say what was wrong at the deepest level the user reached (`loom bench frob`).
    CLI::App* level = &app;
    while (!level->get_subcommands().empty()) level = level->get_subcommands().front();
    io::reject_extras(*level, nullptr);
    return usage_error(level->help() + "\nerror: " + io::command_path(*level) + ": no command given\n");
  } catch (const UsageError& e) {
    return usage_error(std::string("error: ") + e.what() + "\n");
  } catch (const std::bad_alloc&) {
    // A request too large for the estimates to catch is still bad input, not a crash (issue 17).
    std::cerr << "error: " << core::out_of_memory_message() << "\n";
    return 2;
  } catch (const std::exception& e) {
    if (world.size() == 1) {
      std::cerr << "loom failed: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "loom failed on rank " << world.rank() << " of " << world.size() << ": " << e.what() << std::endl;
    comm::abort_job(1);
  }
}
