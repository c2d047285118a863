#include "command_input.hpp"

#include <pybind11/pybind11.h>

#include "loom/core/error.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::python {

io::Parameters command_input(io::Parameters declared, const std::string& toml, const Flags& flags) {
  if (!toml.empty()) declared.load_toml_file(toml);
  for (const auto& [key, text] : flags) declared.set_text(key, text, io::ParamSource::flag);
  return declared;
}

std::string run_command(io::Parameters p, const std::string& command, int (*run)(const io::Parameters&)) {
  if (p.get_string("output.dir").empty())
    p.set_text("output.dir", io::RunDirectory::default_path(command).string(), io::ParamSource::flag);
  int code = 0;
  {
    pybind11::gil_scoped_release unlocked;
    code = run(p);
  }
  if (code != 0) throw Error("loom " + command + " ended with exit code " + std::to_string(code));
  return p.get_string("output.dir");
}

}  // namespace loom::python
