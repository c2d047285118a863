// comm::MessageExchange (message_exchange.hpp) under mpiexec: rank s sends rank d (d + 1) * (s + 1) mod 4 values
// (none to some, some to itself), value k of it s * 1000 + d * 100 + k, so every received value names its sender,
// its receiver and its place. The sends are posted from another thread, in reverse rank order (as the FMM's
// writer posts each message when written); a second exchange with fewer values reuses the receive buffer (it
// keeps its size: only the first total values are the received ones).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/comm/message_exchange.hpp"

namespace loom::comm {
namespace {

int count(int from, int to, int scale) { return scale * (((to + 1) * (from + 1)) % 4); }

void expect_exchange(MessageExchange& exchange, std::vector<double>& receive, int scale) {
  const Communicator c = Communicator::world();
  std::vector<int> counts;
  std::vector<double> send;
  for (int d = 0; d < c.size(); ++d) {
    counts.push_back(count(c.rank(), d, scale));
    for (int k = 0; k < counts.back(); ++k) send.push_back(c.rank() * 1000.0 + d * 100.0 + k);
  }
  exchange.start(c, counts, send, receive);
  std::thread sender([&] {
    for (int d = c.size() - 1; d >= 0; --d) {
      exchange.send(d);
      exchange.progress();
    }
  });
  sender.join();
  const std::span<const double> got = exchange.finish();
  std::vector<double> expected;
  for (int s = 0; s < c.size(); ++s) {
    EXPECT_EQ(exchange.received_counts()[static_cast<std::size_t>(s)], count(s, c.rank(), scale));
    for (int k = 0; k < count(s, c.rank(), scale); ++k) expected.push_back(s * 1000.0 + c.rank() * 100.0 + k);
  }
  EXPECT_EQ(std::vector<double>(got.begin(), got.end()), expected);
}

TEST(MessageExchange, EveryMessageArrivesInSenderOrder) {
  MessageExchange exchange;
  std::vector<double> receive;
  expect_exchange(exchange, receive, 3);
  const std::size_t kept = receive.size();
  expect_exchange(exchange, receive, 1);  // fewer values into the same buffer
  EXPECT_EQ(receive.size(), kept);
  EXPECT_TRUE(mpi_threads_serialized());  // the writer's sends need it (Session asks for it)
}

}  // namespace
}  // namespace loom::comm
