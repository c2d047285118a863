// The dispersion plot: runs tools/plot_lattice_dispersion.py with Debian's /usr/bin/python3 (matplotlib from
// python3-matplotlib). No plot, and a message saying why, when either is missing.
#pragma once

#include <filesystem>
#include <string>

namespace loom::app {

// Plots `csv` (as written by `loom lattice dispersion`) into `png`. Returns an empty string on success, else a
// one-line reason (python or matplotlib missing, the script failed). The script is looked up in
// $LOOM_TOOLS_DIR, else in the source tree's tools/ folder.
std::string plot_dispersion(const std::filesystem::path& csv, const std::filesystem::path& png);

}  // namespace loom::app
