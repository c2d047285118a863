// `loom bh`: a single Kerr-Schild black hole by the generalized harmonic system on spherical shells (src/loom/gr).
#include "commands.hpp"
#include "loom/gr/config.hpp"
#include "loom/gr/run.hpp"

namespace loom::app {

void add_bh_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "bh", "A spinning black hole, generalized harmonic evolution on shells (input file and/or flags)",
                     gr::bh_parameters()),
                 gr::run_bh});
}

}  // namespace loom::app
