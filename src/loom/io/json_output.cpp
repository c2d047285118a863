#include "loom/io/json_output.hpp"

#include "loom/io/derived_checks.hpp"
#include "loom/io/output_file.hpp"

namespace loom::io {

void declare_json_output(Parameters& p, const std::string& help) {
  p.add("json", "", help);
  p.add("overwrite", false, "replace an existing json file");
}

void check_json_output(const Parameters& p) {
  const std::string& path = p.get_string("json");
  check_output_file("json", path);  // a writable folder
  check_output_file({"json", path}, p.get_bool("overwrite"), "overwrite");
}

}  // namespace loom::io
