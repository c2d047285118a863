#include "loom/io/checkpoint_file.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "loom/core/error.hpp"

namespace loom::io {
namespace {

template <class T>
std::span<const std::byte> bytes_of(const T& value) {
  return std::as_bytes(std::span(&value, 1));
}

// Recomputes the checksum of an open file from its "checksum_items", each read back as the type it was written.
Checksum recompute(const Hdf5Reader& h5, const std::string& items) {
  Checksum sum;
  std::istringstream lines(items);
  std::string item;
  while (std::getline(lines, item)) {
    const std::string kind = item.substr(0, item.find(' ')), name = item.substr(item.find(' ') + 1);
    if (kind == "d") {
      sum.add_hash(item, dataset_hash(h5, name));
    } else if (kind == "i") {
      const auto v = h5.read_int64(name);
      sum.add(item, std::as_bytes(std::span(v)));
    } else if (kind == "ad") {
      sum.add(item, bytes_of(h5.attribute_double("/", name)));
    } else if (kind == "ai") {
      sum.add(item, bytes_of(h5.attribute_int64("/", name)));
    } else if (kind == "as") {
      const std::string s = h5.attribute_string("/", name);
      sum.add(item, std::as_bytes(std::span(s.data(), s.size())));
    } else {
      throw Error("unknown checksum item \"" + item + "\"");
    }
  }
  return sum;
}

}  // namespace

std::uint64_t dataset_hash(const Hdf5Reader& h5, const std::string& name, std::size_t piece_values) {
  const std::vector<std::size_t> dims = h5.dims(name);
  BlockedFnv1a64 hash;
  std::size_t lead = 0, piece = 1;  // the leading dimensions, stepped one index at a time; a piece's values
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (piece * dims[d] > piece_values) {
      lead = d + 1;
      break;
    }
    piece *= dims[d];
  }
  if (lead == 0) {
    const auto v = h5.read_double(name);
    hash.add(std::as_bytes(std::span(v)));
    return hash.value();
  }
  std::vector<std::size_t> start(dims.size(), 0), count(dims);
  for (std::size_t d = 0; d < lead; ++d) count[d] = 1;
  while (true) {
    const auto v = h5.read_double_block(name, start, count);
    hash.add(std::as_bytes(std::span(v)));
    std::size_t d = lead;  // the next leading index, the last of them fastest
    while (d > 0 && ++start[d - 1] == dims[d - 1]) start[--d] = 0;
    if (d == 0) return hash.value();
  }
}

bool all_finite(std::span<const double> values) {
  const auto n = static_cast<std::int64_t>(values.size());
  bool finite = true;
#pragma omp parallel for schedule(static) reduction(&& : finite)
  for (std::int64_t i = 0; i < n; ++i) finite = finite && std::isfinite(values[std::size_t(i)]);
  return finite;
}

CheckpointWriter::CheckpointWriter(std::filesystem::path path, const std::string& format) : h5_(std::move(path)) {
  attribute("format", format);
}

void CheckpointWriter::add(const std::string& item, std::span<const std::byte> bytes) {
  LOOM_REQUIRE(item.find('\n') == std::string::npos, "CheckpointWriter: a name with a line break");
  sum_.add(item, bytes);
  items_ += item + "\n";
}

void CheckpointWriter::write(const std::string& name, std::span<const double> data,
                             const std::vector<std::size_t>& dims) {
  if (!all_finite(data))
    throw Error(fmt::format("checkpoint {}: {} holds non-finite values; not written, the previous checkpoint is kept",
                            h5_.path().string(), name));
  h5_.write(name, data, dims);
  add("d " + name, std::as_bytes(data));
}

void CheckpointWriter::write(const std::string& name, std::span<const std::int64_t> data,
                             const std::vector<std::size_t>& dims) {
  h5_.write(name, data, dims);
  add("i " + name, std::as_bytes(data));
}

void CheckpointWriter::attribute(const std::string& name, double value) {
  if (!std::isfinite(value))
    throw Error(fmt::format("checkpoint {}: {} = {} is not finite; not written, the previous checkpoint is kept",
                            h5_.path().string(), name, value));
  h5_.attribute("/", name, value);
  add("ad " + name, bytes_of(value));
}

void CheckpointWriter::attribute(const std::string& name, std::int64_t value) {
  h5_.attribute("/", name, value);
  add("ai " + name, bytes_of(value));
}

void CheckpointWriter::attribute(const std::string& name, const std::string& value) {
  h5_.attribute("/", name, value);
  add("as " + name, std::as_bytes(std::span(value.data(), value.size())));
}

void CheckpointWriter::commit() {
  h5_.attribute("/", "checksum_items", items_);
  h5_.attribute("/", "checksum", "fnv1a64-blocked " + sum_.hex());
  h5_.commit();
}

void read_checkpoint_file(const std::filesystem::path& path, const std::string& key, const std::string& format,
                          const std::string& writer, const std::function<void(const Hdf5Reader&)>& read) {
  auto refuse = [&](const std::string& why) {
    return UsageError(fmt::format("{} = \"{}\": {}", key, path.string(), why));
  };
  if (std::filesystem::is_directory(path)) throw refuse("a folder, not a file");
  if (!std::filesystem::is_regular_file(path)) throw refuse("no such file");
  const std::string other = "not a checkpoint of " + writer;
  std::string stage = other;
  try {
    const Hdf5Reader h5(path);
    if (!h5.has_attribute("/", "format") || h5.attribute_string("/", "format") != format) throw refuse(other);
    stage = "has no checksum (written by an older loom, or damaged)";
    const std::string stored = h5.attribute_string("/", "checksum");
    const std::string items = h5.attribute_string("/", "checksum_items");
    stage = "corrupted (its data cannot be read back)";
    const std::string computed = "fnv1a64-blocked " + recompute(h5, items).hex();
    if (computed != stored)
      throw refuse(fmt::format("corrupted: its checksum is \"{}\" but its data gives \"{}\"", stored, computed));
    stage = "cannot be read";
    read(h5);
  } catch (const UsageError& e) {
    if (std::string(e.what()).rfind(key + " = ", 0) == 0) throw;
    throw refuse(stage + " (" + e.what() + ")");
  } catch (const std::exception& e) {
    throw refuse(stage + " (" + e.what() + ")");
  }
}

}  // namespace loom::io
