// HDF5 round trips and XDMF sidecars: what is written reads back bit for bit, the XDMF describes the same
// shapes, and no temporary file is left behind (or a final one half-written).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "io/temp_dir.hpp"
#include "loom/core/error.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::io {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Hdf5, RoundTripOfDatasetsAndAttributes) {
  test::TempDir dir;
  std::vector<double> d(2 * 3 * 4);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = std::sqrt(double(i)) - 1.0 / 3.0;
  const std::vector<float> f{1.5f, -2.25f};
  const std::vector<std::int64_t> n{1, -2, std::int64_t(1) << 40};
  const std::vector<std::int32_t> m{7, 8, 9, 10};
  {
    Hdf5Writer w(dir / "a.h5");
    w.write("values", d, {2, 3, 4});
    w.write("group/sub/floats", f, {2});
    w.write("ints64", n, {3});
    w.write("ints32", m, {2, 2});
    w.attribute("/", "time", 1.25);
    w.attribute("/", "steps", std::int64_t{42});
    w.attribute("/group", "grid", std::string("bcc"));
    w.commit();
  }
  EXPECT_EQ(dir.files(), std::vector<std::string>{"a.h5"});
  Hdf5Reader r(dir / "a.h5");
  EXPECT_EQ(r.dims("values"), (std::vector<std::size_t>{2, 3, 4}));
  EXPECT_EQ(r.read_double("values"), d);
  EXPECT_EQ(r.read_float("group/sub/floats"), f);
  EXPECT_EQ(r.read_int64("ints64"), n);
  EXPECT_EQ(r.read_int32("ints32"), m);
  EXPECT_EQ(r.attribute_double("/", "time"), 1.25);
  EXPECT_EQ(r.attribute_int64("/", "steps"), 42);
  EXPECT_EQ(r.attribute_string("/group", "grid"), "bcc");
  EXPECT_TRUE(r.has("group/sub/floats"));
  EXPECT_FALSE(r.has("group/missing/x"));
}

TEST(Hdf5, UncommittedWriterLeavesNothing) {
  test::TempDir dir;
  {
    Hdf5Writer w(dir / "b.h5");
    const std::vector<double> d{1, 2, 3};
    w.write("x", d, {3});
  }  // destroyed without commit, as when a run dies mid-write
  EXPECT_TRUE(dir.files().empty());
}

TEST(Hdf5, ShapeMismatchIsAnError) {
  test::TempDir dir;
  Hdf5Writer w(dir / "c.h5");
  const std::vector<double> d{1, 2, 3};
  EXPECT_THROW(w.write("x", d, {2, 2}), Error);
}

TEST(Hdf5, MissingOrForeignFileIsAUsageError) {
  test::TempDir dir;
  EXPECT_THROW(Hdf5Reader(dir / "none.h5"), UsageError);
  std::ofstream(dir / "text.h5") << "not hdf5";
  EXPECT_THROW(Hdf5Reader(dir / "text.h5"), UsageError);
}

TEST(Fields, StructuredGridWithXdmf) {
  test::TempDir dir;
  StructuredGrid g;
  g.points = {4, 3, 2};
  g.origin = {-1, -2, -3};
  g.spacing = {0.5, 0.25, 0.125};
  std::vector<double> rho(g.count()), velocity(3 * g.count());
  for (std::size_t i = 0; i < g.count(); ++i) {
    rho[i] = double(i);
    for (int c = 0; c < 3; ++c) velocity[3 * i + c] = 10.0 * double(i) + c;
  }
  const std::string grid_xml =
      write_structured_fields(dir / "snap_000001.h5", g, {{"rho", rho, 1}, {"velocity", velocity, 3}}, 0.75);
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"snap_000001.h5", "snap_000001.xdmf"}));
  Hdf5Reader r(dir / "snap_000001.h5");
  EXPECT_EQ(r.dims("fields/rho"), (std::vector<std::size_t>{2, 3, 4}));  // z, y, x
  EXPECT_EQ(r.dims("fields/velocity"), (std::vector<std::size_t>{2, 3, 4, 3}));
  EXPECT_EQ(r.read_double("fields/velocity"), velocity);
  EXPECT_EQ(r.attribute_double("/", "time"), 0.75);
  const std::string xdmf = read_text(dir / "snap_000001.xdmf");
  EXPECT_NE(xdmf.find("TopologyType=\"3DCoRectMesh\" Dimensions=\"2 3 4\""), std::string::npos) << xdmf;
  EXPECT_NE(xdmf.find(">-3 -2 -1</DataItem>"), std::string::npos) << xdmf;           // origin z y x
  EXPECT_NE(xdmf.find(">0.125 0.25 0.5</DataItem>"), std::string::npos) << xdmf;     // spacing z y x
  EXPECT_NE(xdmf.find("Dimensions=\"2 3 4 3\""), std::string::npos) << xdmf;
  EXPECT_NE(xdmf.find("snap_000001.h5:/fields/rho"), std::string::npos) << xdmf;
  EXPECT_NE(grid_xml.find("<Time Value=\"0.75\" />"), std::string::npos);
}

TEST(Fields, PointSetAndTemporalCollection) {
  test::TempDir dir;
  const std::vector<double> xyz{0, 0, 0, 1, 0, 0, 0, 1, 0};
  FieldSeries series(dir / "psi.xdmf");
  for (int step = 0; step < 3; ++step) {
    const std::vector<double> density{1.0 * step, 2.0, 3.0};
    const std::string name = "psi_" + std::to_string(step) + ".h5";
    series.add(write_point_fields(dir / name, xyz, {{"density", density, 1}}, 0.1 * step));
  }
  EXPECT_EQ(series.size(), 3u);
  Hdf5Reader r(dir / "psi_2.h5");
  EXPECT_EQ(r.read_double("points"), xyz);
  EXPECT_EQ(r.read_double("fields/density"), (std::vector<double>{2.0, 2.0, 3.0}));
  const std::string xdmf = read_text(dir / "psi.xdmf");
  EXPECT_NE(xdmf.find("CollectionType=\"Temporal\""), std::string::npos);
  EXPECT_NE(xdmf.find("psi_0.h5:/points"), std::string::npos);
  EXPECT_NE(xdmf.find("psi_2.h5:/fields/density"), std::string::npos);
  EXPECT_NE(xdmf.find("TopologyType=\"Polyvertex\" NumberOfElements=\"3\""), std::string::npos);
  // Every element opened is closed: as many <Grid as </Grid>.
  std::size_t open = 0, close = 0;
  for (std::size_t p = 0; (p = xdmf.find("<Grid", p)) != std::string::npos; ++p) ++open;
  for (std::size_t p = 0; (p = xdmf.find("</Grid>", p)) != std::string::npos; ++p) ++close;
  EXPECT_EQ(open, 4u);
  EXPECT_EQ(close, 4u);
}

// Two blocks of a curvilinear mesh (as `loom bh` writes its shells): every block's positions and fields read back
// under its group in slowest-first order, and the XDMF holds one spatial collection of two 3DSMesh grids.
TEST(Fields, CurvilinearBlocksInOneSpatialCollection) {
  test::TempDir dir;
  std::vector<std::vector<double>> xyz(2), c(2);
  std::vector<CurvilinearBlock> blocks;
  for (int b = 0; b < 2; ++b) {
    for (int p = 0; p < 2 * 3 * 4; ++p) {
      c[b].push_back(100.0 * b + p);
      for (int i = 0; i < 3; ++i) xyz[b].push_back(1.0 + b + 0.01 * p + i);
    }
    blocks.push_back({"shell_" + std::to_string(b), {2, 3, 4}, xyz[b], {{"constraint", c[b], 1}}});
  }
  FieldSeries series(dir / "fields.xdmf");
  series.add(write_curvilinear_fields(dir / "fields_0000.h5", blocks, 1.5));
  Hdf5Reader r(dir / "fields_0000.h5");
  EXPECT_EQ(r.dims("shell_1/points"), (std::vector<std::size_t>{4, 3, 2, 3}));
  EXPECT_EQ(r.read_double("shell_1/points"), xyz[1]);
  EXPECT_EQ(r.read_double("shell_0/fields/constraint"), c[0]);
  EXPECT_EQ(r.dims("shell_0/fields/constraint"), (std::vector<std::size_t>{4, 3, 2}));
  for (const auto& path : {dir / "fields_0000.xdmf", dir / "fields.xdmf"}) {
    const std::string xdmf = read_text(path);
    EXPECT_NE(xdmf.find("CollectionType=\"Spatial\""), std::string::npos) << xdmf;
    EXPECT_NE(xdmf.find("TopologyType=\"3DSMesh\" Dimensions=\"4 3 2\""), std::string::npos) << xdmf;
    EXPECT_NE(xdmf.find("Dimensions=\"4 3 2 3\""), std::string::npos) << xdmf;
    EXPECT_NE(xdmf.find("fields_0000.h5:/shell_1/points"), std::string::npos) << xdmf;
    EXPECT_NE(xdmf.find("fields_0000.h5:/shell_1/fields/constraint"), std::string::npos) << xdmf;
    std::size_t open = 0, close = 0;
    for (std::size_t p = 0; (p = xdmf.find("<Grid", p)) != std::string::npos; ++p) ++open;
    for (std::size_t p = 0; (p = xdmf.find("</Grid>", p)) != std::string::npos; ++p) ++close;
    EXPECT_EQ(open, close);
    EXPECT_EQ(open, path.filename() == "fields.xdmf" ? 4u : 3u);
  }
}

TEST(Fields, WrongFieldLengthIsAnError) {
  test::TempDir dir;
  StructuredGrid g;
  g.points = {2, 2, 2};
  const std::vector<double> short_field(7);
  EXPECT_THROW(write_structured_fields(dir / "x.h5", g, {{"f", short_field, 1}}, 0), Error);
}

}  // namespace
}  // namespace loom::io
