// Backends (where loops run) and memory sides (where data lives), chosen at run time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loom::core {

enum class Backend { cpu, cuda };
enum class Where { host, device };

constexpr Where where(Backend b) { return b == Backend::cuda ? Where::device : Where::host; }
constexpr Where other(Where w) { return w == Where::host ? Where::device : Where::host; }

std::string_view to_string(Backend b);
std::string_view to_string(Where w);

// True when this build has the backend and, for CUDA, at least one device is visible.
bool backend_available(Backend b);
// The fastest backend present: CUDA when a device is visible, else the CPU.
Backend best_backend();
// Every backend present, CPU first.
std::vector<Backend> available_backends();

// Parses "cpu", "cuda" or "auto" (the best present); throws UsageError naming `key` for anything else, or
// for "cuda" when no CUDA device is present.
Backend parse_backend(std::string_view text, std::string_view key = "backend");

// Number of OpenMP threads the CPU backend uses.
int cpu_threads();

}  // namespace loom::core
