// loom.bh: a whole `loom bh` run (gr::run_bh, from the same parameters the command line builds).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "command_input.hpp"
#include "loom/gr/config.hpp"
#include "loom/gr/run.hpp"

namespace loom::python {

void bind_bh(py::module_& m) {
  m.def(
      "_run",
      [](const std::string& toml, const Flags& flags) {
        return run_command(command_input(gr::bh_parameters(), toml, flags), "bh", gr::run_bh);
      },
      py::arg("toml"), py::arg("flags"),
      "loom bh [toml] --key value ...: evolves to time.t_end and returns the run directory (use loom.bh.run).");
}

}  // namespace loom::python
