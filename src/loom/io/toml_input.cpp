// Reading TOML input files into the parameter registry (toml++, header-only; absent on some machines).
#include <fmt/format.h>

#include <filesystem>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"

#if defined(LOOM_HAVE_TOMLPP)
#include <toml++/toml.h>
#endif

namespace loom::io {

bool toml_supported() {
#if defined(LOOM_HAVE_TOMLPP)
  return true;
#else
  return false;
#endif
}

#if defined(LOOM_HAVE_TOMLPP)
namespace {

void load_table(Parameters& params, const toml::table& table, const std::string& prefix, const std::string& name) {
  for (const auto& [k, node] : table) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    const auto line = node.source().begin.line;
    auto where = [&] { return fmt::format("{}:{}", name, line); };
    if (const auto* sub = node.as_table()) {
      load_table(params, *sub, key, name);
      continue;
    }
    if (!params.has(key)) {
      const std::string hint = params.suggest(key);
      throw UsageError(fmt::format("{}: unknown key \"{}\"{}", where(), key,
                                   hint.empty() ? "" : " (did you mean " + hint + "?)"));
    }
    ParamValue value;
    if (auto s = node.value<std::string>(); s && node.is_string()) value = *s;
    else if (node.is_boolean()) value = *node.value<bool>();
    else if (node.is_integer()) value = *node.value<std::int64_t>();
    else if (node.is_floating_point()) value = *node.value<double>();
    else
      throw UsageError(fmt::format("{}: {}: expected {}", where(), key, params.spec(key).allowed_text()));
    try {
      params.set(key, value, ParamSource::input_file);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("{}: {}", where(), e.what()));
    }
  }
}

// toml++'s message quotes the offending text, which may hold a line break or another control character: printed
// escaped, so the error stays one line (found by tests/gpe/test_toml_fuzz.cpp).
std::string parse_error_line(const std::string& file, const toml::parse_error& e) {
  std::string description;
  for (const char c : e.description()) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      description += fmt::format("\\x{:02x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    else
      description += c;
  }
  return fmt::format("{}:{}:{}: {}", file, e.source().begin.line, e.source().begin.column, description);
}

}  // namespace

void Parameters::load_toml_text(std::string_view text, const std::string& name) {
  toml::table table;
  try {
    table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw UsageError(parse_error_line(name, e));
  }
  load_table(*this, table, "", name);
}

void Parameters::load_toml_file(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw UsageError(fmt::format("input file \"{}\": no such file", path));
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw UsageError(parse_error_line(path, e));
  }
  load_table(*this, table, "", path);
}

#else

void Parameters::load_toml_text(std::string_view, const std::string& name) {
  throw UsageError(fmt::format("{}: this loom was built without toml++: pass parameters as flags", name));
}

void Parameters::load_toml_file(const std::string& path) {
  throw UsageError(fmt::format("input file \"{}\": this loom was built without toml++: pass parameters as flags "
                               "(--key value)", path));
}

#endif

}  // namespace loom::io
