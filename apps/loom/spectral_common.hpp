// What `loom spectral` and `loom bench spectral` share: list parsing, the filter parameters, timing one
// workload, and the strategy chosen by measurement.
#pragma once

#include <string>
#include <vector>

#include "loom/io/parameters.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::app::spectral_tools {

// "10,19,38" as exactly `count` integers (count 0: any number) >= `minimum`; UsageError naming `key`.
std::vector<int> parse_ints(const std::string& key, const std::string& text, std::size_t count, int minimum);
// "1,3" as exactly `count` numbers; UsageError naming `key`.
std::vector<double> parse_reals(const std::string& key, const std::string& text, std::size_t count);

// Declares filter.alpha, filter.order, filter.l_keep; reads them back.
void add_filter_parameters(io::Parameters& p);
spectral::FilterSpec filter_spec(const io::Parameters& p);

// Median time of `repeats` runs after `warmup` runs, timed on the strategy's backend.
perf::TimingSummary time_workload(spectral::Workload& w, spectral::Strategy s, int warmup, int repeats);

// The fastest strategy on `backend` for this operation and shape, timed with a few repeats each.
spectral::Strategy fastest_strategy(const spectral::Topology* t, Index points, spectral::TensorKind kind,
                                    spectral::Operation op, core::Backend backend, const spectral::FilterSpec& f,
                                    spectral::AngularMethod angular);

}  // namespace loom::app::spectral_tools
