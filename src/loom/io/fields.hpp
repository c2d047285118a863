// Field snapshots for ParaView: an HDF5 file of named fields plus an XDMF sidecar (.xdmf) describing the
// mesh, on a structured grid (uniform spacing, x fastest in memory) or on a point set (e.g. the dual vertices
// of a DEC lattice, or vortex particles). FieldSeries keeps a temporal collection (one .xdmf for all steps).
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace loom::io {

class Hdf5Writer;

struct FieldView {
  std::string name;
  std::span<const double> values;  // point-major: components values per point
  int components = 1;              // 1 (scalar) or 3 (vector)
};

struct StructuredGrid {
  std::array<std::size_t, 3> points{};  // nx, ny, nz; x varies fastest in memory
  std::array<double, 3> origin{};
  std::array<double, 3> spacing{1, 1, 1};
  std::size_t count() const { return points[0] * points[1] * points[2]; }
};

// Writes `<path>` (HDF5) and `<path minus .h5>.xdmf`; returns the XDMF <Grid> element for collections.
std::string write_structured_fields(const std::filesystem::path& h5_path, const StructuredGrid& grid,
                                    const std::vector<FieldView>& fields, double time);
// The same files with the fields' values written in blocks (fields larger than one process holds, written as they
// arrive): the datasets fields/<name> of shape (nz, ny, nx[, 3]) are made, then `fill` writes their values through
// Hdf5Writer::write_block.
struct FieldShape {
  std::string name;
  int components = 1;  // 1 or 3
};
std::string write_structured_fields_in_blocks(const std::filesystem::path& h5_path, const StructuredGrid& grid,
                                              const std::vector<FieldShape>& fields, double time,
                                              const std::function<void(Hdf5Writer&)>& fill);
// positions: 3 per point (x, y, z).
std::string write_point_fields(const std::filesystem::path& h5_path, std::span<const double> positions,
                               const std::vector<FieldView>& fields, double time);

// A block of a curvilinear mesh (XDMF 3DSMesh): logical extents points[0..2], points[0] fastest in memory, and
// the Cartesian position of every point (x, y, z per point), e.g. one spherical shell.
struct CurvilinearBlock {
  std::string name;  // the block's group in the HDF5 file and its grid's name
  std::array<std::size_t, 3> points{};
  std::span<const double> positions;
  std::vector<FieldView> fields;
  std::size_t count() const { return points[0] * points[1] * points[2]; }
};

// Writes every block into `<path>` (group /<name>: points, fields/<field>) and the XDMF sidecar of one spatial
// collection of them; returns its <Grid> element for collections.
std::string write_curvilinear_fields(const std::filesystem::path& h5_path, const std::vector<CurvilinearBlock>& blocks,
                                     double time);

// A temporal collection: add() each snapshot's <Grid> (as returned above); the collection file is rewritten
// atomically after each add, so ParaView can open it during a run.
class FieldSeries {
 public:
  explicit FieldSeries(std::filesystem::path xdmf_path) : path_(std::move(xdmf_path)) {}
  void add(const std::string& grid_xml);
  std::size_t size() const { return grids_.size(); }

 private:
  std::filesystem::path path_;
  std::vector<std::string> grids_;
};

std::filesystem::path xdmf_sidecar(const std::filesystem::path& h5_path);

}  // namespace loom::io
