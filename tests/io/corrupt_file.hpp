// Damages a file as a failing disk or a careless copy would: `count` bytes in its middle inverted.
#pragma once

#include <filesystem>
#include <fstream>
#include <vector>

namespace loom::test {

inline void invert_middle_bytes(const std::filesystem::path& path, std::size_t count = 64) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(0, std::ios::end);
  const auto middle = f.tellg() / 2;
  std::vector<char> block(count);
  f.seekg(middle);
  f.read(block.data(), static_cast<std::streamsize>(count));
  for (char& c : block) c = static_cast<char>(~c);
  f.seekp(middle);
  f.write(block.data(), static_cast<std::streamsize>(count));
}

}  // namespace loom::test
