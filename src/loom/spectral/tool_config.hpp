// The typed configurations of `loom spectral` and `loom bench spectral` (docs/architecture.md, "How a parameter
// travels"): each key declared once, then every value, lists included, parsed once at the edge into a struct,
// with bad input refused by a UsageError naming the key, the value and what is allowed. Past this point nothing
// reads a parameter by its key.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/basis_1d.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::spectral {

// "10,19,38" as exactly `count` integers (count 0: one or more) in [`minimum`, INT_MAX]; UsageError naming `key`.
std::vector<int> parse_ints(const std::string& key, const std::string& text, std::size_t count, int minimum);
// "1,3" as exactly `count` numbers; UsageError naming `key`.
std::vector<double> parse_reals(const std::string& key, const std::string& text, std::size_t count);
// "aa,iaa,aa" as tensor kinds; UsageError naming `key`.
std::vector<TensorKind> parse_tensor_kinds(const std::string& key, const std::string& text);
// "all" (every strategy this build and machine can run) or a list of strategy names; UsageError naming `key`.
std::vector<Strategy> parse_strategies(const std::string& key, const std::string& text);

struct SpectralToolConfig {
  std::string topology;
  std::array<int, 3> extents{};
  std::array<double, 2> radii{};
  std::array<BasisKind, 3> bases{};
  Operation op = Operation::deriv;
  std::vector<TensorKind> tensors;  // several: one call for all (deriv, filter)
  core::Backend backend = core::Backend::cpu;
  std::optional<Strategy> strategy;  // none: auto, chosen by measurement
  std::string choices;               // auto: the file of choices per shape ("": none)
  std::optional<AngularMethod> angular = AngularMethod::dense;  // none: auto, chosen with the strategy
  FilterSpec filter;
  int repeats = 10, warmup = 2, calls = 1;
  int shells = 1;  // deriv on a shell: copies of it in one call (ShellBatch)
  std::string json;
};
void declare_spectral_parameters(io::Parameters& p);
SpectralToolConfig spectral_tool_config(const io::Parameters& p);
// The configured topology (the extents checked against its bases).
std::unique_ptr<Topology> make_topology(const SpectralToolConfig& c);

enum class BenchSweep { jacobian, cube, singlebh, bbh };
struct BenchSpectralConfig {
  std::vector<core::Backend> backends;
  std::vector<BenchSweep> sweeps;
  std::vector<TensorKind> tensors;  // of the cube and shell sweeps: several are one call
  std::vector<int> points, cube_n, cpu_threads;  // cpu_threads: 0 already replaced by all cores
  std::vector<Strategy> strategies;
  FilterSpec filter;
  int repeats = 10, warmup = 2;
  bool quick = false;
  std::string json;
  bool wants(BenchSweep s) const;
};
void declare_bench_spectral_parameters(io::Parameters& p);
BenchSpectralConfig bench_spectral_config(const io::Parameters& p);

}  // namespace loom::spectral
