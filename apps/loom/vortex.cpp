// `loom vortex`: the vortex particle method with the FMM (src/loom/vortex).
#include "commands.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/run.hpp"

namespace loom::app {

void add_vortex_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "vortex", "Vortex particle method with the FMM: a ring, Taylor-Green or loom hit's field",
                     vortex::vortex_parameters()),
                 vortex::run_vortex});
}

}  // namespace loom::app
