// The non-finite stop (docs/architecture.md, "Run lifecycle"): a system measures a cheap norm of its state at each
// output step and calls require_finite before writing the row. A NaN or infinity is never written as a result:
// the run stops with exit 1 and one line naming the step and time; the series keeps its good rows and the last
// checkpoint (which never holds a non-finite state, checkpoint_file.hpp) is kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace loom::io {

// Throws loom::Error "<system>: <what> is not finite at step <step>, t = <t> (<value>); the run stops, <the last
// good checkpoint, or that there is none>" unless `value` is finite.
void require_finite(std::string_view system, std::string_view what, double value, std::int64_t step, double t,
                    const std::filesystem::path& checkpoint);

}  // namespace loom::io
