// Backend selection and CUDA error reporting.
#include <gtest/gtest.h>

#include "loom/core/backend.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"

namespace loom::core {
namespace {

TEST(Backend, ParseNamesAndAuto) {
  EXPECT_EQ(parse_backend("cpu"), Backend::cpu);
  EXPECT_EQ(parse_backend("auto"), best_backend());
  EXPECT_EQ(available_backends().front(), Backend::cpu);
  EXPECT_TRUE(backend_available(Backend::cpu));
}

TEST(Backend, BadNameNamesKeyAndChoices) {
  try {
    parse_backend("gpu", "run.backend");
    FAIL() << "no exception";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "run.backend = \"gpu\": expected one of cpu, cuda, auto");
  }
}

TEST(Backend, CudaWithoutDeviceIsAUsageError) {
  if (backend_available(Backend::cuda)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(parse_backend("cuda"), UsageError);
}

TEST(CudaErrors, FailedCallNamesCallFileAndLine) {
  if (!cuda::built()) GTEST_SKIP() << "CPU-only build";
  try {
    if (cuda::device_count() == 0) cuda::set_device(0);      // no device: cudaSetDevice fails
    else cuda::allocate_device(std::size_t(1) << 62);          // 4 EiB: cudaMalloc fails
    FAIL() << "no exception";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("cudaSetDevice") != std::string::npos || what.find("cudaMalloc") != std::string::npos)
        << what;
    EXPECT_NE(what.find("cuda_api.cu:"), std::string::npos) << what;
  }
}

TEST(Timer, StopwatchMeasuresElapsedTime) {
  for (auto b : available_backends()) {
    Stopwatch w(b);
    w.start();
    WallTimer wall;
    while (wall.seconds() < 0.01) {
    }
    const double s = w.stop();
    EXPECT_GE(s, b == Backend::cpu ? 0.01 : 0.0);  // CUDA events time device work only: none here
    EXPECT_LT(s, 5.0);
  }
}

}  // namespace
}  // namespace loom::core
