// FFTW's MPI transforms in a build without fftw3-mpi or MPI: `loom hit` then refuses several ranks before it
// makes a solver, so reaching this is a direct call.
#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {

bool fftw_mpi_built() { return false; }

std::unique_ptr<Transforms> make_fftw_mpi_transforms(SpectralGrid, FftPlanning, const comm::Communicator&) {
  throw Error("hit: this loom was built without fftw3-mpi (Debian: libfftw3-mpi-dev), so it runs on one rank only");
}

}  // namespace loom::hit
