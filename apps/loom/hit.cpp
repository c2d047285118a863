// `loom hit`: decaying isotropic turbulence (and Taylor-Green) by the pseudo-spectral solver of src/loom/hit.
#include "commands.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/run.hpp"

namespace loom::app {

void add_hit_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "hit", "Isotropic turbulence, pseudo-spectral Navier-Stokes (input file and/or flags)",
                     hit::hit_parameters()),
                 hit::run_hit});
}

}  // namespace loom::app
