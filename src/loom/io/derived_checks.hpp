// Checks of quantities derived from several parameters (a step count, a time step, a grid's resolution, an output
// path), made before any work, with loom's one-line message naming the key that is at fault: a value each key
// accepts alone can still ask for the impossible (`time.t_end = 1e17` with dt 0.01 overflows the step count).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "loom/io/parameters.hpp"

namespace loom::io {

// The most time steps a run may take: beyond it a run would outlast any machine (and 2^63 is near).
inline constexpr double max_time_steps = 1e12;

// The longest wall-clock period a key may name (a year): checkpoint intervals and the like.
inline constexpr double max_wall_seconds = 3.2e7;

// ceil(span / dt - 1e-9) steps, refused (UsageError naming `key` = `value`) when not finite or above
// max_time_steps; `key` is the parameter to change (time.t_end, or time.dt when that was given).
std::int64_t checked_step_count(double span, double dt, std::string_view key, const ParamValue& value);

// An output period in simulated time (rows, snapshots): 0 (the command's default) or at most the run's length.
void check_output_period(std::string_view key, double every, double t_end);

// A derived quantity that must be finite and > 0 (a time step, a length): UsageError naming `key` otherwise.
void require_positive_finite(double derived, std::string_view what, std::string_view key, const ParamValue& value);

// An output file named by `key`: refused before any work when it names a folder, its folder does not exist or
// cannot be written. An empty path is no output.
void check_output_file(std::string_view key, const std::filesystem::path& path);
// An output folder named by `key` (created later with its parents): the nearest existing ancestor must be a
// writable folder, and the path itself must not be a file.
void check_output_dir(std::string_view key, const std::filesystem::path& path);
// Keys a command declares but does not read in this run (the model's keys of `bench fmm` without model_ranks, the
// run's output keys in `bench bh`): a value set for one of them (flag or input file) is a mistake the user should
// hear of, so it is refused, naming the key and `when` ("unless model_ranks is given").
void refuse_unread_keys(const Parameters& p, const std::vector<std::string>& keys, std::string_view when);

// The same for a run directory made only after the work (RunDirectory::create), with its rule checked now: an
// existing non-empty folder needs `overwrite`.
void check_run_directory(std::string_view key, const std::filesystem::path& path, bool overwrite);

}  // namespace loom::io
