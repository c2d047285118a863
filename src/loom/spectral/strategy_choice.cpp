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

std::string to_string(const Route& r) {
  return std::string(to_string(r.strategy)) + "/" + std::string(to_string(r.angular));
}

StrategyChooser::StrategyChooser(std::ostream* log, std::string file) : log_(log), file_(std::move(file)) {
  if (file_.empty()) return;
  std::ifstream in(file_);
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) chosen_[line.substr(0, tab)] = line.substr(tab + 1);
  }
}

// A recorded label this build does not offer for the key (a strategy it does not know) is measured again.
std::optional<std::size_t> StrategyChooser::recorded(const std::string& key,
                                                     const std::vector<std::string>& labels) const {
  const auto it = chosen_.find(key);
  if (it == chosen_.end()) return std::nullopt;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == it->second) return i;
  return std::nullopt;
}

std::size_t StrategyChooser::pick(const std::string& key, const std::vector<std::string>& labels,
                                  const std::vector<core::Backend>& backends,
                                  const std::function<void(std::size_t)>& run) {
  if (const auto i = recorded(key, labels)) return *i;
  LOOM_REQUIRE(!labels.empty(), "StrategyChooser: no candidate strategy");
  if (labels.size() == 1) {  // nothing to measure
    record(key, labels.front());
    if (log_) *log_ << fmt::format("strategy for {}: {} (the only candidate)\n", key, labels.front());
    return 0;
  }
  std::size_t best = 0;
  double best_time = std::numeric_limits<double>::infinity();
  std::string times;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    core::Stopwatch watch(backends[i]);
    const auto t = perf::time_repeated(1, repeats, [&] {
      ++timed_calls_;
      watch.start();
      run(i);
      return watch.stop();
    });
    times += fmt::format("{}{} {:.1f} us", times.empty() ? "" : ", ", labels[i], t.median * 1e6);
    if (t.median < best_time) best_time = t.median, best = i;
  }
  record(key, labels[best]);
  if (log_) *log_ << fmt::format("strategy for {}: {} (measured: {})\n", key, labels[best], times);
  return best;
}

Strategy StrategyChooser::choose(const std::string& key, const std::vector<Strategy>& candidates,
                                 const std::function<void(Strategy)>& run) {
  std::vector<std::string> labels;
  std::vector<core::Backend> backends;
  for (auto s : candidates) labels.emplace_back(to_string(s)), backends.push_back(backend_of(s));
  return candidates[pick(key, labels, backends, [&](std::size_t i) { run(candidates[i]); })];
}

namespace {

// The strategies of `backend` (the reference left out: it is the specification, not a candidate) that can run
// the operation; a Jacobian is one kernel per backend, so only the first.
std::vector<Strategy> candidates_of(const Topology* t, Operation op, core::Backend backend, const FilterSpec& filter,
                                    AngularMethod angular) {
  const bool jacobian = op == Operation::diffjac || op == Operation::coordjac;
  std::vector<Strategy> candidates;
  for (auto s : available_strategies())
    if (backend_of(s) == backend && s != Strategy::reference && Workload::supported(t, op, s, filter, angular) &&
        (candidates.empty() || !jacobian))
      candidates.push_back(s);
  return candidates;
}

Index components_of(const std::vector<TensorKind>& kinds) {
  Index components = 0;
  for (auto k : kinds) components += shape_of(k).components();
  return components;
}

}  // namespace

Strategy StrategyChooser::choose(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op,
                                 core::Backend backend, const FilterSpec& filter, AngularMethod angular) {
  const std::string key = choice_key(t, points, op, components_of(kinds), backend, to_string(angular));
  const auto candidates = candidates_of(t, op, backend, filter, angular);
  std::map<Strategy, std::unique_ptr<Workload>> workloads;
  return choose(key, candidates, [&](Strategy s) {
    auto& w = workloads[s];
    if (!w) w = std::make_unique<Workload>(t, points, kinds, op, s, filter, angular);
    w->run();
  });
}

Route StrategyChooser::choose_route(const Topology* t, Index points, const std::vector<TensorKind>& kinds,
                                    Operation op, core::Backend backend, const FilterSpec& filter) {
  const std::string key = choice_key(t, points, op, components_of(kinds), backend, "auto");
  const bool shell = t && t->name() == "shell" && op != Operation::filter_csr;
  std::vector<Route> routes;
  for (auto m : {AngularMethod::dense, AngularMethod::separable}) {
    if (m == AngularMethod::separable && !shell) break;
    for (auto s : candidates_of(t, op, backend, filter, m)) routes.push_back({s, m});
  }
  std::vector<std::string> labels;
  std::vector<core::Backend> backends;
  for (const auto& r : routes) labels.push_back(to_string(r)), backends.push_back(backend_of(r.strategy));
  std::vector<std::unique_ptr<Workload>> workloads(routes.size());
  return routes[pick(key, labels, backends, [&](std::size_t i) {
    if (!workloads[i])
      workloads[i] = std::make_unique<Workload>(t, points, kinds, op, routes[i].strategy, filter, routes[i].angular);
    workloads[i]->run();
  })];
}

void StrategyChooser::record(const std::string& key, const std::string& label) {
  chosen_[key] = label;
  if (file_.empty()) return;
  std::ofstream out(file_, std::ios::app);
  out << key << '\t' << label << '\n';
  if (!out) throw Error("strategy choices: cannot write " + file_);
}

std::string choice_key(const Topology* t, Index points, Operation op, Index components, core::Backend backend,
                       std::string_view angular) {
  std::string grid = fmt::format("points {}", points);
  if (t) {
    const auto e = t->extents();
    grid = fmt::format("{} {}x{}x{}", t->name(), e[0], e[1], e[2]);
  }
  return fmt::format("{} {} C={} {} {}", grid, to_string(op), components, core::to_string(backend), angular);
}

}  // namespace loom::spectral
