// std::system with single-quoted arguments; the interpreter, the script and matplotlib are optional at run time.
#include "loom/io/plot_script.hpp"

#include <cstdlib>
#include <filesystem>

#ifndef LOOM_SOURCE_TOOLS_DIR
#define LOOM_SOURCE_TOOLS_DIR "tools"
#endif

namespace loom::io {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string run_plot_script(const std::string& script, const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  // Debian's interpreter, where python3-matplotlib lives; LOOM_PYTHON overrides it (e.g. a virtual environment).
  const char* python = std::getenv("LOOM_PYTHON") ? std::getenv("LOOM_PYTHON") : "/usr/bin/python3";
  const char* env = std::getenv("LOOM_TOOLS_DIR");
  const fs::path path = fs::path(env ? env : LOOM_SOURCE_TOOLS_DIR) / script;
  std::error_code ec;
  if (!fs::exists(python, ec)) return std::string("no plot: ") + python + " not found (set LOOM_PYTHON)";
  if (!fs::exists(path, ec)) return "no plot: " + path.string() + " not found (set LOOM_TOOLS_DIR)";
  if (std::system((std::string(python) + " -c 'import matplotlib' > /dev/null 2>&1").c_str()) != 0)
    return "no plot: matplotlib not found (apt install python3-matplotlib)";
  std::string command = std::string(python) + " " + quoted(path.string());
  for (const auto& a : args) command += " " + quoted(a);
  if (std::system(command.c_str()) != 0) return "no plot: " + script + " failed";
  return {};
}

}  // namespace loom::io
