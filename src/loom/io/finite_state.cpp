#include "loom/io/finite_state.hpp"

#include <fmt/format.h>

#include <cmath>

#include "loom/core/error.hpp"

namespace loom::io {

void require_finite(std::string_view system, std::string_view what, double value, std::int64_t step, double t,
                    const std::filesystem::path& checkpoint) {
  if (std::isfinite(value)) return;
  std::error_code ec;
  const std::string kept = std::filesystem::exists(checkpoint, ec)
                               ? fmt::format("its last good checkpoint is {}", checkpoint.string())
                               : std::string("no checkpoint had been written");
  throw Error(
      fmt::format("{}: {} is not finite at step {}, t = {:.9g} ({}); the run stops, {} (a time step "
                  "above the stability bound?)",
                  system, what, step, t, value, kept));
}

}  // namespace loom::io
