// series.csv: one row per output step. The whole file is rewritten atomically when flushed (at most every
// `flush_seconds`, and on close), so a reader or a killed run always sees complete rows.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace loom::io {

class SeriesWriter {
 public:
  SeriesWriter(std::filesystem::path path, std::vector<std::string> columns, double flush_seconds = 2.0);
  ~SeriesWriter();  // flushes; errors are swallowed here, call close() to see them
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  void append(const std::vector<double>& row);  // one value per column
  void flush();
  void close() { flush(); }
  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return rows_; }

 private:
  std::filesystem::path path_;
  std::vector<std::string> columns_;
  std::string text_;
  std::size_t rows_ = 0;
  bool dirty_ = true;
  double flush_seconds_;
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace loom::io
