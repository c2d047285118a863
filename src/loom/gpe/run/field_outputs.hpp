// The field outputs of a GPE run, from psi of the global lattice on the host: the z = 0 cross-section as CSV
// (Fig. 4, 6 of the DEC-GPE paper) and HDF5 snapshots of density, phase and psi for ParaView.
#pragma once

#include <string>

#include "loom/gpe/model/hamiltonian.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::gpe {

// The vertices with |z| <= half_height (psi valid on the layers that reach there) as x,y,z,density rows.
std::string z0_slice_csv(const Hamiltonian& host_h, const Complex* psi, double half_height);

// psi at time t into psi_<index>.h5 of `run`; returns the file's name for the XDMF series.
std::string field_snapshot(const io::RunDirectory& run, const Hamiltonian& host_h, const Complex* psi, double t,
                           int index);

}  // namespace loom::gpe
