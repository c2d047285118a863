// The Python module's parts, one function per loom library (module.cpp calls them).
#pragma once

#include <pybind11/pybind11.h>

namespace loom::python {

namespace py = pybind11;

void bind_fmm(pybind11::module_& m);      // loom.fmm: laplace, biot_savart
void bind_lattice(pybind11::module_& m);  // loom.lattice, loom.lattice_dispersion
void bind_gpe(pybind11::module_& m);      // loom.gpe: run, Simulation
void bind_hit(pybind11::module_& m);      // loom.hit: run
void bind_bh(pybind11::module_& m);       // loom.bh: run
void bind_vortex(pybind11::module_& m);   // loom.vortex: run, Simulation
void bind_spectral_bases(pybind11::module_& m);     // loom.spectral: Basis, Sphere
void bind_spectral_topology(pybind11::module_& m);  // loom.spectral: Cube, Shell
void bind_spectral_tensor(pybind11::module_& m);    // loom.spectral: components, diff_jac, spatial_coord_jac

}  // namespace loom::python
