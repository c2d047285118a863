#include "spectral_common.hpp"

#include <limits>
#include <sstream>

#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"

namespace loom::app::spectral_tools {

namespace {
std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');) out.push_back(item);
  return out;
}
}  // namespace

std::vector<int> parse_ints(const std::string& key, const std::string& text, std::size_t count, int minimum) {
  std::vector<int> out;
  for (const auto& item : split(text)) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < minimum || v > std::numeric_limits<int>::max()) {
      out.clear();
      break;
    }
    out.push_back(static_cast<int>(v));
  }
  if (out.empty() || (count > 0 && out.size() != count))
    throw UsageError(io::invalid_value_message(
        key, text,
        (count > 0 ? std::to_string(count) + " comma-separated integers" : std::string("comma-separated integers")) +
            " >= " + std::to_string(minimum)));
  return out;
}

std::vector<double> parse_reals(const std::string& key, const std::string& text, std::size_t count) {
  std::vector<double> out;
  for (const auto& item : split(text)) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0') {
      out.clear();
      break;
    }
    out.push_back(v);
  }
  if (out.size() != count)
    throw UsageError(io::invalid_value_message(key, text, std::to_string(count) + " comma-separated numbers"));
  return out;
}

void add_filter_parameters(io::Parameters& p) {
  // Beyond 700, exp(-alpha) leaves double's normal range: the filter would be a sharp cut-off, not exponential.
  p.add("filter.alpha", 36.0, "exponential filter: the highest mode is damped by exp(-alpha)").at_least(0).at_most(700);
  p.add("filter.order", 8, "exponential filter: s in exp(-alpha (k/k_max)^(2s)); must be >= 1");
  p.add("filter.l_keep", -1, "shell: Heaviside filter keeps Y_lm with l <= l_keep (-1: l_max - 1)").at_least(-1);
}

spectral::FilterSpec filter_spec(const io::Parameters& p) {
  spectral::FilterSpec f;
  f.alpha = p.get_real("filter.alpha");
  f.half_order = static_cast<int>(p.get_int("filter.order"));
  f.l_keep = static_cast<int>(p.get_int("filter.l_keep"));
  if (f.half_order <= 0)
    throw UsageError(io::invalid_value_message("filter.order", p.value("filter.order"), "an integer >= 1"));
  return f;
}

perf::TimingSummary time_workload(spectral::Workload& w, spectral::Strategy s, int warmup, int repeats) {
  core::Stopwatch watch(spectral::backend_of(s));
  return perf::time_repeated(warmup, repeats, [&] {
    watch.start();
    w.run();
    return watch.stop();
  });
}

spectral::Strategy fastest_strategy(const spectral::Topology* t, Index points, spectral::TensorKind kind,
                                    spectral::Operation op, core::Backend backend, const spectral::FilterSpec& f,
                                    spectral::AngularMethod angular) {
  spectral::Strategy best = backend == core::Backend::cpu ? spectral::Strategy::blas : spectral::Strategy::batched;
  double best_time = std::numeric_limits<double>::infinity();
  const bool jacobian = op == spectral::Operation::diffjac || op == spectral::Operation::coordjac;
  if (jacobian) return best;  // one kernel per backend: nothing to choose
  for (auto s : spectral::available_strategies()) {
    if (spectral::backend_of(s) != backend || s == spectral::Strategy::reference) continue;
    if (!spectral::Workload::supported(t, op, s, f, angular)) continue;
    spectral::Workload w(t, points, kind, op, s, f, angular);
    const double seconds = time_workload(w, s, 1, 3).median;
    if (seconds < best_time) {
      best_time = seconds;
      best = s;
    }
  }
  return best;
}

}  // namespace loom::app::spectral_tools
