#include "loom/io/stop_signal.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>

namespace loom::io {
namespace {

// The handler may only touch lock-free atomics and fixed storage, and call async-signal-safe functions
// (unlink, write, signal, raise).
constexpr int slots = 256;
constexpr std::size_t max_path = 4096;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 holds a path
  char path[max_path];
};
std::array<Slot, slots> registry;
std::atomic<int> pollers{0};
std::atomic<int> first_signal{0};

void remove_registered() {
  for (auto& s : registry)
    if (s.state.load() == 2) ::unlink(s.path);
}

void say(const char* text) {
  const auto ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  if (pollers.load() > 0 && first_signal.compare_exchange_strong(none, signal)) {
    say(signal == SIGINT ? "\nloom: SIGINT: stopping at the next step or phase boundary (again: stop now)\n"
                         : "\nloom: SIGTERM: stopping at the next step or phase boundary (again: stop now)\n");
    return;
  }
  remove_registered();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

void install_stop_handlers() {
  static_assert(std::atomic<int>::is_always_lock_free);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

int stop_signal() { return first_signal.load(); }

const char* signal_name(int signal) { return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal"; }

StopPolling::StopPolling() { pollers.fetch_add(1); }
StopPolling::~StopPolling() { pollers.fetch_sub(1); }

RemoveOnSignal::RemoveOnSignal(const std::filesystem::path& path) {
  std::error_code ec;
  const std::string text = std::filesystem::absolute(path, ec).string();  // the handler may run after a chdir
  if (text.size() >= max_path) return;
  for (int i = 0; i < slots; ++i) {
    int free = 0;
    if (!registry[std::size_t(i)].state.compare_exchange_strong(free, 1)) continue;
    std::memcpy(registry[std::size_t(i)].path, text.c_str(), text.size() + 1);
    registry[std::size_t(i)].state.store(2);
    slot_ = i;
    return;
  }
}

RemoveOnSignal::~RemoveOnSignal() {
  if (slot_ >= 0) registry[std::size_t(slot_)].state.store(0);
}

}  // namespace loom::io
