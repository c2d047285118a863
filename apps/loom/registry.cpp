// `loom registry`: every runnable command's parameter registry as one JSON object, {"gpe": [{"key", "type",
// "default", "lower", "upper", "choices"}, ...], "bench fmm": [...]}. Hidden from --help: it exists so that the
// fuzz test enumerates the keys the commands really declare instead of a hand-kept list.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace loom::app {
namespace {

nlohmann::json spec_json(const io::ParamSpec& s) {
  nlohmann::json j = {{"key", s.key}, {"type", std::string(io::to_string(s.type))}, {"choices", s.choices}};
  std::visit([&](const auto& v) { j["default"] = v; }, s.default_value);
  if (s.lower) j["lower"] = *s.lower;
  if (s.upper) j["upper"] = *s.upper;
  return j;
}

}  // namespace

void add_registry_command(CLI::App& app, std::vector<Subcommand>& out) {
  const std::vector<Subcommand>* commands = &out;
  auto command = std::make_unique<io::ParameterCommand>(app, "registry", "every command's keys as JSON",
                                                        io::Parameters{}, false);
  command->app().group("");  // hidden
  out.push_back({std::move(command), [commands](const io::Parameters&) {
                   nlohmann::json j = nlohmann::json::object();
                   for (const Subcommand& s : *commands) {
                     if (!s.command->app().get_subcommands({}).empty() || s.command->parameters().specs().empty())
                       continue;
                     const std::string path = io::command_path(s.command->app());
                     nlohmann::json keys = nlohmann::json::array();
                     for (const auto& spec : s.command->parameters().specs()) keys.push_back(spec_json(spec));
                     j[path.substr(path.find(' ') + 1)] = keys;
                   }
                   std::cout << j.dump(1) << "\n";
                   return 0;
                 }});
}

}  // namespace loom::app
