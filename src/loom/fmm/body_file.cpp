// CSV bodies and results: strict parsing (every field a finite number, exactly four per row), messages with
// line numbers, blank lines ignored, CRLF and a leading UTF-8 byte order mark accepted.
#include "loom/fmm/body_file.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"

namespace loom::fmm {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

std::string shown(std::string_view line) {
  line = trim(line);
  return "\"" + std::string(line.substr(0, 80)) + (line.size() > 80 ? "...\"" : "\"");
}

}  // namespace

ChargedBodies parse_bodies_csv(std::string_view text, const std::string& name) {
  ChargedBodies b;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark (spreadsheets write one)
  std::size_t line_no = 0, pos = 0;
  bool header_seen = false;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_no;
    if (trim(line).empty()) continue;
    const auto fields = split(line);
    const std::string where = name + ":" + std::to_string(line_no) + ": ";
    if (!header_seen) {
      if (fields.size() != 4 || fields[0] != "x" || fields[1] != "y" || fields[2] != "z" || fields[3] != "q")
        throw UsageError(where + "expected the header row x,y,z,q, found " + shown(line));
      header_seen = true;
      continue;
    }
    if (fields.size() != 4)
      throw UsageError(where + "expected 4 numbers x,y,z,q, found " + std::to_string(fields.size()) + " fields " +
                       shown(line));
    double v[4];
    for (int k = 0; k < 4; ++k) {
      const std::string_view f = fields[static_cast<std::size_t>(k)];
      const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v[k]);
      if (f.empty() || ec != std::errc{} || ptr != f.data() + f.size() || !std::isfinite(v[k]))
        throw UsageError(where + "column " + "xyzq"[k] + " is not a finite number: " + shown(f));
    }
    b.positions.push_back({v[0], v[1], v[2]});
    b.charges.push_back(v[3]);
  }
  if (!header_seen) throw UsageError(name + ": empty file (expected the header row x,y,z,q)");
  if (b.positions.empty()) throw UsageError(name + ": no bodies after the header row");
  return b;
}

ChargedBodies read_bodies_csv(const std::filesystem::path& path) {
  // A folder opens as a stream on Linux and reads as empty: say what it is.
  if (std::filesystem::is_directory(path)) throw UsageError("input = \"" + path.string() + "\": a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("input = \"" + path.string() + "\": cannot open the file");
  std::stringstream s;
  s << in.rdbuf();
  return parse_bodies_csv(s.str(), path.string());
}

namespace {

// A CSV of `header` and one row of `columns` numbers per body, row(i, put) putting them.
template <class Row>
void write_rows_csv(const std::filesystem::path& path, const char* header, std::size_t rows, int columns,
                    const Row& row) {
  std::string out = std::string(header) + "\n";
  out.reserve(out.size() + rows * 24 * static_cast<std::size_t>(columns));
  char buffer[32];
  int column = 0;
  auto put = [&](double v) {
    const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, ptr);
    out.push_back(++column % columns == 0 ? '\n' : ',');
  };
  for (std::size_t i = 0; i < rows; ++i) row(i, put);
  io::write_file_atomically(path, out);
}

}  // namespace

void write_laplace_csv(const std::filesystem::path& path, std::span<const double> potential,
                       std::span<const Vec3d> gradient) {
  LOOM_REQUIRE(potential.size() == gradient.size(), "write_laplace_csv: sizes differ");
  write_rows_csv(path, "potential,grad_x,grad_y,grad_z", potential.size(), 4, [&](std::size_t i, auto& put) {
    put(potential[i]);
    for (double v : {gradient[i].x, gradient[i].y, gradient[i].z}) put(v);
  });
}

void write_biot_savart_csv(const std::filesystem::path& path, std::span<const Vec3d> velocity,
                           std::span<const Vec3d> stretching) {
  LOOM_REQUIRE(velocity.size() == stretching.size(), "write_biot_savart_csv: sizes differ");
  write_rows_csv(path, "u_x,u_y,u_z,s_x,s_y,s_z", velocity.size(), 6, [&](std::size_t i, auto& put) {
    for (const Vec3d& v : {velocity[i], stretching[i]})
      for (double c : {v.x, v.y, v.z}) put(c);
  });
}

}  // namespace loom::fmm
