// loom.gpe: a whole `loom gpe` run (gpe::run_gpe, from the same parameters the command line builds) and a
// Simulation that prepares and starts the leapfrog exactly as a run does (prepare_initial, start_leapfrog) and then
// only steps and reads psi.
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "command_input.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/parallel/slab_observables.hpp"
#include "loom/gpe/run/gpe_run.hpp"
#include "loom/gpe/run/leapfrog_start.hpp"
#include "numpy_arrays.hpp"

namespace loom::python {
namespace {

io::Parameters gpe_input(const std::string& toml, const Flags& flags) {
  return command_input(gpe::gpe_parameters(), toml, flags);
}

class Simulation {
 public:
  explicit Simulation(const io::Parameters& p)
      : config_(gpe::gpe_config(p)),
        s_(gpe::prepare_initial(config_)),
        slab_(s_.domain, comm::Communicator::world()),
        integrator_(config_.backend, slab_, s_.physics, config_.halo_transport) {
    LOOM_REQUIRE(!slab_.distributed(), "loom.gpe.Simulation runs on one rank (use loom.gpe.run under mpiexec)");
    integrator_.set_kernel(s_.kernel);
    gpe::start_leapfrog(config_, s_, slab_, integrator_);
  }

  void step(std::int64_t steps) {
    if (steps < 0) throw UsageError(io::invalid_value_message("steps", steps, "an integer >= 0"));
    py::gil_scoped_release unlocked;
    integrator_.step(steps);
  }

  // A copy: the integrator's two buffers swap roles every step (and live on the GPU with CUDA), so a view would
  // change meaning under the caller.
  py::array_t<std::complex<double>> psi() const {
    const auto host = integrator_.current().host();
    py::array_t<std::complex<double>> out(static_cast<py::ssize_t>(host.size()));
    std::complex<double>* o = out.mutable_data();
    for (std::size_t i = 0; i < host.size(); ++i) o[i] = {host[i].re, host[i].im};
    return out;
  }

  py::array_t<double> positions() const {
    const auto h = s_.domain.hamiltonian(core::Where::host, s_.physics);
    std::vector<dec::Vec3> r(static_cast<std::size_t>(h.lattice.size()));
    for (Index i = 0; i < h.lattice.size(); ++i) r[std::size_t(i)] = h.position(i);
    return vectors_to_numpy(std::move(r));
  }

  py::dict observables() const {
    const auto where = core::where(config_.backend);
    const gpe::Observables o =
        gpe::measure(slab_, config_.backend, integrator_.hamiltonian(), integrator_.current().read(where));
    py::dict d;
    d["t"] = integrator_.time(), d["norm"] = o.norm, d["energy"] = o.energy(), d["mu"] = o.mu();
    d["kinetic"] = o.kinetic, d["potential"] = o.potential, d["interaction"] = o.interaction;
    d["max_abs_psi"] = o.max_abs;
    return d;
  }

  double time() const { return integrator_.time(); }
  double dt() const { return integrator_.dt(); }
  std::int64_t steps_done() const { return integrator_.steps_done(); }
  Index dof() const { return integrator_.size(); }
  std::string grid() const { return std::string(dec::to_string(s_.domain.grid)); }
  std::string kernel() const { return std::string(gpe::to_string(integrator_.kernel())); }
  std::string backend() const { return std::string(core::to_string(config_.backend)); }
  const std::string& starter() const { return s_.starter; }

 private:
  gpe::GpeConfig config_;
  gpe::InitialSetup s_;
  gpe::SlabDomain slab_;
  gpe::LeapfrogIntegrator integrator_;
};

}  // namespace

void bind_gpe(py::module_& m) {
  m.def(
      "_run",
      [](const std::string& toml, const Flags& flags) {
        return run_command(gpe_input(toml, flags), "gpe", gpe::run_gpe);
      },
      py::arg("toml"), py::arg("flags"),
        "loom gpe [toml] --key value ...: runs to time.t_end and returns the run directory (use loom.gpe.run).");
  py::class_<Simulation>(m, "_Simulation",
                         "A GPE run's state, prepared and started as `loom gpe` does (use loom.gpe.Simulation).")
      .def(py::init([](const std::string& toml, const Flags& flags) {
             return std::make_unique<Simulation>(gpe_input(toml, flags));
           }),
           py::arg("toml"), py::arg("flags"))
      .def("step", &Simulation::step, py::arg("steps") = 1,
           "Advances `steps` leapfrog steps of dt (eq. 7); the GIL is released meanwhile.")
      .def_property_readonly("psi", &Simulation::psi,
                             "psi(t) at the lattice's points (dual vertices), complex128, a copy (the integrator's "
                             "buffers swap every step)")
      .def_property_readonly("positions", &Simulation::positions, "the lattice's points (n, 3), psi's order")
      .def("observables", &Simulation::observables,
           "norm, energy, mu and its parts, max |psi| at the current time (series.csv's quantities)")
      .def_property_readonly("t", &Simulation::time, "the current time")
      .def_property_readonly("dt", &Simulation::dt, "the time step (eq. 11's bound times time.safety, or time.dt)")
      .def_property_readonly("steps_done", &Simulation::steps_done)
      .def_property_readonly("dof", &Simulation::dof, "the number of lattice points")
      .def_property_readonly("grid", &Simulation::grid)
      .def_property_readonly("kernel", &Simulation::kernel, "the leapfrog kernel (auto resolved)")
      .def_property_readonly("backend", &Simulation::backend)
      .def_property_readonly("starter", &Simulation::starter, "how psi(-dt) was made");
}

}  // namespace loom::python
