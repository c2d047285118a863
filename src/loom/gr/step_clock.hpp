// The time of a fixed-step run: t = start + n dt after n full steps, not a running sum of dt. A running sum of 10^5
// steps of 0.033 drifted 6.4e-9 below t_end = 3300 (H200, session 12), beyond the 1e-9 dt tolerance, so the run
// took a 100001st step of dt ~ 6e-9 whose per-step filter alone moved the constraint norms by 1.6%.
#pragma once

#include "loom/core/host_device.hpp"

namespace loom::gr {

class StepClock {
 public:
  StepClock(double start, double dt, double end) : start_(start), dt_(dt), end_(end), time_(start) {}

  // The next step: dt, or what is left to the end when that is shorter than dt beyond rounding (so a run to a
  // multiple of dt and its restart take the same steps as one uninterrupted run).
  double next_step() const { return end_ - time_ < dt_ * (1 - 1e-9) ? end_ - time_ : dt_; }

  // After a step of h (a value next_step() returned): a full step advances n, the shortened last one lands on end.
  void advance(double h) {
    if (h == dt_)
      time_ = start_ + double(++full_steps_) * dt_;
    else
      time_ = end_;
  }

  bool finished() const { return time_ >= end_ - 1e-9 * dt_; }
  double time() const { return time_; }

 private:
  double start_, dt_, end_, time_;
  Index full_steps_ = 0;
};

}  // namespace loom::gr
