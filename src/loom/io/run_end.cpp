#include "loom/io/run_end.hpp"

#include <fmt/format.h>

#include <iostream>

#include "loom/io/stop_signal.hpp"

namespace loom::io {

bool write_final_summary(const RunDirectory& run, nlohmann::json summary, int stop_signal, std::string_view system,
                         long long step, double time) {
  if (stop_signal != 0) summary["stopped_by"] = signal_name(stop_signal);
  run.write_summary(summary);
  if (stop_signal == 0) return false;
  std::cerr << fmt::format("{}: stopped by {} at step {}, t = {:.6g}; checkpoint and outputs in {}\n", system,
                           signal_name(stop_signal), step, time, run.path().string());
  return true;
}

}  // namespace loom::io
