// `loom gpe`: superfluid vortex dynamics with the DEC Gross-Pitaevskii integrator (src/loom/gpe).
#include "commands.hpp"
#include "loom/gpe/experiment.hpp"

namespace loom::app {

void add_gpe_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "gpe", "Gross-Pitaevskii vortex dynamics on a DEC crystal lattice (input file and/or flags)",
                     gpe::gpe_parameters()),
                 gpe::run_gpe});
}

}  // namespace loom::app
