// What the vortex runs on ranks are compared with (test_vortex_mpi_*.cpp): a run directory's summary, and its
// checkpoint's particles and AB2 rates, the velocities of the last step (in rank 0's order, which is the
// one-process run's order).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "apps/run_loom.hpp"
#include "loom/vortex/checkpoint.hpp"

namespace loom::test {

inline nlohmann::json summary_of(const std::filesystem::path& dir) {
  return nlohmann::json::parse(slurp(dir / "summary.json"));
}

// The relative L2 difference of two vector sets (1 when their sizes differ).
inline double relative_difference(const std::vector<fmm::Vec3d>& a, const std::vector<fmm::Vec3d>& b) {
  if (a.size() != b.size() || a.empty()) return 1;
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += fmm::norm2(a[i] - b[i]);
    s += fmm::norm2(b[i]);
  }
  return std::sqrt(d / s);
}

// The last step's velocities and the particles of run `a` against those of run `b`.
inline void expect_same_particles(const std::filesystem::path& a, const std::filesystem::path& b, double bound) {
  const vortex::Checkpoint ca = vortex::read_checkpoint(a / "checkpoint.h5");
  const vortex::Checkpoint cb = vortex::read_checkpoint(b / "checkpoint.h5");
  EXPECT_EQ(ca.step, cb.step);
  ASSERT_FALSE(cb.previous.velocity.empty());
  EXPECT_LT(relative_difference(ca.previous.velocity, cb.previous.velocity), bound);
  EXPECT_LT(relative_difference(ca.previous.stretching, cb.previous.stretching), bound);
  EXPECT_LT(relative_difference(ca.particles.alpha, cb.particles.alpha), bound);
}

}  // namespace loom::test
