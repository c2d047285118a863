// loom hit's seeded field (k_peak 1.5) as the start of a CPU vortex run, for the field-sums tests.
#pragma once

#include <numbers>
#include <string>
#include <utility>

#include "loom/vortex/config.hpp"

namespace loom::vortex::test {

inline constexpr double period = 2 * std::numbers::pi;

inline VortexConfig hit_field(Index n, int refine, double viscosity) {
  io::Parameters p = vortex_parameters();
  const std::pair<const char*, std::string> flags[] = {
      {"initial.type", "hit"}, {"particles.n", std::to_string(n)}, {"initial.k_peak", "1.5"},
      {"particles.refine", std::to_string(refine)}, {"physics.nu", std::to_string(viscosity)},
      {"backend", "cpu"}, {"fmm.order", "8"}, {"fmm.theta", "0.5"}};
  for (const auto& [key, text] : flags) p.set_text(key, text, io::ParamSource::flag);
  return make_vortex_config(p);
}

}  // namespace loom::vortex::test
