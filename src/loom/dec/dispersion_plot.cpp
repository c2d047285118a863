// std::system with single-quoted paths; the script and matplotlib are optional at run time.
#include "loom/dec/dispersion_plot.hpp"

#include <cstdlib>

#ifndef LOOM_SOURCE_TOOLS_DIR
#define LOOM_SOURCE_TOOLS_DIR "tools"
#endif

namespace loom::dec {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string plot_dispersion(const std::filesystem::path& csv, const std::filesystem::path& png) {
  namespace fs = std::filesystem;
  const char* python = "/usr/bin/python3";
  const char* env = std::getenv("LOOM_TOOLS_DIR");
  const fs::path script = fs::path(env ? env : LOOM_SOURCE_TOOLS_DIR) / "plot_lattice_dispersion.py";
  std::error_code ec;
  if (!fs::exists(python, ec)) return "no plot: /usr/bin/python3 not found";
  if (!fs::exists(script, ec)) return "no plot: " + script.string() + " not found (set LOOM_TOOLS_DIR)";
  if (std::system((std::string(python) + " -c 'import matplotlib' > /dev/null 2>&1").c_str()) != 0)
    return "no plot: matplotlib not found (apt install python3-matplotlib)";
  const std::string command =
      std::string(python) + " " + quoted(script.string()) + " " + quoted(csv.string()) + " " + quoted(png.string());
  if (std::system(command.c_str()) != 0) return "no plot: " + script.filename().string() + " failed";
  return {};
}

}  // namespace loom::dec
