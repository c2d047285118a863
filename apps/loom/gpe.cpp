// `loom gpe`: superfluid vortex dynamics with the DEC Gross-Pitaevskii integrator (src/loom/gpe), on one rank or,
// under mpiexec, on slabs of the lattice (section 4.2 of the DEC-GPE paper); main() handles errors on ranks.
#include "commands.hpp"
#include "loom/gpe/run/gpe_run.hpp"

namespace loom::app {

void add_gpe_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "gpe", "Gross-Pitaevskii vortex dynamics on a DEC crystal lattice (input file and/or flags)",
                     gpe::gpe_parameters()),
                 gpe::run_gpe});
}

}  // namespace loom::app
