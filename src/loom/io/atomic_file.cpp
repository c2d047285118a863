#include "loom/io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "loom/core/error.hpp"

namespace loom::io {

std::filesystem::path temporary_path_for(const std::filesystem::path& path) {
  return path.parent_path() / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile file(path);
  std::FILE* f = std::fopen(file.tmp().c_str(), "wb");
  if (f == nullptr) throw Error("cannot write " + file.tmp().string() + ": " + std::strerror(errno));
  const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0 &&
                  ::fsync(::fileno(f)) == 0;
  const int error = errno;
  std::fclose(f);
  if (!ok) throw Error("cannot write " + file.tmp().string() + ": " + std::strerror(error));
  file.commit();
}

AtomicFile::AtomicFile(std::filesystem::path path)
    : path_(std::move(path)), tmp_(temporary_path_for(path_)), remove_on_signal_(tmp_) {}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void AtomicFile::commit() {
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw Error("cannot rename " + tmp_.string() + " to " + path_.string() + ": " + ec.message());
  committed_ = true;
}

}  // namespace loom::io
