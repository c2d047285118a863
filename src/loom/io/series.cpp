#include "loom/io/series.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"

namespace loom::io {

SeriesWriter::SeriesWriter(std::filesystem::path path, std::vector<std::string> columns, double flush_seconds)
    : path_(std::move(path)), columns_(std::move(columns)), flush_seconds_(flush_seconds),
      last_flush_(std::chrono::steady_clock::now()) {
  for (std::size_t i = 0; i < columns_.size(); ++i) text_ += (i ? "," : "") + columns_[i];
  text_ += "\n";
  flush();
}

SeriesWriter::~SeriesWriter() {
  try {
    flush();
  } catch (...) {
  }
}

void SeriesWriter::append(const std::vector<double>& row) {
  LOOM_REQUIRE(row.size() == columns_.size(),
               fmt::format("SeriesWriter: row of {} values for {} columns", row.size(), columns_.size()));
  for (std::size_t i = 0; i < row.size(); ++i) text_ += fmt::format("{}{}", i ? "," : "", row[i]);  // shortest text that reads back exactly
  text_ += "\n";
  ++rows_;
  dirty_ = true;
  const double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_flush_).count();
  if (since >= flush_seconds_) flush();
}

void SeriesWriter::flush() {
  if (!dirty_) return;
  write_file_atomically(path_, text_);
  dirty_ = false;
  last_flush_ = std::chrono::steady_clock::now();
}

}  // namespace loom::io
