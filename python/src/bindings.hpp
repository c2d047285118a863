// The Python module's parts, one function per loom library (module.cpp calls them).
#pragma once

#include <pybind11/pybind11.h>

namespace loom::python {

namespace py = pybind11;

void bind_fmm(pybind11::module_& m);      // loom.fmm: laplace, biot_savart
void bind_lattice(pybind11::module_& m);  // loom.lattice, loom.lattice_dispersion
void bind_gpe(pybind11::module_& m);      // loom.gpe: run, Simulation
void bind_hit(pybind11::module_& m);      // loom.hit: run

}  // namespace loom::python
