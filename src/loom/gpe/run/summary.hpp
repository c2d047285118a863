// summary.json of a GPE run: the final figures, timings, device and version (DESIGN.md, "Systems rules").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "loom/gpe/integrator.hpp"
#include "loom/gpe/observables.hpp"
#include "loom/gpe/run/config.hpp"
#include "loom/gpe/run/initial_setup.hpp"

namespace loom::gpe {

// What the summary reports, at the end of a run.
struct RunFigures {
  const GpeConfig& config;
  const InitialSetup& setup;
  const LeapfrogIntegrator& integrator;
  const Observables& initial;
  const Observables& final;
  const nlohmann::json& splitting;
  int ranks = 1;
  bool distributed = false;
  std::int64_t total_steps = 0;
  double wall_s = 0, stepping_s = 0;  // stepping: the slowest rank's
};

nlohmann::json summary_json(const RunFigures& r);

}  // namespace loom::gpe
