#include "loom/io/fields.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::io {
namespace {

std::string xdmf_document(const std::string& body) {
  return "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n  <Domain>\n" + body +
         "  </Domain>\n</Xdmf>\n";
}

void check_fields(const std::vector<FieldView>& fields, std::size_t points) {
  for (const auto& f : fields) {
    LOOM_REQUIRE(f.components == 1 || f.components == 3, "field " + f.name + ": 1 or 3 components");
    LOOM_REQUIRE(f.values.size() == points * std::size_t(f.components),
                 fmt::format("field {}: {} values for {} points x {} components", f.name, f.values.size(), points,
                             f.components));
  }
}

std::vector<FieldShape> shapes_of(const std::vector<FieldView>& fields) {
  std::vector<FieldShape> out;
  for (const auto& f : fields) out.push_back({f.name, f.components});
  return out;
}

// <Attribute> elements; `dims_text` is the point dimensions as XDMF writes them (slowest first).
std::string attributes_xml(const std::vector<FieldShape>& fields, const std::string& h5_name,
                           const std::string& dims_text, const std::string& group = "fields") {
  std::string out;
  for (const auto& f : fields) {
    const std::string dims = f.components == 1 ? dims_text : dims_text + " 3";
    out += fmt::format(
        "      <Attribute Name=\"{}\" AttributeType=\"{}\" Center=\"Node\">\n"
        "        <DataItem Dimensions=\"{}\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">{}:/{}/{}"
        "</DataItem>\n      </Attribute>\n",
        f.name, f.components == 1 ? "Scalar" : "Vector", dims, h5_name, group, f.name);
  }
  return out;
}

void write_field_datasets(Hdf5Writer& h5, const std::vector<FieldView>& fields, std::vector<std::size_t> dims,
                          double time, const std::string& group = "fields") {
  for (const auto& f : fields) {
    auto d = dims;
    if (f.components == 3) d.push_back(3);
    h5.write(group + "/" + f.name, f.values, d);
  }
  h5.attribute("/", "time", time);
}

}  // namespace

std::filesystem::path xdmf_sidecar(const std::filesystem::path& h5_path) {
  auto p = h5_path;
  return p.replace_extension(".xdmf");
}

namespace {

// The file (the datasets made first when `create`, for `fill` to write in blocks) and its XDMF sidecar.
std::string write_structured(const std::filesystem::path& h5_path, const StructuredGrid& grid,
                             const std::vector<FieldShape>& fields, double time, bool create,
                             const std::function<void(Hdf5Writer&)>& fill) {
  const auto [nx, ny, nz] = grid.points;
  {
    Hdf5Writer h5(h5_path);
    for (const auto& f : fields) {
      std::vector<std::size_t> d{nz, ny, nx};
      if (f.components == 3) d.push_back(3);
      if (create) h5.create_double("fields/" + f.name, d);
    }
    fill(h5);
    h5.attribute("/", "time", time);
    const std::vector<double> origin{grid.origin[0], grid.origin[1], grid.origin[2]};
    const std::vector<double> spacing{grid.spacing[0], grid.spacing[1], grid.spacing[2]};
    h5.write("grid/origin", origin, {3});
    h5.write("grid/spacing", spacing, {3});
    h5.commit();
  }
  const std::string h5_name = h5_path.filename().string();
  const std::string dims = fmt::format("{} {} {}", nz, ny, nx);
  // XDMF orders ORIGIN_DXDYDZ as z, y, x, like the topology dimensions.
  const std::string xml = fmt::format(
      "    <Grid Name=\"fields\" GridType=\"Uniform\">\n      <Time Value=\"{}\" />\n"
      "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"{}\" />\n"
      "      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
      "        <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">{} {} {}"
      "</DataItem>\n"
      "        <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">{} {} {}"
      "</DataItem>\n      </Geometry>\n{}    </Grid>\n",
      time, dims, grid.origin[2], grid.origin[1], grid.origin[0], grid.spacing[2], grid.spacing[1], grid.spacing[0],
      attributes_xml(fields, h5_name, dims));
  write_file_atomically(xdmf_sidecar(h5_path), xdmf_document(xml));
  return xml;
}

}  // namespace

std::string write_structured_fields(const std::filesystem::path& h5_path, const StructuredGrid& grid,
                                    const std::vector<FieldView>& fields, double time) {
  check_fields(fields, grid.count());
  const auto [nx, ny, nz] = grid.points;
  return write_structured(h5_path, grid, shapes_of(fields), time, false, [&](Hdf5Writer& h5) {
    write_field_datasets(h5, fields, {nz, ny, nx}, time);
  });
}

std::string write_structured_fields_in_blocks(const std::filesystem::path& h5_path, const StructuredGrid& grid,
                                              const std::vector<FieldShape>& fields, double time,
                                              const std::function<void(Hdf5Writer&)>& fill) {
  return write_structured(h5_path, grid, fields, time, true, fill);
}

std::string write_point_fields(const std::filesystem::path& h5_path, std::span<const double> positions,
                               const std::vector<FieldView>& fields, double time) {
  LOOM_REQUIRE(positions.size() % 3 == 0, "write_point_fields: positions must hold x, y, z per point");
  const std::size_t n = positions.size() / 3;
  check_fields(fields, n);
  {
    Hdf5Writer h5(h5_path);
    h5.write("points", positions, {n, 3});
    write_field_datasets(h5, fields, {n}, time);
    h5.commit();
  }
  const std::string h5_name = h5_path.filename().string();
  const std::string xml = fmt::format(
      "    <Grid Name=\"points\" GridType=\"Uniform\">\n      <Time Value=\"{}\" />\n"
      "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"{}\" NodesPerElement=\"1\" />\n"
      "      <Geometry GeometryType=\"XYZ\">\n"
      "        <DataItem Dimensions=\"{} 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">{}:/points</DataItem>\n"
      "      </Geometry>\n{}    </Grid>\n",
      time, n, n, h5_name, attributes_xml(shapes_of(fields), h5_name, std::to_string(n)));
  write_file_atomically(xdmf_sidecar(h5_path), xdmf_document(xml));
  return xml;
}

std::string write_curvilinear_fields(const std::filesystem::path& h5_path, const std::vector<CurvilinearBlock>& blocks,
                                     double time) {
  for (const auto& b : blocks) {
    LOOM_REQUIRE(b.positions.size() == 3 * b.count(), "write_curvilinear_fields: block " + b.name +
                                                          ": positions must hold x, y, z per point");
    check_fields(b.fields, b.count());
  }
  {
    Hdf5Writer h5(h5_path);
    for (const auto& b : blocks) {
      const auto [n0, n1, n2] = b.points;
      h5.write(b.name + "/points", b.positions, {n2, n1, n0, 3});
      write_field_datasets(h5, b.fields, {n2, n1, n0}, time, b.name + "/fields");
    }
    h5.commit();
  }
  const std::string h5_name = h5_path.filename().string();
  std::string xml = fmt::format(
      "    <Grid Name=\"blocks\" GridType=\"Collection\" CollectionType=\"Spatial\">\n      <Time Value=\"{}\" />\n",
      time);
  for (const auto& b : blocks) {
    // XDMF lists the dimensions slowest first.
    const std::string dims = fmt::format("{} {} {}", b.points[2], b.points[1], b.points[0]);
    xml += fmt::format(
        "    <Grid Name=\"{}\" GridType=\"Uniform\">\n"
        "      <Topology TopologyType=\"3DSMesh\" Dimensions=\"{}\" />\n"
        "      <Geometry GeometryType=\"XYZ\">\n"
        "        <DataItem Dimensions=\"{} 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">{}:/{}/points"
        "</DataItem>\n      </Geometry>\n{}    </Grid>\n",
        b.name, dims, dims, h5_name, b.name, attributes_xml(shapes_of(b.fields), h5_name, dims, b.name + "/fields"));
  }
  xml += "    </Grid>\n";
  write_file_atomically(xdmf_sidecar(h5_path), xdmf_document(xml));
  return xml;
}

void FieldSeries::add(const std::string& grid_xml) {
  grids_.push_back(grid_xml);
  std::string body = "    <Grid Name=\"series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& g : grids_) {
    // indent the snapshot's grid one level deeper
    std::string indented;
    std::size_t start = 0;
    while (start < g.size()) {
      const std::size_t end = g.find('\n', start);
      indented += "  " + g.substr(start, end - start + 1);
      if (end == std::string::npos) break;
      start = end + 1;
    }
    body += indented;
  }
  body += "    </Grid>\n";
  write_file_atomically(path_, xdmf_document(body));
}

}  // namespace loom::io
