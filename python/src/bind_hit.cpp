// loom.hit: a whole `loom hit` run (hit::run_hit, from the same parameters the command line builds).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "command_input.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/run.hpp"

namespace loom::python {

void bind_hit(py::module_& m) {
  m.def(
      "_run",
      [](const std::string& toml, const Flags& flags) {
        return run_command(command_input(hit::hit_parameters(), toml, flags), "hit", hit::run_hit);
      },
      py::arg("toml"), py::arg("flags"),
      "loom hit [toml] --key value ...: runs to the end and returns the run directory (use loom.hit.run).");
}

}  // namespace loom::python
