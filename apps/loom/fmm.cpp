// `loom fmm`: the fast multipole method on generated bodies (cube, sphere, plummer) or on a CSV file, with the
// time of each phase and the relative L2 errors against direct summation on a sample of targets (against an
// Ewald sum for periodic runs). `loom fmm --input bodies.csv --output result.csv` writes potential and gradient.
// The command only declares the parameters and calls the FMM's run (src/loom/fmm/run/).
#include <iostream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/fmm/parallel/ranks_run.hpp"
#include "loom/fmm/run/config.hpp"
#include "loom/fmm/run/fmm_run.hpp"

namespace loom::app {

void add_fmm_command(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  fmm::declare_parameters(p);
  out.push_back(
      {std::make_unique<io::ParameterCommand>(
           app, "fmm", "Fast multipole method: Laplace or Biot-Savart, errors against direct summation", std::move(p),
           false),
       [](const io::Parameters& params) {
         const auto world = comm::Communicator::world();
         if (world.size() > 1)  // under mpiexec -n N: the FMM over ranks (src/loom/fmm/parallel/ranks_run.hpp)
           return fmm::parallel::run_fmm_on_ranks(world, fmm::make_config(params), std::cout, std::cerr);
         return fmm::run_fmm(fmm::make_config(params), std::cout, std::cerr);
       }});
}

}  // namespace loom::app
