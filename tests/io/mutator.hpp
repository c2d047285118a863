// A seeded random mutator over a valid text (the fuzz tests of CSV and TOML input): each mutation flips a byte,
// inserts one from a set of troublemakers (quotes, separators, NUL, high bytes, a BOM), deletes a span,
// duplicates or swaps lines, or truncates. Deterministic for a seed, so a failure names a case that reproduces.
#pragma once

#include <random>
#include <string>

namespace loom::test {

inline std::string mutate(std::string text, std::mt19937& rng) {
  static const std::string specials[] = {"\"", ",", "\n", "=", "[", "]", "#", std::string(1, '\0'), "\xff",
                                         "\xEF\xBB\xBF", "nan", "1e999", "-", "\r\n", "'''", "\\", "{", "."};
  auto at = [&](std::size_t n) { return n == 0 ? std::size_t{0} : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const int edits = 1 + static_cast<int>(at(4));
  for (int e = 0; e < edits; ++e) {
    const std::size_t pos = at(text.size() + 1);
    switch (at(6)) {
      case 0:
        if (!text.empty()) text[at(text.size())] = static_cast<char>(at(256));
        break;
      case 1: text.insert(pos, specials[at(std::size(specials))]); break;
      case 2: text.erase(pos, at(16)); break;
      case 3: {  // duplicate a line
        const std::size_t start = text.rfind('\n', pos == 0 ? 0 : pos - 1), end = text.find('\n', pos);
        const std::size_t s = start == std::string::npos ? 0 : start + 1;
        text.insert(s, text.substr(s, end == std::string::npos ? std::string::npos : end - s + 1));
        break;
      }
      case 4: text.resize(pos); break;
      default: text.insert(pos, std::to_string(static_cast<long long>(at(1u << 30)) - (1 << 29))); break;
    }
  }
  return text;
}

}  // namespace loom::test
