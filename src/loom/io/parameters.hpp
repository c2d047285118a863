// The parameter registry: every key a loom command accepts is declared once (name such as `grid.type`, type,
// default, allowed values or range, help). Defaults, then a TOML input file, then command-line flags set the
// values (flags win). Every value is checked when it is set, with one-line messages that name the key, the
// value and what is allowed, e.g.  grid.type = "hex": expected one of cubic, fcc, bcc, a15, c15, z
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace loom::io {

enum class ParamType { boolean, integer, real, string };
using ParamValue = std::variant<bool, std::int64_t, double, std::string>;
enum class ParamSource { default_value, input_file, flag };

struct ParamSpec {
  std::string key;
  ParamType type = ParamType::string;
  ParamValue default_value;
  std::string help;
  std::vector<std::string> choices;     // strings: the allowed values (empty: any)
  std::optional<double> lower, upper;   // numbers: bounds
  bool lower_open = false, upper_open = false;

  // Declaration helpers, chained after Parameters::add(...).
  ParamSpec& one_of(std::vector<std::string> allowed);
  ParamSpec& at_least(double v);
  ParamSpec& greater_than(double v);
  ParamSpec& at_most(double v);
  ParamSpec& less_than(double v);

  std::string allowed_text() const;  // "one of a, b", "a number > 0", "an integer in [1, 8]", ""
};

std::string to_text(const ParamValue& v);        // as written in TOML: "bcc" quoted, 0.5, 20, true
std::string_view to_string(ParamType t);

class Parameters {
 public:
  // Declares a key. The type follows the default: bool, an integer type, double, or a string.
  ParamSpec& add(std::string key, bool default_value, std::string help);
  ParamSpec& add(std::string key, int default_value, std::string help);
  ParamSpec& add(std::string key, std::int64_t default_value, std::string help);
  ParamSpec& add(std::string key, double default_value, std::string help);
  ParamSpec& add(std::string key, const char* default_value, std::string help);
  ParamSpec& add(std::string key, std::string default_value, std::string help);

  bool has(std::string_view key) const;
  const ParamSpec& spec(std::string_view key) const;
  const std::vector<ParamSpec>& specs() const { return specs_; }

  // Setting values; each throws UsageError with a one-line message on a bad key or value.
  void set_text(std::string_view key, std::string_view text, ParamSource source);  // flag text, parsed by type
  void set(std::string_view key, ParamValue value, ParamSource source);            // typed (from TOML)
  // Reads a TOML file (toml++); nested tables give dotted keys. Errors name the file, line and column.
  void load_toml_file(const std::string& path);
  void load_toml_text(std::string_view text, const std::string& name);

  bool get_bool(std::string_view key) const;
  std::int64_t get_int(std::string_view key) const;
  double get_real(std::string_view key) const;
  const std::string& get_string(std::string_view key) const;
  const ParamValue& value(std::string_view key) const;
  ParamSource source(std::string_view key) const;
  bool user_set(std::string_view key) const { return source(key) != ParamSource::default_value; }

  std::string to_toml() const;      // the effective input, re-readable, grouped by section
  nlohmann::json to_json() const;   // {"grid.type": "bcc", ...}
  std::string help_text() const;    // every key with type, default, allowed values and help

  // The closest declared key to an unknown one (edit distance), for "did you mean" hints; empty if none close.
  std::string suggest(std::string_view unknown) const;

 private:
  ParamSpec& declare(std::string key, ParamType type, ParamValue default_value, std::string help);
  std::size_t index(std::string_view key) const;
  std::vector<ParamSpec> specs_;
  std::vector<ParamValue> values_;
  std::vector<ParamSource> sources_;
};

// Throws UsageError for a value outside the spec (used by set(); public for systems' cross-key checks).
void check_value(const ParamSpec& spec, const ParamValue& value);
// A one-line message in loom's format: `key = value: expected what`.
std::string invalid_value_message(std::string_view key, const ParamValue& value, std::string_view expected);

// Whether this build reads TOML input files (toml++ present at build time).
bool toml_supported();

}  // namespace loom::io
