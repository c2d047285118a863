// The pinned arena (src/loom/core/pinned_arena.*): the chunks of a pipelined copy cover it in order, the host's
// parallel copy copies every byte on any thread count, and (with a GPU) an upload then a download through the
// arena gives back the bytes sent, pieces in place.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstddef>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/pinned_arena.hpp"

namespace loom::core {
namespace {

TEST(PinnedArena, ChunksCoverTheCopyInOrder) {
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{1} << 20, std::size_t{33554432},
                            std::size_t{806354944}, std::size_t{123456789}}) {
    const auto at = chunk_offsets(bytes);
    ASSERT_GE(at.size(), 1u);
    EXPECT_EQ(at.front(), 0u);
    EXPECT_EQ(at.back(), bytes);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      EXPECT_LT(at[k], at[k + 1]);
      EXPECT_LE(at[k + 1] - at[k], std::size_t{16} << 20);
    }
    if (bytes >= (std::size_t{32} << 20)) {
      EXPECT_GE(at.size() - 1, 2u);  // large copies overlap in pieces
    }
  }
}

// Every thread count, sizes that no count divides: the last bytes once went uncopied on 16 threads (the H200 host)
// while 2 threads (the development machine) happened to cover them.
TEST(PinnedArena, ParallelCopyCopiesEveryByte) {
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 2, 3, 5, 7, 16})
    for (std::size_t bytes : {std::size_t{0}, std::size_t{7}, std::size_t{1} << 20, (std::size_t{3} << 20) + 13,
                              (std::size_t{5} << 20) + 4099}) {
      omp_set_num_threads(threads);
      std::vector<unsigned char> src(bytes), dst(bytes, 0);
      for (std::size_t i = 0; i < bytes; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
      copy_parallel(dst.data(), src.data(), bytes);
      EXPECT_TRUE(dst == src) << bytes << " bytes on " << threads << " threads";
    }
  omp_set_num_threads(threads_before);
}

TEST(PinnedArena, UploadThenDownloadGivesTheBytesBack) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  PinnedArena arena;
  // two pieces, one of several chunks, so that both the chunking and the piece offsets are exercised
  const std::size_t sizes[] = {std::size_t{3} << 20, (std::size_t{40} << 20) + 24};
  for (int round = 0; round < 2; ++round) {  // the second round reuses the grown buffers
    std::vector<std::vector<double>> host, back;
    std::vector<Array<double>> device;
    std::vector<UploadPiece> up;
    std::vector<DownloadPiece> down;
    for (std::size_t bytes : sizes) {
      const std::size_t count = bytes / sizeof(double);
      host.emplace_back(count);
      for (std::size_t i = 0; i < count; ++i) host.back()[i] = double(i) * 0.5 + round - double(bytes);
      back.emplace_back(count, -1.0);
      device.emplace_back(count);
    }
    for (std::size_t k = 0; k < host.size(); ++k)
      up.push_back({device[k].write(Where::device), host[k].data(), host[k].size() * sizeof(double)});
    arena.upload(up);
    for (std::size_t k = 0; k < host.size(); ++k)
      down.push_back({back[k].data(), device[k].read(Where::device), back[k].size() * sizeof(double)});
    arena.download(down);
    for (std::size_t k = 0; k < host.size(); ++k) EXPECT_TRUE(back[k] == host[k]) << "piece " << k;
  }
}

}  // namespace
}  // namespace loom::core
