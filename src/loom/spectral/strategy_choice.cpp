#include "loom/spectral/strategy_choice.hpp"

#include <fmt/format.h>

#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>

#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"

namespace loom::spectral {

StrategyChooser::StrategyChooser(std::ostream* log, std::string file) : log_(log), file_(std::move(file)) {
  if (file_.empty()) return;
  std::ifstream in(file_);
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    try {
      chosen_[line.substr(0, tab)] = parse_strategy(line.substr(tab + 1));
    } catch (const UsageError&) {  // a strategy this build does not know: measured again
    }
  }
}

Strategy StrategyChooser::choose(const std::string& key, const std::vector<Strategy>& candidates,
                                 const std::function<void(Strategy)>& run) {
  if (const auto it = chosen_.find(key); it != chosen_.end()) return it->second;
  LOOM_REQUIRE(!candidates.empty(), "StrategyChooser: no candidate strategy");
  if (candidates.size() == 1) {  // nothing to measure
    record(key, candidates.front());
    if (log_) *log_ << fmt::format("strategy for {}: {} (the only candidate)\n", key, to_string(candidates.front()));
    return candidates.front();
  }
  Strategy best = candidates.front();
  double best_time = std::numeric_limits<double>::infinity();
  std::string times;
  for (auto s : candidates) {
    core::Stopwatch watch(backend_of(s));
    const auto t = perf::time_repeated(1, repeats, [&] {
      ++timed_calls_;
      watch.start();
      run(s);
      return watch.stop();
    });
    times += fmt::format("{}{} {:.1f} us", times.empty() ? "" : ", ", to_string(s), t.median * 1e6);
    if (t.median < best_time) best_time = t.median, best = s;
  }
  record(key, best);
  if (log_) *log_ << fmt::format("strategy for {}: {} (measured: {})\n", key, to_string(best), times);
  return best;
}

Strategy StrategyChooser::choose(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op,
                                 core::Backend backend, const FilterSpec& filter, AngularMethod angular) {
  Index components = 0;
  for (auto k : kinds) components += shape_of(k).components();
  const std::string key = choice_key(t, points, op, components, backend, angular);
  if (const auto it = chosen_.find(key); it != chosen_.end()) return it->second;
  const bool jacobian = op == Operation::diffjac || op == Operation::coordjac;
  std::vector<Strategy> candidates;
  for (auto s : available_strategies())
    if (backend_of(s) == backend && s != Strategy::reference && Workload::supported(t, op, s, filter, angular) &&
        (candidates.empty() || !jacobian))  // a Jacobian is one kernel per backend: nothing to choose
      candidates.push_back(s);
  std::map<Strategy, std::unique_ptr<Workload>> workloads;
  return choose(key, candidates, [&](Strategy s) {
    auto& w = workloads[s];
    if (!w) w = std::make_unique<Workload>(t, points, kinds, op, s, filter, angular);
    w->run();
  });
}

void StrategyChooser::record(const std::string& key, Strategy s) {
  chosen_[key] = s;
  if (file_.empty()) return;
  std::ofstream out(file_, std::ios::app);
  out << key << '\t' << to_string(s) << '\n';
  if (!out) throw Error("strategy choices: cannot write " + file_);
}

std::string choice_key(const Topology* t, Index points, Operation op, Index components, core::Backend backend,
                       AngularMethod angular) {
  std::string grid = fmt::format("points {}", points);
  if (t) {
    const auto e = t->extents();
    grid = fmt::format("{} {}x{}x{}", t->name(), e[0], e[1], e[2]);
  }
  return fmt::format("{} {} C={} {} {}", grid, to_string(op), components, core::to_string(backend),
                     to_string(angular));
}

}  // namespace loom::spectral
