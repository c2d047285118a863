// StepClock: a fixed-step run lands on t_end in the number of steps exact arithmetic gives, however many steps.
#include <gtest/gtest.h>

#include <cmath>

#include "loom/gr/step_clock.hpp"

namespace loom::gr {
namespace {

long steps_to_end(StepClock clock) {
  long n = 0;
  while (!clock.finished()) {
    clock.advance(clock.next_step());
    ++n;
  }
  return n;
}

TEST(StepClock, TenToTheFiveStepsOfTheBlackHoleRunLandOnItsEnd) {
  // The H200 run of session 12: 10^5 steps of 0.033 to 3300 took 100001 steps with a summed clock.
  double summed = 0;
  for (int i = 0; i < 100000; ++i) summed += 0.033;
  ASSERT_LT(summed, 3300 - 1e-9 * 0.033) << "the summed clock no longer drifts: this test lost its witness";
  EXPECT_EQ(steps_to_end(StepClock(0, 0.033, 3300)), 100000);
  StepClock clock(0, 0.033, 3300);
  while (!clock.finished()) clock.advance(clock.next_step());
  EXPECT_EQ(clock.time(), 3300.0);
}

TEST(StepClock, ManyStepsFromALateStartLandOnTheEnd) {
  for (const double dt : {0.1, 0.033, 1e-3, 0.0089}) {
    const double start = 1234.5;
    const long n = 200000;
    EXPECT_EQ(steps_to_end(StepClock(start, dt, start + double(n) * dt)), n) << "dt " << dt;
  }
}

TEST(StepClock, TheLastStepIsShortenedToTheEnd) {
  StepClock clock(0, 0.3, 1.0);
  EXPECT_EQ(steps_to_end(clock), 4);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(clock.next_step(), 0.3);
    clock.advance(0.3);
  }
  EXPECT_NEAR(clock.next_step(), 0.1, 1e-15);
  clock.advance(clock.next_step());
  EXPECT_TRUE(clock.finished());
  EXPECT_EQ(clock.time(), 1.0);
}

TEST(StepClock, ARestartTakesTheStepsTheUninterruptedRunHasLeft) {
  StepClock whole(0, 0.033, 330);
  for (int i = 0; i < 4321; ++i) whole.advance(whole.next_step());
  StepClock restarted(whole.time(), 0.033, 330);  // a checkpoint keeps the time
  EXPECT_EQ(steps_to_end(restarted), 10000 - 4321);
}

}  // namespace
}  // namespace loom::gr
