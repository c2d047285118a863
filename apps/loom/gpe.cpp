// `loom gpe`: superfluid vortex dynamics with the DEC Gross-Pitaevskii integrator (src/loom/gpe), on one rank or,
// under mpiexec, on slabs of the lattice (section 4.2 of the DEC-GPE paper).
#include <iostream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/experiment.hpp"

namespace loom::app {
namespace {

// Bad input is found by every rank alike: rank 0 alone reports it. Any other failure may strike one rank only,
// while the others wait for it in a collective: it ends the whole job.
int run_gpe_on_ranks(const io::Parameters& p) {
  const comm::Communicator world = comm::Communicator::world();
  if (world.size() == 1) return gpe::run_gpe(p);
  try {
    return gpe::run_gpe(p);
  } catch (const UsageError& e) {
    // Found by every rank alike. mpiexec ends the job when the first rank exits with an error, so the others wait
    // until rank 0 has said what it is (as main() would).
    if (world.is_root()) std::cerr << "error: " << e.what() << std::endl;
    world.barrier();
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "loom failed on rank " << world.rank() << " of " << world.size() << ": " << e.what() << "\n";
    comm::abort_job(1);
  }
}

}  // namespace

void add_gpe_command(CLI::App& app, std::vector<Subcommand>& out) {
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "gpe", "Gross-Pitaevskii vortex dynamics on a DEC crystal lattice (input file and/or flags)",
                     gpe::gpe_parameters()),
                 run_gpe_on_ranks});
}

}  // namespace loom::app
