#include "loom/vortex/benchmark.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loom/core/timer.hpp"
#include "loom/fmm/run/memory_need.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/device_stepper.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/lattice.hpp"
#include "loom/vortex/reinit.hpp"

namespace loom::vortex {
namespace {

// Particles per step the integrator holds beside the FMM's own: the particles, AB2's advanced copy (7 doubles
// each), and the current, previous and evaluator's rates (6 doubles each).
constexpr double integrator_bytes_per_particle = 8 * (2 * 7 + 3 * 6);

Particles taylor_green_particles(const Lattice& lattice, double overlap) {
  Particles p;
  p.resize(lattice.size());
  const double volume = lattice.h * lattice.h * lattice.h;
  for (Index m = 0; m < lattice.size(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    p.x[i] = lattice.node(m);
    p.alpha[i] = volume * taylor_green_vorticity(1.0, p.x[i]);
    p.sigma[i] = overlap * lattice.h;
  }
  return p;
}

}  // namespace

core::MemoryNeed step_memory_need(Index lattice_n, const fmm::Options& options) {
  return step_memory_need_of(double(lattice_n) * double(lattice_n) * double(lattice_n), options);
}

core::MemoryNeed step_memory_need_of(double particles, const fmm::Options& options) {
  fmm::FmmConfig c;
  c.kernel = fmm::Kernel::biot_savart;
  c.options = options;
  c.bodies.n = static_cast<Index>(std::min(particles, 9e18));  // the estimate of a count past Index: refused
  core::MemoryNeed need = fmm::memory_need(c);
  need.host_bytes += integrator_bytes_per_particle * particles;
  return need;
}

namespace {

// The timed steps on the device stepper (the particles resident where the FMM runs: on the GPU for cuda, the same
// code on the host for cpu); p holds the final particles.
void time_device_steps(Particles& p, const fmm::Options& f, const Domain& domain, const BenchOptions& o,
                       StepTiming& t) {
  DeviceStepper stepper(f, o.nu, domain, o.rebuild_cost);
  stepper.upload(p);
  for (int s = 0; s < o.warmup; ++s) stepper.step(o.dt);
  stepper.take_times();
  const double steps = o.steps;
  for (int s = 0; s < o.steps; ++s) {
    stepper.step(o.dt);
    t.p2p_interactions += stepper.fmm().stats().p2p_interactions / steps;
    t.m2l_pairs += double(stepper.fmm().stats().m2l_pairs) / steps;
  }
  const DeviceStepTimes d = stepper.take_times();
  t.tree = d.tree / steps;
  t.lists = d.lists / steps;
  t.fmm = d.fmm / steps;
  t.update = d.update / steps;
  t.on_device = true;
  t.tree_builds = stepper.fmm().builds();
  t.refits = stepper.fmm().refits();
  stepper.download(p);
}

}  // namespace

StepTiming time_vortex_step(Index lattice_n, const BenchOptions& o) {
  const Domain domain = o.periodic ? Domain{true, 0, box_period} : Domain{};
  const Lattice lattice = periodic_lattice(Domain{true, 0, box_period}, lattice_n);
  Particles p = taylor_green_particles(lattice, o.overlap);
  fmm::Options f = o.fmm;
  f.periodic = o.periodic;
  f.period = box_period;
  f.box_lower = {0, 0, 0};
  StepTiming t;
  t.backend = std::string(core::to_string(f.backend));
  t.lattice_n = lattice_n;
  t.particles = p.size();
  t.reinit_every = o.reinit_every;
  if (f.tree_on_backend && o.scheme == TimeScheme::ab2) {
    time_device_steps(p, f, domain, o, t);
  } else {
    RateEvaluator rates(f, StretchingForm::classical);
    Integrator integrator(o.scheme, o.nu, domain);
    const RateFunction evaluate = [&](const Particles& q, Rates& out) { rates.evaluate(q, out); };
    for (int s = 0; s < o.warmup; ++s) integrator.step(p, o.dt, evaluate);
    rates.take_times();
    double wall = 0;
    for (int s = 0; s < o.steps; ++s) {
      core::WallTimer step;
      integrator.step(p, o.dt, evaluate);
      wall += step.seconds();
    }
    const RateTimes rt = rates.take_times();
    const double steps = o.steps;
    t.tree = rt.tree / steps;
    t.lists = rt.lists / steps;
    t.fmm = rt.fmm / steps;
    t.update = (wall - rt.tree - rt.lists - rt.fmm) / steps;
  }
  if (o.reinit_every > 0) {
    ReinitOptions r;
    r.overlap = o.overlap;
    core::WallTimer timer;
    const ReinitResult result = reinitialise(p, domain, lattice.h, lattice_n, r);
    t.reinit = timer.seconds();
    t.reinit_iterations = result.cg.iterations;
  }
  return t;
}

void print_step_table(std::ostream& out, const std::vector<StepTiming>& rows) {
  out << fmt::format("{:>7} {:>6} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}\n", "backend", "n",
                     "particles", "tree_s", "lists_s", "fmm_s", "update_s", "reinit_s", "step_s", "mem_GiB", "builds",
                     "refits");
  for (const StepTiming& r : rows)
    out << fmt::format("{:>7} {:>6} {:>11} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.2f} {:>6} "
                       "{:>6}\n",
                       r.backend, r.lattice_n, r.particles, r.tree, r.lists, r.fmm, r.update, r.reinit, r.step(),
                       r.memory_bytes / double(1 << 30), r.tree_builds, r.refits);
}

nlohmann::json to_json(const std::vector<StepTiming>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const StepTiming& r : rows)
    j.push_back({{"backend", r.backend},   {"lattice_n", r.lattice_n}, {"particles", r.particles},
                 {"tree_s", r.tree},       {"lists_s", r.lists},       {"fmm_s", r.fmm},
                 {"update_s", r.update},   {"reinit_s", r.reinit},     {"reinit_iterations", r.reinit_iterations},
                 {"reinit_every", r.reinit_every}, {"step_s", r.step()}, {"memory_bytes", r.memory_bytes},
                 {"on_device", r.on_device},       {"tree_builds", r.tree_builds},
                 {"refits", r.refits},             {"p2p_interactions", r.p2p_interactions},
                 {"m2l_pairs", r.m2l_pairs}});
  return j;
}

}  // namespace loom::vortex
