#include "loom/io/parameters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? std::string(sep) : "") + items[i];
  return out;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number_text(double v) {
  if (!std::isfinite(v)) return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
  std::string s = fmt::format("{}", v);  // shortest round-trip form
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";  // TOML needs a float to look like one
  return s;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view to_string(ParamType t) {
  switch (t) {
    case ParamType::boolean: return "bool";
    case ParamType::integer: return "integer";
    case ParamType::real: return "real";
    case ParamType::string: return "string";
  }
  return "?";
}

std::string to_text(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(x);
        else if constexpr (std::is_same_v<T, double>) return number_text(x);
        else return quote(x);
      },
      v);
}

std::string invalid_value_message(std::string_view key, const ParamValue& value, std::string_view expected) {
  return fmt::format("{} = {}: expected {}", key, to_text(value), expected);
}

ParamSpec& ParamSpec::one_of(std::vector<std::string> allowed) {
  choices = std::move(allowed);
  return *this;
}
ParamSpec& ParamSpec::at_least(double v) {
  lower = v;
  lower_open = false;
  return *this;
}
ParamSpec& ParamSpec::greater_than(double v) {
  lower = v;
  lower_open = true;
  return *this;
}
ParamSpec& ParamSpec::at_most(double v) {
  upper = v;
  upper_open = false;
  return *this;
}
ParamSpec& ParamSpec::less_than(double v) {
  upper = v;
  upper_open = true;
  return *this;
}

std::string ParamSpec::allowed_text() const {
  const std::string noun = type == ParamType::integer ? "an integer" : "a number";
  auto num = [](double v) { return fmt::format("{}", v); };
  switch (type) {
    case ParamType::boolean: return "true or false";
    case ParamType::string: return choices.empty() ? "a string" : "one of " + join(choices, ", ");
    case ParamType::integer:
    case ParamType::real:
      if (lower && upper)
        return fmt::format("{} in {}{}, {}{}", noun, lower_open ? "(" : "[", num(*lower), num(*upper),
                           upper_open ? ")" : "]");
      if (lower) return fmt::format("{} {} {}", noun, lower_open ? ">" : ">=", num(*lower));
      if (upper) return fmt::format("{} {} {}", noun, upper_open ? "<" : "<=", num(*upper));
      return noun;
  }
  return "";
}

void check_value(const ParamSpec& spec, const ParamValue& value) {
  const bool type_ok = (spec.type == ParamType::boolean && std::holds_alternative<bool>(value)) ||
                       (spec.type == ParamType::integer && std::holds_alternative<std::int64_t>(value)) ||
                       (spec.type == ParamType::real && std::holds_alternative<double>(value)) ||
                       (spec.type == ParamType::string && std::holds_alternative<std::string>(value));
  if (!type_ok) throw UsageError(invalid_value_message(spec.key, value, spec.allowed_text()));
  if (spec.type == ParamType::string && !spec.choices.empty()) {
    const auto& s = std::get<std::string>(value);
    if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
      throw UsageError(invalid_value_message(spec.key, value, spec.allowed_text()));
  }
  if (spec.type == ParamType::integer || spec.type == ParamType::real) {
    const double x = spec.type == ParamType::integer ? double(std::get<std::int64_t>(value)) : std::get<double>(value);
    const bool below = spec.lower && (spec.lower_open ? !(x > *spec.lower) : !(x >= *spec.lower));
    const bool above = spec.upper && (spec.upper_open ? !(x < *spec.upper) : !(x <= *spec.upper));
    if (!std::isfinite(x) || below || above)
      throw UsageError(invalid_value_message(spec.key, value, spec.allowed_text()));
  }
}

ParamSpec& Parameters::declare(std::string key, ParamType type, ParamValue default_value, std::string help) {
  LOOM_REQUIRE(!has(key), "Parameters: key declared twice: " + key);
  ParamSpec s;
  s.key = std::move(key);
  s.type = type;
  s.default_value = default_value;
  s.help = std::move(help);
  specs_.push_back(std::move(s));
  values_.push_back(std::move(default_value));
  sources_.push_back(ParamSource::default_value);
  return specs_.back();
}

ParamSpec& Parameters::add(std::string key, bool v, std::string help) {
  return declare(std::move(key), ParamType::boolean, v, std::move(help));
}
ParamSpec& Parameters::add(std::string key, int v, std::string help) {
  return declare(std::move(key), ParamType::integer, std::int64_t{v}, std::move(help));
}
ParamSpec& Parameters::add(std::string key, std::int64_t v, std::string help) {
  return declare(std::move(key), ParamType::integer, v, std::move(help));
}
ParamSpec& Parameters::add(std::string key, double v, std::string help) {
  return declare(std::move(key), ParamType::real, v, std::move(help));
}
ParamSpec& Parameters::add(std::string key, const char* v, std::string help) {
  return declare(std::move(key), ParamType::string, std::string(v), std::move(help));
}
ParamSpec& Parameters::add(std::string key, std::string v, std::string help) {
  return declare(std::move(key), ParamType::string, std::move(v), std::move(help));
}

bool Parameters::has(std::string_view key) const {
  return std::any_of(specs_.begin(), specs_.end(), [&](const ParamSpec& s) { return s.key == key; });
}

std::size_t Parameters::index(std::string_view key) const {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].key == key) return i;
  const std::string hint = suggest(key);
  throw UsageError(fmt::format("unknown parameter \"{}\"{}", key, hint.empty() ? "" : " (did you mean " + hint + "?)"));
}

const ParamSpec& Parameters::spec(std::string_view key) const { return specs_[index(key)]; }

void Parameters::set(std::string_view key, ParamValue value, ParamSource source) {
  const std::size_t i = index(key);
  const ParamSpec& s = specs_[i];
  // An integer is a fine value for a real parameter (TOML `g = 300`); the reverse is an error.
  if (s.type == ParamType::real && std::holds_alternative<std::int64_t>(value))
    value = static_cast<double>(std::get<std::int64_t>(value));
  check_value(s, value);
  values_[i] = std::move(value);
  sources_[i] = source;
}

void Parameters::set_text(std::string_view key, std::string_view text, ParamSource source) {
  const ParamSpec& s = spec(key);
  const std::string t(text);
  auto bad = [&] { return UsageError(invalid_value_message(key, std::string(text), s.allowed_text())); };
  switch (s.type) {
    case ParamType::boolean:
      if (t == "true" || t == "1" || t == "yes" || t == "on") return set(key, true, source);
      if (t == "false" || t == "0" || t == "no" || t == "off") return set(key, false, source);
      throw bad();
    case ParamType::integer: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec != std::errc() || end != t.data() + t.size() || t.empty()) {
        // "6e8" is a whole number written as a float: accepted (counts are written so). "1.5" is a number but
        // not an integer: say it in the same words as a TOML float.
        double d = 0;
        const auto [end2, ec2] = std::from_chars(t.data(), t.data() + t.size(), d);
        if (ec2 == std::errc() && end2 == t.data() + t.size() && !t.empty()) {
          if (d == std::floor(d) && std::abs(d) < 9.2e18) return set(key, static_cast<std::int64_t>(d), source);
          throw UsageError(invalid_value_message(key, d, s.allowed_text()));
        }
        throw bad();
      }
      return set(key, v, source);
    }
    case ParamType::real: {
      double v = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec != std::errc() || end != t.data() + t.size() || t.empty()) throw bad();
      return set(key, v, source);
    }
    case ParamType::string: return set(key, t, source);
  }
}

const ParamValue& Parameters::value(std::string_view key) const { return values_[index(key)]; }
ParamSource Parameters::source(std::string_view key) const { return sources_[index(key)]; }

bool Parameters::get_bool(std::string_view key) const {
  const auto& v = value(key);
  LOOM_REQUIRE(std::holds_alternative<bool>(v), "Parameters::get_bool: not a bool: " + std::string(key));
  return std::get<bool>(v);
}
std::int64_t Parameters::get_int(std::string_view key) const {
  const auto& v = value(key);
  LOOM_REQUIRE(std::holds_alternative<std::int64_t>(v), "Parameters::get_int: not an integer: " + std::string(key));
  return std::get<std::int64_t>(v);
}
double Parameters::get_real(std::string_view key) const {
  const auto& v = value(key);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  LOOM_REQUIRE(std::holds_alternative<double>(v), "Parameters::get_real: not a number: " + std::string(key));
  return std::get<double>(v);
}
const std::string& Parameters::get_string(std::string_view key) const {
  const auto& v = value(key);
  LOOM_REQUIRE(std::holds_alternative<std::string>(v), "Parameters::get_string: not a string: " + std::string(key));
  return std::get<std::string>(v);
}

std::string Parameters::to_toml() const {
  // Top-level keys first, then one [section] per prefix before the last dot, in declaration order.
  std::ostringstream top;
  std::vector<std::string> order;
  std::map<std::string, std::ostringstream> sections;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const std::string& key = specs_[i].key;
    const auto dot = key.rfind('.');
    const std::string line = (dot == std::string::npos ? key : key.substr(dot + 1)) + " = " + to_text(values_[i]) +
                             "\n";
    if (dot == std::string::npos) {
      top << line;
      continue;
    }
    const std::string section = key.substr(0, dot);
    if (!sections.count(section)) order.push_back(section);
    sections[section] << line;
  }
  std::string out = top.str();
  for (const auto& section : order) out += (out.empty() ? "" : "\n") + ("[" + section + "]\n") + sections[section].str();
  return out;
}

nlohmann::json Parameters::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < specs_.size(); ++i)
    std::visit([&](const auto& x) { j[specs_[i].key] = x; }, values_[i]);
  return j;
}

std::string Parameters::help_text() const {
  std::string out;
  std::size_t width = 0;
  for (const auto& s : specs_) width = std::max(width, s.key.size());
  for (const auto& s : specs_) {
    out += fmt::format("  --{:<{}}  {} (default {}", s.key, width, s.help, to_text(s.default_value));
    const std::string allowed = s.allowed_text();
    if (s.type != ParamType::boolean && (!s.choices.empty() || s.lower || s.upper)) out += "; " + allowed;
    out += ")\n";
  }
  return out;
}

std::string Parameters::suggest(std::string_view unknown) const {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, unknown.size() / 3) + 1;
  for (const auto& s : specs_) {
    const std::size_t d = edit_distance(unknown, s.key);
    if (d < best_distance) {
      best_distance = d;
      best = s.key;
    }
  }
  return best;
}

}  // namespace loom::io
