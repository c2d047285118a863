// Writing files so that a killed run never leaves a half-written one: write to a temporary name in the same
// folder, flush, then rename over the final name (rename is atomic within a file system).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "loom/io/stop_signal.hpp"

namespace loom::io {

// The temporary name used while `path` is being written: "<dir>/.<name>.tmp-<pid>".
std::filesystem::path temporary_path_for(const std::filesystem::path& path);

// Replaces `path` with `content` atomically. Throws loom::Error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// For writers that produce a file themselves (HDF5): write to tmp(), then commit(). Without commit() the
// destructor removes the temporary file, and so does a signal that ends the process (stop_signal.hpp).
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  const std::filesystem::path& tmp() const { return tmp_; }
  const std::filesystem::path& path() const { return path_; }
  void commit();

 private:
  std::filesystem::path path_, tmp_;
  RemoveOnSignal remove_on_signal_;  // a run ended at once by a signal leaves no temporary file
  bool committed_ = false;
};

}  // namespace loom::io
