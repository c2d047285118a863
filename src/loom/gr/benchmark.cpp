#include "loom/gr/benchmark.hpp"

#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include <array>
#include <utility>

#include "loom/core/cuda_api.hpp"
#include "loom/core/timer.hpp"
#include "loom/gr/dormand_prince.hpp"

namespace loom::gr {

namespace {

using Module = std::pair<const char*, double ModuleTimes::*>;
constexpr std::array<Module, 6> modules = {{{"Jacobian", &ModuleTimes::jacobian},
                                            {"Deriv", &ModuleTimes::deriv},
                                            {"Filter", &ModuleTimes::filter},
                                            {"GHEqns", &ModuleTimes::gh_eqns},
                                            {"ApplyBCs", &ModuleTimes::apply_bcs},
                                            {"Other", &ModuleTimes::other}}};

void set_threads(int n) {
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

}  // namespace

ModuleProfile profile_steps(const KerrSchild& hole, const GhGeometry& geometry, const spectral::FilterSpec& filter,
                            core::Backend backend, int threads, int warmup, int steps) {
  const int all = core::cpu_threads();
  if (backend == core::Backend::cpu) set_threads(threads);
  GhSystem system(hole, geometry, filter, backend);
  DormandPrince stepper(system);
  State u = system.exact_state();
  const double dt = 0.25 * system.smallest_spacing();
  for (int i = 0; i < warmup; ++i) stepper.step(u, dt);
  system.set_profiling(true);
  system.reset_times();
  core::Stopwatch watch(backend);
  watch.start();
  for (int i = 0; i < steps; ++i) {
    stepper.step(u, dt);
    (void)system.slowest_excision_speed(u);  // the run's check each step, timed as ApplyBCs
  }
  const double seconds = watch.stop();
  if (backend == core::Backend::cpu) set_threads(all);
  ModuleProfile p;
  p.backend = backend;
  p.threads = backend == core::Backend::cpu ? threads : 0;
  p.label = backend == core::Backend::cpu ? fmt::format("cpu x{}", threads) : "cuda";
  p.steps = steps;
  p.step_s = seconds / steps;
  const ModuleTimes& t = system.times();
  for (const auto& [name, field] : modules) p.per_step.*field = t.*field / steps;
  p.per_step.other = p.step_s - (p.per_step.total() - p.per_step.other);
  return p;
}

void print_profile_table(std::ostream& out, const std::vector<ModuleProfile>& rows) {
  const ModuleProfile* gpu = nullptr;
  for (const auto& r : rows)
    if (r.backend == core::Backend::cuda) gpu = &r;
  out << fmt::format("{:<10}", "module");
  for (const auto& r : rows) out << fmt::format(" {:>12} {:>6}", r.label + " ms", "%");
  if (gpu)
    for (const auto& r : rows)
      if (&r != gpu) out << fmt::format(" {:>14}", "cuda/" + r.label);
  out << "\n";
  auto line = [&](const char* name, auto value) {
    out << fmt::format("{:<10}", name);
    for (const auto& r : rows) out << fmt::format(" {:>12.3f} {:>6.1f}", 1e3 * value(r), 100 * value(r) / r.step_s);
    if (gpu)
      for (const auto& r : rows)
        if (&r != gpu) out << fmt::format(" {:>14.1f}", value(*gpu) > 0 ? value(r) / value(*gpu) : 0.0);
    out << "\n";
  };
  for (const auto& [name, field] : modules) line(name, [f = field](const ModuleProfile& r) { return r.per_step.*f; });
  line("step", [](const ModuleProfile& r) { return r.step_s; });
}

nlohmann::json to_json(const std::vector<ModuleProfile>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json m;
    for (const auto& [name, field] : modules) m[name] = r.per_step.*field;
    j.push_back({{"label", r.label},
                 {"backend", std::string(core::to_string(r.backend))},
                 {"threads", r.threads},
                 {"steps", r.steps},
                 {"step_s", r.step_s},
                 {"modules_s_per_step", m}});
  }
  return j;
}

}  // namespace loom::gr
