// `loom vortex`: the vortex particle method with the FMM (src/loom/vortex).
#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/ranks_run.hpp"
#include "loom/vortex/run.hpp"

namespace loom::app {

void add_vortex_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "vortex", "Vortex particle method with the FMM: a ring, Taylor-Green or loom hit's field",
                     vortex::vortex_parameters()),
                 [](const io::Parameters& params) {
                   const auto world = comm::Communicator::world();
                   if (world.size() > 1)  // under mpiexec -n N: src/loom/vortex/ranks_run.hpp
                     return vortex::run_vortex_on_ranks(world, params);
                   return vortex::run_vortex(params);
                 }});
}

}  // namespace loom::app
