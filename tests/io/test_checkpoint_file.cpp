// Checkpoint files: the FNV-1a checksum against the published FNV test values and against the blocked
// definition computed here byte by byte; a round trip; flipped bytes, a file without a checksum and a file of
// another format refused with the key named; a non-finite state never written.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <vector>

#include "io/corrupt_file.hpp"
#include "io/temp_dir.hpp"
#include "loom/core/error.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::io {
namespace {

std::span<const std::byte> bytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

// FNV-1a written out again from its definition (offset basis, prime), one byte at a time.
std::uint64_t reference_fnv(const unsigned char* p, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

TEST(Checksum, Fnv1a64MatchesThePublishedTestValues) {
  // From the FNV reference test suite (Landon Curt Noll's fnv test vectors, 64-bit FNV-1a).
  EXPECT_EQ(fnv1a64(bytes("")), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64(bytes("a")), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64(bytes("foobar")), 0x85944171f73967e8ull);
}

TEST(Checksum, BlocksAreHashedThenTheirHashesInOrder) {
  std::vector<unsigned char> data(3 * checksum_block + 12345);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  std::uint64_t expected = 0xcbf29ce484222325ull;
  for (std::size_t first = 0; first < data.size(); first += checksum_block) {
    const std::uint64_t h = reference_fnv(data.data() + first, std::min(checksum_block, data.size() - first));
    unsigned char le[8];
    for (int b = 0; b < 8; ++b) le[b] = static_cast<unsigned char>(h >> (8 * b));
    expected = reference_fnv(le, 8, expected);
  }
  EXPECT_EQ(blocked_fnv1a64(std::as_bytes(std::span(data))), expected);
  data[2 * checksum_block + 7] ^= 0x10;  // one flipped bit changes it
  EXPECT_NE(blocked_fnv1a64(std::as_bytes(std::span(data))), expected);
}

TEST(Checksum, PiecesHashAsTheirConcatenation) {
  std::vector<unsigned char> data(3 * checksum_block + 12345);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 2654435761u) >> 11);
  const auto all = std::as_bytes(std::span(data));
  // Pieces cutting blocks anywhere, a piece of several whole blocks, a piece ending on a block's end.
  for (const std::size_t first : {std::size_t{1}, std::size_t{777}, checksum_block, checksum_block + 3}) {
    BlockedFnv1a64 h;
    std::size_t at = 0;
    for (std::size_t size = first; at < all.size(); size = size * 3 + 5) {
      const std::size_t take = std::min(size, all.size() - at);
      h.add(all.subspan(at, take));
      at += take;
    }
    EXPECT_EQ(h.value(), blocked_fnv1a64(all)) << first;
  }
  BlockedFnv1a64 whole, none;  // an exact number of blocks; no bytes at all
  whole.add(all.first(2 * checksum_block));
  EXPECT_EQ(whole.value(), blocked_fnv1a64(all.first(2 * checksum_block)));
  EXPECT_EQ(none.value(), blocked_fnv1a64(std::span<const std::byte>{}));
}

TEST(Checksum, DatasetsHashInHyperslabsAsWhole) {
  test::TempDir dir;
  std::vector<double> v(4 * 5 * 6 * 2);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::cos(0.37 * double(i));
  {
    Hdf5Writer w(dir.path() / "d.h5");
    w.write("v", v, {4, 5, 6, 2});
    w.commit();
  }
  const Hdf5Reader h5(dir.path() / "d.h5");
  const std::uint64_t expected = blocked_fnv1a64(std::as_bytes(std::span(v)));
  for (const std::size_t piece : {std::size_t{1} << 22, std::size_t{60}, std::size_t{12}, std::size_t{2}})
    EXPECT_EQ(dataset_hash(h5, "v", piece), expected) << piece;
  // A hyperslab holds the values of those indices.
  const std::vector<double> block = h5.read_double_block("v", {1, 2, 0, 1}, {2, 1, 6, 1});
  ASSERT_EQ(block.size(), 12u);
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t c = 0; c < 6; ++c) EXPECT_EQ(block[a * 6 + c], v[(((1 + a) * 5 + 2) * 6 + c) * 2 + 1]);
}

void write_sample(const std::filesystem::path& path, double time, double value = 1.5) {
  std::vector<double> psi(200000);
  for (std::size_t i = 0; i < psi.size(); ++i) psi[i] = std::sin(0.001 * double(i));
  psi[7] = value;
  CheckpointWriter w(path, "test checkpoint 1");
  w.write("psi", psi, {psi.size() / 2, 2});
  w.attribute("time", time);
  w.attribute("step", std::int64_t{42});
  w.attribute("grid", std::string("bcc"));
  w.commit();
}

std::string refusal(const std::filesystem::path& path) {
  try {
    read_checkpoint_file(path, "initial.checkpoint", "test checkpoint 1", "the test", [](const Hdf5Reader&) {});
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointFile, RoundTripAndTheParametersEnterTheChecksum) {
  test::TempDir dir;
  write_sample(dir / "a.h5", 0.25);
  write_sample(dir / "b.h5", 0.5);
  double time = 0;
  read_checkpoint_file(dir / "a.h5", "initial.checkpoint", "test checkpoint 1", "the test",
                       [&](const Hdf5Reader& h5) { time = h5.attribute_double("/", "time"); });
  EXPECT_EQ(time, 0.25);
  const Hdf5Reader a(dir / "a.h5"), b(dir / "b.h5");
  EXPECT_NE(a.attribute_string("/", "checksum"), b.attribute_string("/", "checksum"));
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"a.h5", "b.h5"}));
}

TEST(CheckpointFile, FlippedBytesAreRefusedNamingTheKeyAndFile) {
  test::TempDir dir;
  const auto path = dir / "c.h5";
  write_sample(path, 1.0);
  test::invert_middle_bytes(path);  // 64 bytes inside the data
  const std::string why = refusal(path);
  EXPECT_EQ(why.rfind("initial.checkpoint = \"" + path.string() + "\": corrupted", 0), 0u) << why;
}

TEST(CheckpointFile, OtherFilesAreRefused) {
  test::TempDir dir;
  std::ofstream(dir / "text.h5") << "not HDF5\n";
  EXPECT_EQ(refusal(dir / "text.h5")
                .rfind("initial.checkpoint = \"" + (dir / "text.h5").string() + "\": not a checkpoint of the test", 0),
            0u);
  EXPECT_NE(refusal(dir / "missing.h5").find("no such file"), std::string::npos);
  {
    Hdf5Writer plain(dir / "plain.h5");  // the right format but no checksum
    plain.write("psi", std::vector<double>{1, 2}, {2});
    plain.attribute("/", "format", std::string("test checkpoint 1"));
    plain.commit();
  }
  EXPECT_NE(refusal(dir / "plain.h5").find("has no checksum"), std::string::npos) << refusal(dir / "plain.h5");
}

TEST(CheckpointFile, NonFiniteStateIsNeverWritten) {
  test::TempDir dir;
  write_sample(dir / "c.h5", 1.0);
  EXPECT_THROW(write_sample(dir / "c.h5", 2.0, std::nan("")), Error);
  EXPECT_THROW(write_sample(dir / "c.h5", 2.0, HUGE_VAL), Error);
  EXPECT_THROW(write_sample(dir / "c.h5", std::nan(""), 1.0), Error);
  double time = 0;
  read_checkpoint_file(dir / "c.h5", "k", "test checkpoint 1", "the test",
                       [&](const Hdf5Reader& h5) { time = h5.attribute_double("/", "time"); });
  EXPECT_EQ(time, 1.0);  // the good one stays, and no temporary file is left
  EXPECT_EQ(dir.files(), std::vector<std::string>{"c.h5"});
  EXPECT_TRUE(all_finite(std::vector<double>{0, -1e308, 1e-320}));
  EXPECT_FALSE(all_finite(std::vector<double>{0, -HUGE_VAL}));
}

}  // namespace
}  // namespace loom::io
