// Minimal typed access to HDF5 files (C API): datasets of double/float/int64/int32 with any shape, and scalar
// attributes. Writers go through a temporary name and rename on commit(); readers are used by tests, restarts
// and checkpoints.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "loom/io/atomic_file.hpp"

namespace loom::io {

class Hdf5Writer {
 public:
  explicit Hdf5Writer(std::filesystem::path path);
  ~Hdf5Writer();  // without commit(): closes and removes the temporary file
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  // `name` may contain '/': groups are created as needed. dims: slowest first (C order); product = size.
  void write(const std::string& name, std::span<const double> data, const std::vector<std::size_t>& dims);
  void write(const std::string& name, std::span<const float> data, const std::vector<std::size_t>& dims);
  void write(const std::string& name, std::span<const std::int64_t> data, const std::vector<std::size_t>& dims);
  void write(const std::string& name, std::span<const std::int32_t> data, const std::vector<std::size_t>& dims);
  // A dataset of doubles of shape `dims`, its values written later by write_block() (fields too large to hold whole).
  void create_double(const std::string& name, const std::vector<std::size_t>& dims);
  // The hyperslab of `count` values from `start` in each dimension (slowest first) of a dataset made by
  // create_double(), from `data` in C order.
  void write_block(const std::string& name, const std::vector<std::size_t>& start,
                   const std::vector<std::size_t>& count, std::span<const double> data);
  // Attributes on an existing object ("/" is the file's root group).
  void attribute(const std::string& object, const std::string& name, double value);
  void attribute(const std::string& object, const std::string& name, std::int64_t value);
  void attribute(const std::string& object, const std::string& name, const std::string& value);
  void commit();
  const std::filesystem::path& path() const { return file_.path(); }

 private:
  void write_raw(const std::string& name, const void* data, std::size_t size, const std::vector<std::size_t>& dims,
                 std::int64_t memory_type, std::int64_t file_type);
  void close();
  AtomicFile file_;
  std::int64_t id_ = -1;
};

class Hdf5Reader {
 public:
  explicit Hdf5Reader(const std::filesystem::path& path);
  ~Hdf5Reader();
  Hdf5Reader(const Hdf5Reader&) = delete;
  Hdf5Reader& operator=(const Hdf5Reader&) = delete;

  bool has(const std::string& name) const;
  bool has_attribute(const std::string& object, const std::string& name) const;
  std::vector<std::size_t> dims(const std::string& name) const;
  std::vector<double> read_double(const std::string& name) const;
  // The hyperslab of `count` values from `start` in each dimension (slowest first), in C order.
  std::vector<double> read_double_block(const std::string& name, const std::vector<std::size_t>& start,
                                        const std::vector<std::size_t>& count) const;
  std::vector<float> read_float(const std::string& name) const;
  std::vector<std::int64_t> read_int64(const std::string& name) const;
  std::vector<std::int32_t> read_int32(const std::string& name) const;
  double attribute_double(const std::string& object, const std::string& name) const;
  std::int64_t attribute_int64(const std::string& object, const std::string& name) const;
  std::string attribute_string(const std::string& object, const std::string& name) const;

 private:
  void read_raw(const std::string& name, void* out, std::size_t size, std::int64_t memory_type) const;
  std::filesystem::path path_;
  std::int64_t id_ = -1;
};

}  // namespace loom::io
