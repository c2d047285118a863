// The compiled part of the Python package `loom` (python/loom/ is the rest): loom's library functions over NumPy
// arrays, calling the same C++ the `loom` command calls. loom's exceptions become Python ones with loom's one-line
// message: bad input (UsageError) a loom.UsageError, which is a ValueError; a failure inside loom a loom.Error,
// which is a RuntimeError.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "loom's C++ library over NumPy arrays (use the package `loom`, which re-exports this module)";
  // Translators are tried newest first: UsageError before its base Error.
  py::register_exception<loom::Error>(m, "Error", PyExc_RuntimeError);
  py::register_exception<loom::UsageError>(m, "UsageError", PyExc_ValueError);
  m.attr("__version__") = loom::core::loom_version();
  m.attr("git_commit") = loom::core::git_commit();
  m.def(
      "backends", [] {
        py::list names;
        for (auto b : loom::core::available_backends()) names.append(std::string(loom::core::to_string(b)));
        return names;
      },
      "The backends present in this build and process: ['cpu'] or ['cpu', 'cuda'].");
  auto fmm = m.def_submodule("fmm", "The fast multipole method (loom fmm): Laplace and Biot-Savart sums.");
  loom::python::bind_fmm(fmm);
  loom::python::bind_lattice(m);
  auto gpe = m.def_submodule("gpe", "The DEC Gross-Pitaevskii system (loom gpe).");
  loom::python::bind_gpe(gpe);
  auto hit = m.def_submodule("hit", "Isotropic turbulence, pseudo-spectral Navier-Stokes (loom hit).");
  loom::python::bind_hit(hit);
  auto spectral = m.def_submodule("spectral", "The spectral toolkit (loom spectral): bases, topologies, tensors.");
  loom::python::bind_spectral_bases(spectral);
  loom::python::bind_spectral_topology(spectral);
  loom::python::bind_spectral_tensor(spectral);
  auto bh = m.def_submodule("bh", "A Kerr-Schild black hole by the generalized harmonic system (loom bh).");
  loom::python::bind_bh(bh);
  auto vortex = m.def_submodule("vortex", "The vortex particle method with the FMM (loom vortex).");
  loom::python::bind_vortex(vortex);
}
