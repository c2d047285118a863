#include "loom/spectral/tool_config.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <sstream>

#include "loom/core/error.hpp"
#include "loom/io/json_output.hpp"

namespace loom::spectral {

namespace {

constexpr int max_spectral_shells = 256;  // loom spectral --shells: a domain's shells, not a memory test

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');) out.push_back(item);
  return out;
}

constexpr std::pair<BenchSweep, std::string_view> sweep_names[] = {
    {BenchSweep::jacobian, "jacobian"}, {BenchSweep::cube, "cube"}, {BenchSweep::singlebh, "singlebh"},
    {BenchSweep::bbh, "bbh"}};

// The choices file is read and appended to after the timings: its folder must exist now, so that a bad path is a
// usage error before any work rather than a failure after it.
void check_choices_file(const std::string& path) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file(path);
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const bool folder_ok = fs::is_directory(folder, ec);
  const bool file_ok = !fs::exists(file, ec) || fs::is_regular_file(file, ec);
  if (!folder_ok || !file_ok)
    throw UsageError(io::invalid_value_message("choices", path, "a file (new or a regular one) in an existing folder"));
}

std::vector<BenchSweep> parse_sweeps(const std::string& text) {
  std::vector<BenchSweep> out;
  if (text == "all") {
    for (const auto& [sweep, name] : sweep_names) out.push_back(sweep);
    return out;
  }
  for (const auto& item : split(text)) {
    const auto* it = std::find_if(std::begin(sweep_names), std::end(sweep_names),
                                  [&](const auto& entry) { return entry.second == item; });
    if (it == std::end(sweep_names))
      throw UsageError(io::invalid_value_message("sweeps", text, "all, or a list of jacobian, cube, singlebh, bbh"));
    out.push_back(it->first);
  }
  if (out.empty())
    throw UsageError(io::invalid_value_message("sweeps", text, "all, or a list of jacobian, cube, singlebh, bbh"));
  return out;
}

void add_filter_parameters(io::Parameters& p) {
  p.add("filter.alpha", 36.0, "exponential filter: the highest mode is damped by exp(-alpha)").at_least(0).at_most(700);
  p.add("filter.order", 8, "exponential filter: s in exp(-alpha (k/k_max)^(2s)); must be >= 1");
  p.add("filter.l_keep", -1, "shell: Heaviside filter keeps Y_lm with l <= l_keep (-1: l_max - 1)").at_least(-1);
}

FilterSpec filter_spec(const io::Parameters& p) {
  FilterSpec f;
  f.alpha = p.get_real("filter.alpha");
  f.half_order = static_cast<int>(p.get_int("filter.order"));
  f.l_keep = static_cast<int>(p.get_int("filter.l_keep"));
  if (f.half_order <= 0)
    throw UsageError(io::invalid_value_message("filter.order", p.value("filter.order"), "an integer >= 1"));
  return f;
}

void add_timing_parameters(io::Parameters& p) {
  p.add("repeats", 10, "timed repeats; the median is reported").at_least(1);
  p.add("warmup", 2, "untimed runs first").at_least(0);
  io::declare_json_output(p, "also write the result as JSON to this file");
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
            " in [" + std::to_string(minimum) + ", " + std::to_string(std::numeric_limits<int>::max()) + "]"));
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

std::vector<TensorKind> parse_tensor_kinds(const std::string& key, const std::string& text) {
  std::vector<TensorKind> out;
  for (const auto& item : split(text)) {
    try {
      out.push_back(parse_tensor_kind(item, key));
    } catch (const UsageError&) {
      throw UsageError(io::invalid_value_message(
          key, text, "a comma-separated list of scalar, a, aa, ab, abb, iaa, i, ij, ii"));
    }
  }
  if (out.empty())
    throw UsageError(io::invalid_value_message(key, text, "a comma-separated list of tensor kinds"));
  return out;
}

std::vector<Strategy> parse_strategies(const std::string& key, const std::string& text) {
  if (text == "all") return available_strategies();
  std::vector<Strategy> out;
  for (const auto& item : split(text)) out.push_back(parse_strategy(item, key));
  if (out.empty()) throw UsageError(io::invalid_value_message(key, text, "all, or a list of strategies"));
  return out;
}

void declare_spectral_parameters(io::Parameters& p) {
  p.add("topology", "shell", "cube (I1 x I1 x I1) or shell (I1 x S2)").one_of({"cube", "shell"});
  p.add("extents", "10,19,38", "points per coordinate: cube x,y,z; shell N_r,N_theta,N_phi with N_phi = 2 N_theta");
  p.add("radii", "1,3", "shell: inner,outer radius");
  p.add("bases", "chebyshev,chebyshev,chebyshev", "cube: basis per axis (chebyshev on [-1,1], fourier on [0,2pi))");
  p.add("op", "deriv", "deriv (Cartesian gradient), filter, filter_csr (shell), diffjac (eq. 8), coordjac");
  p.add("tensor", "aa",
        "tensor kind (scalar, a, aa, ab, abb, iaa, i, ij, ii), or a list for one call on several tensors (deriv, "
        "filter; aa,iaa,aa: the 50 GH components)");
  p.add("backend", "cpu", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("angular", "dense",
        "shell: dense angular matrices, the separable route (phi DFT, per-m Legendre), or auto (with strategy auto: "
        "the fastest measured strategy and angular method together)")
      .one_of({"dense", "separable", "auto"});
  p.add("strategy", "auto",
        "auto (fastest measured), reference, blas (cpu); batched, streamed, fused, cluster (cuda; cluster: the shell "
        "gradient on the separable route only)");
  p.add("choices", "", "strategy auto: a file of the strategies chosen per shape, read first and appended to");
  add_filter_parameters(p);
  p.add("calls", 1, "back-to-back calls per timed sample (the time per call of a stream of calls)").at_least(1);
  p.add("shells", 1,
        "deriv on a shell: this many copies of the shell (each its own fields, Jacobian and output) in one call, "
        "as a domain of many shells computes its gradients (strategy cluster: one launch per 16 shells); the time "
        "per shell is printed too")
      .at_least(1)
      .at_most(max_spectral_shells);
  add_timing_parameters(p);
}

SpectralToolConfig spectral_tool_config(const io::Parameters& p) {
  SpectralToolConfig c;
  c.topology = p.get_string("topology");
  const auto e = parse_ints("extents", p.get_string("extents"), 3, 1);
  c.extents = {e[0], e[1], e[2]};
  const auto r = parse_reals("radii", p.get_string("radii"), 2);
  c.radii = {r[0], r[1]};
  const auto& names = p.get_string("bases");
  const auto bases = split(names);
  if (bases.size() != 3)
    throw UsageError(io::invalid_value_message("bases", names, "3 comma-separated bases (chebyshev, fourier)"));
  for (int d = 0; d < 3; ++d) c.bases[d] = parse_basis_kind(bases[d], "bases");
  c.op = parse_operation(p.get_string("op"), "op");
  c.tensors = parse_tensor_kinds("tensor", p.get_string("tensor"));
  if (c.tensors.size() > 1 && c.op != Operation::deriv && c.op != Operation::filter)
    throw UsageError(io::invalid_value_message("tensor", p.get_string("tensor"),
                                               "one tensor kind with op " + std::string(to_string(c.op))));
  c.filter = filter_spec(p);
  c.backend = core::parse_backend(p.get_string("backend"), "backend");
  const auto& angular = p.get_string("angular");
  c.angular = angular == "auto" ? std::nullopt : std::optional(parse_angular_method(angular, "angular"));
  const auto& strategy = p.get_string("strategy");
  if (angular == "auto" && strategy != "auto")
    throw UsageError(io::invalid_value_message("angular", angular, "dense or separable with strategy " + strategy));
  if (strategy != "auto") {
    c.strategy = parse_strategy(strategy, "strategy");
    if (backend_of(*c.strategy) != c.backend)
      throw UsageError(io::invalid_value_message("strategy", strategy,
                                                 c.backend == core::Backend::cpu
                                                     ? "reference or blas with backend cpu"
                                                     : "batched, streamed, fused or cluster with backend cuda"));
  }
  c.choices = p.get_string("choices");
  check_choices_file(c.choices);
  c.calls = static_cast<int>(p.get_int("calls"));
  c.shells = static_cast<int>(p.get_int("shells"));
  if (c.shells > 1 && (c.topology != "shell" || c.op != Operation::deriv))
    throw UsageError(io::invalid_value_message("shells", p.value("shells"),
                                               "1 unless topology = \"shell\" and op = \"deriv\""));
  c.repeats = static_cast<int>(p.get_int("repeats"));
  c.warmup = static_cast<int>(p.get_int("warmup"));
  c.json = p.get_string("json");
  return c;
}

std::unique_ptr<Topology> make_topology(const SpectralToolConfig& c) {
  return make_topology(c.topology, c.extents, c.radii, c.bases);
}

bool BenchSpectralConfig::wants(BenchSweep s) const { return std::find(sweeps.begin(), sweeps.end(), s) != sweeps.end(); }

void declare_bench_spectral_parameters(io::Parameters& p) {
  p.add("backend", "all", "backends to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("sweeps", "all", "which sweeps: all, or a list of jacobian, cube, singlebh, bbh");
  p.add("tensor", "abb", "tensor kind of the cube and shell sweeps, or a list measured as one call");
  p.add("points", "1000,10000,100000,1000000,4000000", "jacobian sweep: N_x values");
  p.add("cube_n", "8,16,24,32,40,48,56,64", "cube sweep: points per axis");
  p.add("cpu_threads", "1,0", "CPU thread counts to time (0: all cores)");
  p.add("strategies", "all",
        "all, or a list of the strategies to time (reference, blas, batched, streamed, fused, cluster)");
  p.add("reference", false, "also time the FFT reference (slow)");
  add_filter_parameters(p);
  p.add("quick", false, "small sizes and few repeats (a smoke test, not a measurement)");
  add_timing_parameters(p);
}

BenchSpectralConfig bench_spectral_config(const io::Parameters& p) {
  BenchSpectralConfig c;
  c.quick = p.get_bool("quick");
  c.warmup = static_cast<int>(p.get_int("warmup"));
  c.repeats = c.quick ? 3 : static_cast<int>(p.get_int("repeats"));
  const auto& backend = p.get_string("backend");
  c.backends = backend == "all" ? core::available_backends() : std::vector{core::parse_backend(backend, "backend")};
  c.sweeps = parse_sweeps(p.get_string("sweeps"));
  c.tensors = parse_tensor_kinds("tensor", p.get_string("tensor"));
  c.points = parse_ints("points", p.get_string("points"), 0, 1);  // checked even when --quick replaces them
  c.cube_n = parse_ints("cube_n", p.get_string("cube_n"), 0, 2);
  if (c.quick) c.points = {1000, 100000}, c.cube_n = {8, 16};
  for (int n : parse_ints("cpu_threads", p.get_string("cpu_threads"), 0, 0))
    c.cpu_threads.push_back(n == 0 ? core::cpu_threads() : n);
  // the reference is slow: timed when listed by name or asked for with --reference
  const auto& listed = p.get_string("strategies");
  const auto available = available_strategies();
  for (auto s : parse_strategies("strategies", listed))
    if (std::find(available.begin(), available.end(), s) != available.end() &&
        (s != Strategy::reference || listed != "all" || p.get_bool("reference")))
      c.strategies.push_back(s);
  c.filter = filter_spec(p);
  c.json = p.get_string("json");
  return c;
}

}  // namespace loom::spectral
