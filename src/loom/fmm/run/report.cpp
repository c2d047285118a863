// The run's printed report (report.hpp).
#include "loom/fmm/run/report.hpp"

#include <fmt/format.h>

#include <ostream>
#include <utility>

#include "loom/core/backend.hpp"
#include "loom/fmm/run/fmm_run.hpp"

namespace loom::fmm {

nlohmann::json timings_json(const Timings& t) {
  return {{"build", t.build},       {"upward", t.upward}, {"traversal", t.traversal},
          {"m2l", t.m2l},           {"p2p", t.p2p},       {"downward", t.downward},
          {"transfer", t.transfer}, {"call", t.call},     {"total", t.total()}};
}

void print_start(std::ostream& out, const FmmRun& run) {
  const Options& o = run.config().options;
  out << fmt::format("loom fmm: {} bodies ({}{}), {}, p {}, theta {}, ncrit {}, backend {}{}\n", run.bodies(),
                     run.source(), o.periodic ? ", periodic" : "", to_string(run.config().kernel), o.order, o.theta,
                     o.ncrit, core::to_string(o.backend),
                     o.backend == core::Backend::cuda ? fmt::format(" ({})", to_string(o.precision))
                                                      : fmt::format(" ({} threads)", core::cpu_threads()));
}

void print_evaluation(std::ostream& out, const FmmRun& run) {
  if (run.config().kernel == Kernel::biot_savart)
    out << fmt::format("core radius sigma {:.4g}, far-field guard {} sigma\n", run.config().sigma,
                       run.config().options.guard);
  const Timings& t = run.timings();
  const Statistics& s = run.statistics();
  out << fmt::format("tree: {} cells, {} leaves, {} levels; {} M2L pairs, {} P2P pairs ({:.3g} body interactions)\n",
                     s.cells, s.leaves, s.levels, s.m2l_pairs, s.p2p_pairs, s.p2p_interactions);
  out << "phase         seconds\n";
  const std::pair<const char*, double> rows[] = {
      {"build", t.build}, {"upward", t.upward},     {"traversal", t.traversal}, {"m2l", t.m2l},
      {"p2p", t.p2p},     {"downward", t.downward}, {"transfer", t.transfer},   {"total", t.total()}};
  for (const auto& [name, seconds] : rows) out << fmt::format("{:<12}  {:.6f}\n", name, seconds);
  out << fmt::format("{:<12}  {:.6f}  (wall time of the evaluation call: all but the build)\n", "call", t.call);
}

void print_check(std::ostream& out, const FmmRun& run) {
  if (const auto& e = run.laplace_errors())
    out << fmt::format("relative L2 error ({} targets, against {}): potential {:.3e}, gradient {:.3e}\n",
                       run.checked_targets(), run.config().options.periodic ? "Ewald" : "direct sum", e->potential,
                       e->gradient);
  if (const auto& e = run.biot_savart_errors())
    out << fmt::format("relative L2 error ({} targets, against direct sum): velocity {:.3e}, stretching {:.3e}\n",
                       run.checked_targets(), e->velocity, e->stretching);
  if (!run.unchecked_reason().empty()) out << "relative L2 error: not checked (" << run.unchecked_reason() << ")\n";
}

}  // namespace loom::fmm
