#include "loom/fmm/parallel/let_writer.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"

namespace loom::fmm::parallel {

LetWriter::LetWriter(const LetSource& source, const std::vector<LetMessage>& messages,
                     std::span<const std::size_t> offsets, double* buffer, comm::MessageExchange& exchange,
                     int threads)
    : source_(source), messages_(messages), offsets_(offsets), buffer_(buffer), exchange_(exchange),
      threads_(threads < 1 ? 1 : threads) {
  thread_ = std::thread([this] {
    try {
      write();
    } catch (...) {
      failure_ = std::current_exception();
    }
  });
}

LetWriter::~LetWriter() { abandon(); }

void LetWriter::abandon() noexcept {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  ready_.notify_one();
  thread_.join();
}

void LetWriter::multipoles_ready(const detail::C* multipoles, const int* slot) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    source_.multipoles = multipoles;
    source_.multipole_slot = slot;
    handed_ = true;
  }
  ready_.notify_one();
}

double LetWriter::join() {
  core::WallTimer waited;
  if (thread_.joinable()) thread_.join();
  const double seconds = waited.seconds();
  if (failure_) std::rethrow_exception(failure_);
  return seconds;
}

void LetWriter::write() {
  core::WallTimer first;
  LOOM_REQUIRE(write_messages(source_, messages_, offsets_, buffer_, LetPart::without_multipoles, threads_),
               "LetWriter: a LET written differs from its plan's size");
  busy_ = first.seconds();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return handed_ || cancelled_; });
    if (!handed_) return;
  }
  core::WallTimer second;
  fill_and_send();
  busy_ += second.seconds();
}

void LetWriter::fill_and_send() {
  const auto n = static_cast<std::int64_t>(messages_.size());
  int ranks = 0;
  for (const LetMessage& m : messages_) ranks = std::max(ranks, m.rank + 1);
  // each receiver's messages still to fill: its message leaves when the last of them is complete
  const auto left = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) left[static_cast<std::size_t>(r)] = 0;
  for (const LetMessage& m : messages_) ++left[static_cast<std::size_t>(m.rank)];
  std::exception_ptr failed;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
  for (std::int64_t k = 0; k < n; ++k) {
    const LetMessage& m = messages_[static_cast<std::size_t>(k)];
    write_let(source_, m.plan, m.shift, buffer_ + offsets_[static_cast<std::size_t>(k)], LetPart::multipoles);
    if (--left[static_cast<std::size_t>(m.rank)] > 0) continue;
#pragma omp critical(loom_let_send)
    {
      try {
        exchange_.send(m.rank);
        exchange_.progress();
      } catch (...) {
        if (!failed) failed = std::current_exception();
      }
    }
  }
  if (failed) std::rethrow_exception(failed);
}

}  // namespace loom::fmm::parallel
