// The ParaView export (src/loom/dec/vtk_export.*): both legacy VTK files parse back (header, points, cells,
// types, data arrays of the right lengths) and describe the structure (one polygon per face of every cell, one
// line per dual edge, dual vertices at the circumcentres).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "io/temp_dir.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/vtk_export.hpp"

namespace loom::dec {
namespace {

struct LegacyVtk {
  std::vector<double> points;  // 3 per point
  std::vector<std::vector<long>> cells;
  std::vector<int> types;
  std::map<std::string, std::vector<double>> cell_data, point_data;
};

// A strict reader for the subset written: fails the test on anything unexpected.
LegacyVtk parse(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "# vtk DataFile Version 3.0");
  std::getline(in, line);  // title
  std::getline(in, line);
  EXPECT_EQ(line, "ASCII");
  std::getline(in, line);
  EXPECT_EQ(line, "DATASET UNSTRUCTURED_GRID");
  LegacyVtk v;
  std::string word;
  std::map<std::string, std::vector<double>>* data = nullptr;
  std::size_t expected_values = 0;
  while (in >> word) {
    if (word == "POINTS") {
      std::size_t n;
      std::string type;
      in >> n >> type;
      EXPECT_EQ(type, "double");
      v.points.resize(3 * n);
      for (auto& x : v.points) EXPECT_TRUE(static_cast<bool>(in >> x));
    } else if (word == "CELLS") {
      std::size_t n, entries, seen = 0;
      in >> n >> entries;
      v.cells.resize(n);
      for (auto& c : v.cells) {
        std::size_t k;
        in >> k;
        c.resize(k);
        for (auto& id : c) in >> id;
        seen += k + 1;
      }
      EXPECT_EQ(seen, entries);
    } else if (word == "CELL_TYPES") {
      std::size_t n;
      in >> n;
      v.types.resize(n);
      for (auto& t : v.types) in >> t;
    } else if (word == "CELL_DATA" || word == "POINT_DATA") {
      in >> expected_values;
      data = word == "CELL_DATA" ? &v.cell_data : &v.point_data;
    } else if (word == "SCALARS") {
      std::string name, type, lookup, table;
      int components;
      in >> name >> type >> components >> lookup >> table;
      EXPECT_EQ(components, 1);
      EXPECT_EQ(lookup, "LOOKUP_TABLE");
      EXPECT_NE(data, nullptr);
      if (data == nullptr) break;
      auto& values = (*data)[name];
      values.resize(expected_values);
      for (auto& x : values) EXPECT_TRUE(static_cast<bool>(in >> x)) << name;
    } else {
      ADD_FAILURE() << "unexpected keyword " << word;
      break;
    }
  }
  EXPECT_TRUE(in.eof());
  return v;
}

TEST(VtkExport, BothFilesParseAndDescribeTheStructure) {
  for (GridType grid : {GridType::cubic, GridType::fcc, GridType::c15}) {
    test::TempDir dir;
    const auto& s = replicable_structure(grid);
    const auto files = write_structure_vtk(dir / std::string(to_string(grid)), s);
    EXPECT_EQ(dir.files(), (std::vector<std::string>{std::string(to_string(grid)) + "_dual.vtk",
                                                     std::string(to_string(grid)) + "_primal.vtk"}));
    std::size_t faces = 0;
    for (const auto& c : s.cells) faces += c.faces.size();

    const LegacyVtk primal = parse(files.primal);
    const std::size_t points = primal.points.size() / 3;
    EXPECT_EQ(primal.cells.size(), faces);
    EXPECT_EQ(primal.types, std::vector<int>(faces, 7));  // VTK_POLYGON
    for (const auto& c : primal.cells) {
      EXPECT_GE(c.size(), 3u);
      for (long id : c) EXPECT_LT(static_cast<std::size_t>(id), points);
    }
    for (const char* name : {"cell", "volume", "face_area", "dual_edge"})
      EXPECT_EQ(primal.cell_data.at(name).size(), faces) << name;

    const LegacyVtk dual = parse(files.dual);
    EXPECT_EQ(dual.cells.size(), faces / 2);                // each dual edge once
    EXPECT_EQ(dual.types, std::vector<int>(faces / 2, 3));  // VTK_LINE
    const auto& image = dual.point_data.at("image");
    for (int i = 0; i < s.cell_count(); ++i) {
      EXPECT_EQ(image[static_cast<std::size_t>(i)], 0);
      const Vec3 c = s.cells[static_cast<std::size_t>(i)].circumcenter;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(dual.points[3 * static_cast<std::size_t>(i) + k], c[k], 1e-14);
    }
    // Each line's length is its dual edge.
    for (std::size_t e = 0; e < dual.cells.size(); ++e) {
      const auto& l = dual.cells[e];
      ASSERT_EQ(l.size(), 2u);
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d =
            dual.points[3 * static_cast<std::size_t>(l[1]) + k] - dual.points[3 * static_cast<std::size_t>(l[0]) + k];
        d2 += d * d;
      }
      EXPECT_NEAR(std::sqrt(d2), dual.cell_data.at("dual_edge")[e], 1e-12);
    }
  }
}

}  // namespace
}  // namespace loom::dec
