// The per-shape default strategy, chosen by measurement (issue 18, "the default per shape is chosen by
// measurement and the choice is printed"): on the first use of a key (topology and extents, operation, tensor
// width, backend, angular method) every candidate strategy runs a few times and the fastest is kept, in memory
// and, when a file is given, in that file (one "key<TAB>strategy" line each), so a later run reads the choice
// instead of timing again. Each choice is printed once.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::spectral {

// A strategy together with the shell's angular method (the cube has only the dense one).
struct Route {
  Strategy strategy = Strategy::reference;
  AngularMethod angular = AngularMethod::dense;
};
std::string to_string(const Route& r);  // "fused/separable"

class StrategyChooser {
 public:
  // log: where each new choice is printed (null: nowhere); file: the run directory's record of choices ("": none).
  explicit StrategyChooser(std::ostream* log = nullptr, std::string file = "");

  // The fastest of `candidates` for `key`, each timed with `run` (one call on the strategy's backend) on the
  // key's first use: one untimed call, then the median of `repeats` (a single candidate is not timed).
  Strategy choose(const std::string& key, const std::vector<Strategy>& candidates,
                  const std::function<void(Strategy)>& run);
  // For an operation of the Workload kind: the candidates are the strategies of `backend` (the reference left
  // out: it is the specification, not a candidate) that can run it.
  Strategy choose(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op,
                  core::Backend backend, const FilterSpec& filter, AngularMethod angular);

  // The fastest route of `backend` over its strategies and, on a shell, both angular methods (the separable route
  // against the dense matrices: which wins depends on the shape, e.g. dense cuBLAS at small shells, the fused
  // separable passes at SingleBH k = 10); keyed with angular "auto".
  Route choose_route(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op,
                     core::Backend backend, const FilterSpec& filter);

  std::size_t timed_calls() const { return timed_calls_; }  // every timed or untimed trial call so far
  int repeats = 3;

 private:
  // The fastest of `labels` (each timed with run(index) on backends[index]); the chosen label is recorded.
  std::size_t pick(const std::string& key, const std::vector<std::string>& labels,
                   const std::vector<core::Backend>& backends, const std::function<void(std::size_t)>& run);
  // The recorded label of `key` when it is one of `labels`: its index.
  std::optional<std::size_t> recorded(const std::string& key, const std::vector<std::string>& labels) const;
  void record(const std::string& key, const std::string& label);
  std::ostream* log_;
  std::string file_;
  std::map<std::string, std::string> chosen_;  // key -> label (a strategy, or strategy/angular for a route)
  std::size_t timed_calls_ = 0;
};

// "shell 10x19x38 deriv C=50 cuda separable": what makes a choice new (angular "auto" for a route).
std::string choice_key(const Topology* t, Index points, Operation op, Index components, core::Backend backend,
                       std::string_view angular);

}  // namespace loom::spectral
