// loom.vortex: a whole `loom vortex` run (vortex::run_vortex, from the same parameters the command line builds),
// and a Simulation: the run's own VortexRun, built from the same configuration, stepped without its outputs.
#include <pybind11/stl.h>

#include <limits>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "command_input.hpp"
#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/diagnostics.hpp"
#include "loom/vortex/run.hpp"
#include "numpy_arrays.hpp"

namespace loom::python {
namespace {

io::Parameters vortex_input(const std::string& toml, const Flags& flags) {
  return command_input(vortex::vortex_parameters(), toml, flags);
}

// The configuration with every output switched off: VortexRun::step then only steps (and reinitialises when
// due), exactly as in a run, and never touches a run directory.
vortex::VortexConfig without_outputs(const io::Parameters& p) {
  vortex::VortexConfig c = vortex::make_vortex_config(p);
  c.output.every = std::numeric_limits<int>::max();
  c.output.fields_every = 0;
  c.output.checkpoint_every = 0;
  c.output.fields = c.output.plots = false;
  return c;
}

class Simulation {
 public:
  // begin(): physics.spreading = reinit's first half of the diffusion, as run_vortex applies it after its first row
  explicit Simulation(const io::Parameters& p) : run_(without_outputs(p), p.to_toml()) { run_.begin(); }

  void step(std::int64_t steps) {
    if (steps < 0) throw UsageError(io::invalid_value_message("steps", steps, "an integer >= 0"));
    py::gil_scoped_release unlocked;
    for (std::int64_t k = 0; k < steps; ++k) run_.step();
  }

  // Copies: the particles are replaced at each reinitialisation and move with every step.
  py::array_t<double> positions() const { return vectors_to_numpy(std::vector(run_.particles().x)); }
  py::array_t<double> strengths() const { return vectors_to_numpy(std::vector(run_.particles().alpha)); }
  py::array_t<double> cores() const { return to_numpy(std::vector(run_.particles().sigma)); }

  py::dict invariants() const {
    const vortex::Invariants v = vortex::invariants(run_.particles());
    auto vec = [](const fmm::Vec3d& a) { return py::make_tuple(a.x, a.y, a.z); };
    py::dict d;
    d["total_vorticity"] = vec(v.total_vorticity), d["impulse"] = vec(v.impulse), d["centroid"] = vec(v.centroid);
    d["strength"] = v.strength;
    return d;
  }

  double time() const { return run_.time(); }
  Index steps_done() const { return run_.steps(); }
  bool finished() const { return run_.finished(); }
  Index particles() const { return run_.particles().size(); }
  bool periodic() const { return run_.config().periodic; }

 private:
  vortex::VortexRun run_;
};

}  // namespace

void bind_vortex(py::module_& m) {
  m.def(
      "_run",
      [](const std::string& toml, const Flags& flags) {
        return run_command(vortex_input(toml, flags), "vortex", vortex::run_vortex);
      },
      py::arg("toml"), py::arg("flags"),
      "loom vortex [toml] --key value ...: runs to time.t_end and returns the run directory (use loom.vortex.run).");
  py::class_<Simulation>(m, "_Simulation",
                         "The particles of a `loom vortex` run, stepped as the run steps (use loom.vortex.Simulation).")
      .def(py::init([](const std::string& toml, const Flags& flags) {
             return std::make_unique<Simulation>(vortex_input(toml, flags));
           }),
           py::arg("toml"), py::arg("flags"))
      .def("step", &Simulation::step, py::arg("steps") = 1,
           "Advances `steps` time steps (the run's scheme and dt; a reinitialisation where the run makes one); the "
           "GIL is released meanwhile.")
      .def_property_readonly("positions", &Simulation::positions, "particle positions x (n, 3), a copy")
      .def_property_readonly("strengths", &Simulation::strengths, "particle strengths alpha (n, 3), a copy")
      .def_property_readonly("cores", &Simulation::cores,
                             "core radii sigma (n,), a copy (physics.spreading reinit: inside an interval without the "
                             "diffusion it still owes, which the run's rows apply to a copy)")
      .def("invariants", &Simulation::invariants,
           "total vorticity, linear impulse, vorticity centroid and sum |alpha| (series.csv's free-space columns)")
      .def_property_readonly("t", &Simulation::time, "the current time")
      .def_property_readonly("steps_done", &Simulation::steps_done)
      .def_property_readonly("finished", &Simulation::finished, "whether time.t_end is reached (stepping may go on)")
      .def_property_readonly("particles", &Simulation::particles, "the number of particles")
      .def_property_readonly("periodic", &Simulation::periodic, "the box [0, 2 pi)^3 (else free space)");
}

}  // namespace loom::python
