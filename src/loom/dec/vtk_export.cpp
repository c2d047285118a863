// Legacy VTK (DataFile Version 3.0) text: POINTS, CELLS, CELL_TYPES, then CELL_DATA / POINT_DATA scalars.
#include "loom/dec/vtk_export.hpp"

#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "loom/io/atomic_file.hpp"

namespace loom::dec {
namespace {

constexpr int vtk_line = 3, vtk_polygon = 7;

void write_points(std::ostringstream& out, const std::vector<Vec3>& points) {
  out << "POINTS " << points.size() << " double\n";
  for (const auto& p : points) out << p.x << ' ' << p.y << ' ' << p.z << '\n';
}

void write_cells(std::ostringstream& out, const std::vector<std::vector<int>>& cells, int type) {
  std::size_t entries = 0;
  for (const auto& c : cells) entries += c.size() + 1;
  out << "CELLS " << cells.size() << ' ' << entries << '\n';
  for (const auto& c : cells) {
    out << c.size();
    for (int v : c) out << ' ' << v;
    out << '\n';
  }
  out << "CELL_TYPES " << cells.size() << '\n';
  for (std::size_t i = 0; i < cells.size(); ++i) out << type << '\n';
}

template <class T>
void write_scalars(std::ostringstream& out, const std::string& name, const char* type, const std::vector<T>& v) {
  out << "SCALARS " << name << ' ' << type << " 1\nLOOKUP_TABLE default\n";
  for (const auto& x : v) out << x << '\n';
}

// The header, points and cells of one unstructured grid, up to the CELL_DATA line; the caller adds the scalars.
void write_grid(std::ostringstream& out, const ReplicableStructure& s, const char* what,
                const std::vector<Vec3>& points, const std::vector<std::vector<int>>& cells, int type) {
  out << "# vtk DataFile Version 3.0\nloom " << display_name(s.grid) << " replicable structure: " << what << " (scale "
      << s.scale << ")\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  out.precision(17);  // the coordinates and scalars in full
  write_points(out, points);
  write_cells(out, cells, type);
  out << "CELL_DATA " << cells.size() << '\n';
}

}  // namespace

VtkFiles write_structure_vtk(const std::filesystem::path& stem, const ReplicableStructure& structure) {
  VtkFiles files{stem.string() + "_primal.vtk", stem.string() + "_dual.vtk"};

  // Primal: every face of every cell as a polygon (shared faces appear once per cell).
  {
    std::vector<Vec3> points;
    std::vector<std::vector<int>> polygons;
    std::vector<int> cell_id;
    std::vector<double> volume, area, edge;
    for (int i = 0; i < structure.cell_count(); ++i) {
      const PrimalCell& c = structure.cells[static_cast<std::size_t>(i)];
      for (const auto& f : c.faces) {
        std::vector<int> ids;
        for (const auto& p : f.polygon) {
          ids.push_back(static_cast<int>(points.size()));
          points.push_back(p);
        }
        polygons.push_back(std::move(ids));
        cell_id.push_back(i);
        volume.push_back(c.volume);
        area.push_back(f.area);
        edge.push_back(f.dual_length);
      }
    }
    std::ostringstream out;
    write_grid(out, structure, "primal 3-cells as boundary polygons", points, polygons, vtk_polygon);
    write_scalars(out, "cell", "int", cell_id);
    write_scalars(out, "volume", "double", volume);
    write_scalars(out, "face_area", "double", area);
    write_scalars(out, "dual_edge", "double", edge);
    io::write_file_atomically(files.primal, out.str());
  }

  // Dual graph: each dual edge once; a neighbour in another structure instance becomes an image point.
  {
    std::vector<Vec3> points;
    std::vector<int> point_cell, image;
    std::vector<double> point_volume;
    for (int i = 0; i < structure.cell_count(); ++i) {
      points.push_back(structure.cells[static_cast<std::size_t>(i)].circumcenter);
      point_cell.push_back(i);
      image.push_back(0);
      point_volume.push_back(structure.cells[static_cast<std::size_t>(i)].volume);
    }
    std::map<std::tuple<int, int, int, int>, int> images;
    std::vector<std::vector<int>> lines;
    std::vector<double> weight, edge, area;
    for (int i = 0; i < structure.cell_count(); ++i)
      for (const auto& f : structure.cells[static_cast<std::size_t>(i)].faces) {
        const auto& o = f.offset;
        const bool zero = o[0] == 0 && o[1] == 0 && o[2] == 0;
        // Write the edge from one side only: the lower index, or for a cell meeting itself, the positive offset.
        if (f.neighbour < i || (f.neighbour == i && !(o > std::array<int, 3>{0, 0, 0}))) continue;
        int j = f.neighbour;
        if (!zero) {
          const auto key = std::make_tuple(f.neighbour, o[0], o[1], o[2]);
          auto it = images.find(key);
          if (it == images.end()) {
            const PrimalCell& n = structure.cells[static_cast<std::size_t>(f.neighbour)];
            it = images.emplace(key, static_cast<int>(points.size())).first;
            points.push_back(n.circumcenter + hadamard(Vec3{double(o[0]), double(o[1]), double(o[2])}, structure.size));
            point_cell.push_back(f.neighbour);
            image.push_back(1);
            point_volume.push_back(n.volume);
          }
          j = it->second;
        }
        lines.push_back({i, j});
        weight.push_back(f.weight());
        edge.push_back(f.dual_length);
        area.push_back(f.area);
      }
    std::ostringstream out;
    write_grid(out, structure, "dual graph (circumcentres and dual edges)", points, lines, vtk_line);
    write_scalars(out, "weight", "double", weight);
    write_scalars(out, "dual_edge", "double", edge);
    write_scalars(out, "face_area", "double", area);
    out << "POINT_DATA " << points.size() << '\n';
    write_scalars(out, "cell", "int", point_cell);
    write_scalars(out, "volume", "double", point_volume);
    write_scalars(out, "image", "int", image);
    io::write_file_atomically(files.dual, out.str());
  }
  return files;
}

}  // namespace loom::dec
