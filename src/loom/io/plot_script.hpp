// Plots are made by Python scripts in tools/ with Debian's python3-matplotlib, run as a separate process so
// that loom itself never depends on Python. Plotting is optional: a missing interpreter, script or matplotlib
// is reported, not fatal.
#pragma once

#include <string>
#include <vector>

namespace loom::io {

// Runs `/usr/bin/python3 <tools>/<script> <args...>` ($LOOM_PYTHON overrides the interpreter), where <tools>
// is $LOOM_TOOLS_DIR or the source tree's tools/. Returns "" on success, else one line saying why no plot was made.
std::string run_plot_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace loom::io
