#include "loom/io/command_line.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "loom/core/error.hpp"

namespace loom::io {

ParameterCommand::ParameterCommand(CLI::App& parent, const std::string& name, const std::string& description,
                                   Parameters params, bool takes_input_file)
    : app_(parent.add_subcommand(name, description)), params_(std::move(params)) {
  app_->allow_extras();  // leftovers are reported by resolve() in loom's words
  if (takes_input_file)
    app_->add_option("input", input_file_, "TOML input file; flags override its values")->type_name("FILE");
  for (const auto& spec : params_.specs()) {
    bindings_.push_back({spec.key, "", nullptr});
    Binding& b = bindings_.back();
    std::string help = spec.help + " [default " + to_text(spec.default_value);
    if (spec.type != ParamType::boolean && (!spec.choices.empty() || spec.lower || spec.upper))
      help += "; " + spec.allowed_text();
    help += "]";
    const auto dot = spec.key.find('.');
    b.option = app_->add_option("--" + spec.key, b.text, help)
                   ->type_name(spec.type == ParamType::boolean ? "[BOOL]" : fmt::format("{}", to_string(spec.type)))
                   ->group(dot == std::string::npos ? "Options" : spec.key.substr(0, dot));
    b.option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a repeated flag: the last one wins
    if (spec.type == ParamType::boolean) b.option->expected(0, 1);  // `--quiet` alone means true
  }
}

const Parameters& ParameterCommand::resolve() {
  reject_extras(*app_, &params_);
  if (!input_file_.empty()) params_.load_toml_file(input_file_);
  for (const auto& b : bindings_) {
    if (b.option->count() == 0) continue;
    const bool bare_flag = params_.spec(b.key).type == ParamType::boolean && b.text.empty();
    params_.set_text(b.key, bare_flag ? "true" : b.text, ParamSource::flag);
  }
  return params_;
}

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* a = app.get_parent(); a != nullptr; a = a->get_parent()) path = a->get_name() + " " + path;
  return path;
}

void reject_extras(const CLI::App& app, const Parameters* params) {
  const auto extras = app.remaining();
  if (extras.empty()) return;
  const std::string name = command_path(app);
  const std::string& first = extras.front();
  std::string hint;
  if (params && first.rfind("--", 0) == 0) {
    std::string key = first.substr(2);
    if (const auto eq = key.find('='); eq != std::string::npos) key.resize(eq);
    if (const std::string s = params->suggest(key); !s.empty()) hint = " (did you mean --" + s + "?)";
  }
  if (first.rfind("-", 0) == 0)
    throw UsageError(fmt::format("{}: unknown flag {}{}; see {} --help", name, first, hint, name));
  if (!app.get_subcommands({}).empty()) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    throw UsageError(fmt::format("{}: unknown command \"{}\" (commands: {})", name, first, fmt::join(names, ", ")));
  }
  throw UsageError(fmt::format("{}: unexpected argument \"{}\"; see {} --help", name, first, name));
}

}  // namespace loom::io
