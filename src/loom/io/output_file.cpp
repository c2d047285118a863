#include "loom/io/output_file.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

// The same file by identity (links, "./b.csv"), or by normalised name when one of them does not exist yet.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) return std::filesystem::equivalent(a, b, ec);
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

}  // namespace

void check_output_file(const NamedPath& output, bool overwrite, const std::string& overwrite_key,
                       const std::vector<NamedPath>& inputs) {
  if (output.path.empty()) return;
  const std::string named = fmt::format("{} = \"{}\"", output.key, output.path.string());
  for (const auto& in : inputs)
    if (!in.path.empty() && same_file(output.path, in.path))
      throw UsageError(fmt::format("{}: is the same file as {} = \"{}\"; choose another output file", named, in.key,
                                   in.path.string()));
  std::error_code ec;
  if (std::filesystem::is_directory(output.path, ec))
    throw UsageError(fmt::format("{}: is a directory; expected a file name", named));
  if (std::filesystem::exists(output.path, ec) && !overwrite)
    throw UsageError(
        fmt::format("{}: exists; choose another name, or set {} = true to replace it", named, overwrite_key));
}

}  // namespace loom::io
