// Timing device work honestly: wall clock on the CPU backend, CUDA events on the default stream on the GPU
// (stop() waits for the work recorded before it).
#pragma once

#include <chrono>
#include <memory>

#include "loom/core/backend.hpp"

namespace loom::cuda {
class EventTimer;
}

namespace loom::core {

class WallTimer {
 public:
  WallTimer() { start(); }
  void start() { t0_ = std::chrono::steady_clock::now(); }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  std::chrono::steady_clock::time_point t0_;
};

class Stopwatch {
 public:
  explicit Stopwatch(Backend backend);
  ~Stopwatch();
  Stopwatch(Stopwatch&&) noexcept;
  Stopwatch& operator=(Stopwatch&&) noexcept;
  void start();
  double stop();  // seconds since start(), after the backend's work has finished

 private:
  Backend backend_;
  WallTimer wall_;
  std::unique_ptr<cuda::EventTimer> events_;
};

}  // namespace loom::core
