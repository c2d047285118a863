#include "loom/core/timer.hpp"

#include "loom/core/cuda_api.hpp"

namespace loom::core {

Stopwatch::Stopwatch(Backend backend) : backend_(backend) {
  if (backend_ == Backend::cuda) events_ = std::make_unique<cuda::EventTimer>();
}
Stopwatch::~Stopwatch() = default;
Stopwatch::Stopwatch(Stopwatch&&) noexcept = default;
Stopwatch& Stopwatch::operator=(Stopwatch&&) noexcept = default;

void Stopwatch::start() {
  if (events_) events_->start();
  else wall_.start();
}

double Stopwatch::stop() { return events_ ? events_->stop() : wall_.seconds(); }

}  // namespace loom::core
