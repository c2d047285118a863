// loom.lattice and loom.lattice_dispersion: a DEC grid's replicable structure (dec::structure_facts, what
// `loom lattice --json` prints, plus its cells and dual graph as arrays) and the Bloch dispersion of its Laplacian
// (dec::measure_dispersion, what `loom lattice dispersion` runs).
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "loom/core/error.hpp"
#include "loom/dec/dispersion.hpp"
#include "loom/dec/grid_key.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/structure_facts.hpp"
#include "loom/io/parameters.hpp"
#include "numpy_arrays.hpp"

namespace loom::python {
namespace {

py::object from_json(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

// The dual graph, one row per face of every cell: the cell, its neighbour across the face (local index and
// structure offset), |F|, the signed dual edge |E*| and F's unit normal.
void add_faces(py::dict& d, const dec::ReplicableStructure& s) {
  std::vector<std::int32_t> cell, neighbour, offset;
  std::vector<double> area, dual_length;
  std::vector<dec::Vec3> normal;
  for (int i = 0; i < s.cell_count(); ++i)
    for (const auto& f : s.cells[std::size_t(i)].faces) {
      cell.push_back(i);
      neighbour.push_back(f.neighbour);
      offset.insert(offset.end(), f.offset.begin(), f.offset.end());
      area.push_back(f.area);
      dual_length.push_back(f.dual_length);
      normal.push_back(f.normal);
    }
  d["face_cell"] = py::array_t<std::int32_t>(py::ssize_t(cell.size()), cell.data());
  d["face_neighbour"] = py::array_t<std::int32_t>(py::ssize_t(neighbour.size()), neighbour.data());
  d["face_offset"] = py::array_t<std::int32_t>({py::ssize_t(cell.size()), py::ssize_t{3}}, offset.data());
  d["face_area"] = to_numpy(std::move(area));
  d["face_dual_length"] = to_numpy(std::move(dual_length));
  d["face_normal"] = vectors_to_numpy(std::move(normal));
}

py::dict lattice(const std::string& type) {
  const auto& s = dec::replicable_structure(dec::parse_grid_type(type, "type"));
  auto d = from_json(dec::structure_facts(s)).cast<py::dict>();
  std::vector<dec::Vec3> centres;
  std::vector<double> volumes, radii;
  for (const auto& c : s.cells) {
    centres.push_back(c.circumcenter);
    volumes.push_back(c.volume);
    radii.push_back(c.circumradius);
  }
  d["circumcenters"] = vectors_to_numpy(std::move(centres));
  d["cell_volumes"] = to_numpy(std::move(volumes));
  d["circumradii"] = to_numpy(std::move(radii));
  d["primal_vertex_positions"] = vectors_to_numpy(std::vector<dec::Vec3>(s.primal_vertices));
  add_faces(d, s);
  return d;
}

py::dict dispersion(const std::string& type, double k_edge, int directions) {
  const auto grid = dec::parse_grid_type(type, "type");
  // The bounds `loom lattice dispersion` declares for dispersion.k_edge and dispersion.directions.
  if (!(k_edge > 0)) throw UsageError(io::invalid_value_message("k_edge", k_edge, "a number > 0"));
  if (directions < 2)
    throw UsageError(io::invalid_value_message("directions", std::int64_t{directions}, "an integer >= 2"));
  dec::DispersionReport r;
  {
    py::gil_scoped_release unlocked;
    r = dec::measure_dispersion(dec::replicable_structure(grid), k_edge, directions);
  }
  std::vector<dec::Vec3> direction;
  std::vector<double> eigenvalue, ratio;
  for (const auto& s : r.samples) {
    direction.push_back(s.direction);
    eigenvalue.push_back(s.eigenvalue);
    ratio.push_back(s.ratio);
  }
  py::dict d;
  d["grid"] = std::string(dec::to_string(grid));
  d["k_edge"] = r.k_edge, d["k"] = r.k, d["mean_dual_edge"] = r.mean_dual_edge;
  d["ratio_min"] = r.ratio_min, d["ratio_max"] = r.ratio_max, d["ratio_mean"] = r.ratio_mean;
  d["anisotropy"] = r.anisotropy();
  d["directions"] = vectors_to_numpy(std::move(direction));
  d["eigenvalue"] = to_numpy(std::move(eigenvalue));
  d["ratio"] = to_numpy(std::move(ratio));
  return d;
}

}  // namespace

void bind_lattice(py::module_& m) {
  m.def("lattice", &lattice, py::arg("type") = "bcc",
        R"(A DEC grid's replicable structure (the DEC-GPE paper's section 2), as `loom lattice --json` reports it.

type: one of "cubic", "fcc", "bcc", "a15", "c15", "z".
Returns a dict: the facts of `loom lattice --json` (counts, volumes, dual edges, the stability step of eq. 11,
equal-work scales) and, as arrays at unit scale, the m_s cells (circumcenters (m, 3), cell_volumes, circumradii),
the crystal's points (primal_vertex_positions) and the dual graph, one row per face of every cell: face_cell,
face_neighbour, face_offset (structure offset of the neighbour, (F, 3)), face_area |F|, face_dual_length |E*|,
face_normal (F, 3).)");
  m.def("lattice_dispersion", &dispersion, py::arg("type") = "bcc", py::arg("k_edge") = 0.5,
        py::arg("directions") = 400,
        R"(Bloch dispersion of a DEC grid's Laplacian, as `loom lattice dispersion` measures it.

At |k| = k_edge / (mean dual edge), for `directions` directions of k spread over the sphere: the acoustic eigenvalue
of the Bloch matrix and its ratio to the exact -|k|^2 (1 is exact). Returns a dict with k, mean_dual_edge,
ratio_min, ratio_max, ratio_mean, anisotropy (max - min of the ratio) and the arrays directions (D, 3),
eigenvalue (D,), ratio (D,). The GIL is released while it computes.)");
}

}  // namespace loom::python
