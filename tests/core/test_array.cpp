// Lazy host/device mirroring of core::Array: copies happen once, only when needed, and a stale side is never
// read. The same body runs against a host-emulated device (every machine) and the real CUDA pool (GPU only).
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/device_pool.hpp"

namespace loom::core {
namespace {

enum class Memory { emulated, cuda };

class ArrayTest : public ::testing::TestWithParam<Memory> {
 protected:
  void SetUp() override {
    if (GetParam() == Memory::cuda) {
      if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device";
      pool_ = &device_pool();
    } else {
      emulated_pool_ = std::make_unique<DevicePool>(emulated_, std::size_t(1) << 30);
      pool_ = emulated_pool_.get();
    }
  }
  // Writes values straight into the device copy, as a kernel would.
  void device_store(Array<double>& a, const std::vector<double>& values) {
    double* d = a.write(Where::device);
    pool_->resource().copy_to_device(d, values.data(), values.size() * sizeof(double));
  }
  std::vector<double> device_load(const Array<double>& a) {
    std::vector<double> out(a.size());
    pool_->resource().copy_to_host(out.data(), a.read(Where::device), a.bytes());
    return out;
  }

  HostEmulatedDevice emulated_;
  std::unique_ptr<DevicePool> emulated_pool_;
  DevicePool* pool_ = nullptr;
};

TEST_P(ArrayTest, HostWriteThenDeviceReadCopiesOnce) {
  Array<double> a(1000, pool_);
  double* h = a.write(Where::host);
  std::iota(h, h + 1000, 0.0);
  EXPECT_TRUE(a.valid_on(Where::host));
  EXPECT_FALSE(a.valid_on(Where::device));
  a.read(Where::device);
  a.read(Where::device);
  a.read(Where::host);
  EXPECT_EQ(a.transfers().host_to_device, 1u);
  EXPECT_EQ(a.transfers().device_to_host, 0u);
  const auto d = device_load(a);
  EXPECT_EQ(d[999], 999.0);
}

TEST_P(ArrayTest, DeviceWriteThenHostReadCopiesExactlyOnce) {
  Array<double> a(512, pool_);
  std::vector<double> values(512);
  std::iota(values.begin(), values.end(), 1.0);
  device_store(a, values);
  EXPECT_FALSE(a.valid_on(Where::host));
  const double* h = a.read(Where::host);
  EXPECT_EQ(h[0], 1.0);
  EXPECT_EQ(h[511], 512.0);
  a.read(Where::host);
  a.read(Where::device);
  EXPECT_EQ(a.transfers().device_to_host, 1u);
  EXPECT_EQ(a.transfers().host_to_device, 0u);
}

TEST_P(ArrayTest, StaleSideIsNeverRead) {
  Array<double> a(64, 1.0, pool_);
  a.read(Where::device);                       // both valid, value 1
  device_store(a, std::vector<double>(64, 2.0));  // device now 2, host stale
  EXPECT_EQ(a.read(Where::host)[10], 2.0);
  a.read_write(Where::host)[10] = 3.0;         // host now newer, device stale
  EXPECT_FALSE(a.valid_on(Where::device));
  EXPECT_EQ(device_load(a)[10], 3.0);
  EXPECT_EQ(a.transfers().host_to_device, 2u);
  EXPECT_EQ(a.transfers().device_to_host, 1u);
}

TEST_P(ArrayTest, WriteDoesNotCopy) {
  Array<double> a(100, 5.0, pool_);
  a.write(Where::device);
  a.write(Where::host);
  EXPECT_EQ(a.transfers().host_to_device, 0u);
  EXPECT_EQ(a.transfers().device_to_host, 0u);
}

TEST_P(ArrayTest, ReadOfNeverWrittenArrayThrows) {
  Array<double> a(10, pool_);
  EXPECT_THROW(a.read(Where::host), Error);
  EXPECT_THROW(a.read(Where::device), Error);
  Array<double> empty(0, pool_);
  EXPECT_EQ(empty.read(Where::host), nullptr);
}

TEST_P(ArrayTest, CloneAndMoveKeepContents) {
  Array<double> a(300, pool_);
  std::vector<double> values(300);
  std::iota(values.begin(), values.end(), -7.0);
  device_store(a, values);
  Array<double> c = a.clone();  // device-to-device copy, host still stale
  EXPECT_FALSE(c.valid_on(Where::host));
  EXPECT_EQ(c.read(Where::host)[299], 292.0);
  Array<double> m = std::move(a);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(m.read(Where::host)[0], -7.0);
}

TEST_P(ArrayTest, ReleaseDeviceKeepsData) {
  Array<double> a(128, pool_);
  device_store(a, std::vector<double>(128, 4.5));
  a.release_device();
  EXPECT_FALSE(a.valid_on(Where::device));
  EXPECT_EQ(a.read(Where::host)[127], 4.5);
}

TEST_P(ArrayTest, DeviceMemoryReturnsToPool) {
  const auto before = pool_->statistics();
  {
    Array<double> a(4096, 1.0, pool_);
    a.read(Where::device);
    EXPECT_EQ(pool_->statistics().blocks_in_use, before.blocks_in_use + 1);
  }
  EXPECT_EQ(pool_->statistics().blocks_in_use, before.blocks_in_use);
  Array<double> b(4096, 2.0, pool_);
  b.read(Where::device);
  EXPECT_EQ(pool_->statistics().hits, before.hits + 1);  // the freed block was reused
}

INSTANTIATE_TEST_SUITE_P(Memories, ArrayTest, ::testing::Values(Memory::emulated, Memory::cuda),
                         [](const auto& p) { return p.param == Memory::cuda ? "cuda" : "emulated"; });

}  // namespace
}  // namespace loom::core
