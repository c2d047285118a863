// Checkpoint files: HDF5 files whose datasets and root attributes (the data and the parameters a restart must
// match) all enter one checksum (checksum.hpp), stored at commit as the root attributes "checksum" and
// "checksum_items" (what was summed, in order). A checkpoint only ever holds a good state: non-finite values are
// refused before anything is renamed, so the previous checkpoint stays. Reading verifies the checksum first and
// turns every failure into one UsageError naming the key and the file (exit 2).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "loom/io/checksum.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::io {

class CheckpointWriter {
 public:
  // `format` goes into the root attribute "format" (what reading expects).
  CheckpointWriter(std::filesystem::path path, const std::string& format);
  // Throws loom::Error when `data` holds a NaN or an infinity (nothing is written then).
  void write(const std::string& name, std::span<const double> data, const std::vector<std::size_t>& dims);
  void write(const std::string& name, std::span<const std::int64_t> data, const std::vector<std::size_t>& dims);
  // Root attributes.
  void attribute(const std::string& name, double value);
  void attribute(const std::string& name, std::int64_t value);
  void attribute(const std::string& name, const std::string& value);
  void commit();

 private:
  void add(const std::string& item, std::span<const std::byte> bytes);
  Hdf5Writer h5_;
  Checksum sum_;
  std::string items_;
};

// Opens `path`, checks its "format" and checksum, and calls `read`. Throws UsageError `key = "path": why` when the
// file is missing, not HDF5 or of another format ("not a checkpoint of <writer>"), without a checksum or
// corrupted, or when `read` fails.
void read_checkpoint_file(const std::filesystem::path& path, const std::string& key, const std::string& format,
                          const std::string& writer, const std::function<void(const Hdf5Reader&)>& read);

// blocked_fnv1a64 of the bytes of dataset `name` (doubles), read in hyperslabs of at most `piece_values` values
// of its trailing dimensions: checking a checkpoint never holds a whole field, so that a rank's memory holds its
// own part of a field only.
std::uint64_t dataset_hash(const Hdf5Reader& h5, const std::string& name, std::size_t piece_values = 1 << 22);

// True when every value is finite (parallel over the host's threads).
bool all_finite(std::span<const double> values);

}  // namespace loom::io
