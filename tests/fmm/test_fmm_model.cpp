// The model of many ranks (src/loom/fmm/parallel/model.hpp): the step of its equations (1)-(3) worked by hand
// for given measurements, the received field kept at the host's rates when it runs there, and the measurements
// of a small body set (one part: no messages; two: one message each way, balanced parts).
#include <gtest/gtest.h>

#include <cmath>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/parallel/model.hpp"

namespace loom::fmm::parallel {
namespace {

ModelRanks measured() {
  ModelRanks m;
  m.ranks = 8;
  m.local = 2.0;           // the most loaded part's local FMM
  m.one_rank_local = 1.6;  // a mean part's
  m.select = 0.1;          // of which the walk: plan
  m.plan = 0.02;
  m.after_far = 0.5;       // of local: after the received LET is needed, so 1.5 s to hide the writing behind
  m.remote = 0.3;
  m.max_messages = 7;
  m.max_bytes = 1e9;
  return m;
}

TEST(FmmModel, StepOfTheEquations) {
  const Network net{1e10, 1e-5};
  const ModelStep s = model_step(measured(), net, 1);
  EXPECT_DOUBLE_EQ(s.communication, 7 * 1e-5 + 0.1);  // latency per message, bytes over bandwidth
  // (1): the walk first, the writing (0.08) and the exchange beside the first 1.5 s of the local FMM
  EXPECT_NEAR(s.step, 0.02 + 1.5 + 0.5 + 0.3, 1e-12);
  EXPECT_NEAR(s.efficiency, 1.6 / 2.32, 1e-12);  // (2)
  EXPECT_NEAR(s.step_whole, 0.02 + 2.0 + 0.3, 1e-12);  // (1')
  // a slower network: writing and exchange (0.08 + 2.0) outlast the 1.5 s beside them, not the whole 2.0 s
  const ModelStep slow = model_step(measured(), Network{5e8, 0}, 1);
  EXPECT_NEAR(slow.step, 0.02 + 2.08 + 0.5 + 0.3, 1e-12);
  EXPECT_NEAR(slow.step_whole, 0.02 + 2.08 + 0.3, 1e-12);
  // 8x the load: local work 8x; no received bodies measured, so the surface 8^(2/3) = 4x
  const ModelStep big = model_step(measured(), net, 8);
  EXPECT_NEAR(big.local, 16, 1e-12);
  EXPECT_NEAR(big.select, 0.4, 1e-12);
  EXPECT_NEAR(big.plan, 0.08, 1e-12);
  EXPECT_NEAR(big.remote, 1.2, 1e-12);
  EXPECT_NEAR(big.communication, 7e-5 + 0.4, 1e-12);
}

TEST(FmmModel, ReceivedVolumeGrowsAsTheNearFieldShell) {
  // a domain of 2^3 leaves of 64 bodies receiving 7x its bodies: a shell 1 leaf wide (4^3 - 2^3 = 56 leaves);
  // at 8x the load the domain is 4^3 leaves and the shell 6^3 - 4^3 = 152 leaves, not the surface law's 4x 56
  ModelRanks m = measured();
  m.ncrit = 64;
  m.max_bodies = 512;
  m.max_let_bodies = 7 * 512;
  EXPECT_NEAR(received_growth(m, 1), 1, 1e-12);
  EXPECT_NEAR(received_growth(m, 8), 152.0 / 56, 1e-12);
  const ModelStep big = model_step(m, Network{1e10, 1e-5}, 8);
  EXPECT_NEAR(big.remote, 0.3 * 152 / 56, 1e-12);
  EXPECT_NEAR(big.select, 0.1 * 152 / 56, 1e-12);
  EXPECT_NEAR(big.communication, 7e-5 + 0.1 * 152 / 56, 1e-12);
  // far past the shell's width the growth is the surface's: 6 w s^2 leaves at s = 2 * 1000
  EXPECT_NEAR(received_growth(m, 1e9) / (6 * 2000.0 * 2000 / 56), 1, 2e-3);
}

TEST(FmmModel, AnotherMachineSpeedsTheReceivedFieldOnlyWhenItRunsThere) {
  const Network net{1e12, 0};
  // the target machine's local FMM (a mean part) takes 0.8 s where this one's would take 1.6 * 8 = 12.8 s
  const ModelStep device = model_step(measured(), net, 8, 0.8, false);
  const ModelStep host = model_step(measured(), net, 8, 0.8, true);
  const double speed = 0.8 / 12.8;
  EXPECT_NEAR(device.local, 16 * speed, 1e-12);
  EXPECT_NEAR(device.remote, 1.2 * speed, 1e-12);
  EXPECT_NEAR(host.local, 16 * speed, 1e-12);
  EXPECT_NEAR(host.remote, 1.2, 1e-12);
  EXPECT_NEAR(host.select, 0.4, 1e-12);
  // the walk 0.08 first; writing 0.32 and exchange 0.004 beside the local FMM's first 0.75 s
  EXPECT_NEAR(host.efficiency, 0.8 / (0.08 + 0.75 + 0.25 + 1.2), 1e-12);
  EXPECT_LT(host.efficiency, device.efficiency);
}

TEST(FmmModel, MeasuresOneAndTwoParts) {
  const Index n = 4000;
  const auto x = make_positions(Distribution::cube, n, 3);
  const auto q = make_uniform(n, -1, 1, 4);
  Options o;
  o.order = 4;
  const ModelRanks one = model_ranks(Kernel::laplace, o, x, q, {}, 1);
  EXPECT_EQ(one.max_bodies, n);
  EXPECT_EQ(one.max_messages, 0);
  EXPECT_EQ(one.max_bytes, 0);
  const ModelRanks two = model_ranks(Kernel::laplace, o, x, q, {}, 2);
  EXPECT_LE(std::abs(double(two.max_bodies) - n / 2.0), 2.0);
  EXPECT_EQ(two.max_messages, 1);
  EXPECT_GT(two.max_cells, 0);
  EXPECT_GT(two.max_bytes, 8.0 * two.max_cells * (6 + o.order * (o.order + 1)) - 1);  // each cell's header, terms
  EXPECT_GT(two.remote, 0);
}

TEST(FmmModel, InteriorProbeStepOfTheEquations) {
  // (6) by hand: the probe's centre part of 512 bodies (2^3 leaves) receives 7x its bodies (the shell 1 leaf
  // wide, growth 152 / 56 at 8x the load), its received field 0.25 of its local FMM; the target 8x the load
  ModelRanks interior = measured();
  interior.ncrit = 64;
  interior.timed_bodies = interior.max_bodies = 512;
  interior.max_let_bodies = 7 * 512;
  interior.local = 0.4;
  interior.remote = 0.1;
  interior.select = 0.01;
  interior.plan = 0.002;
  interior.after_far = 0.1;  // a quarter of the local FMM after the received LET is needed
  interior.max_bytes = 2e8;  // received by the centre part
  interior.written_bytes = 1.6e8;  // written by it in select - plan = 0.008 s: 5e-11 s per byte
  ModelRanks ranks = measured();  // the P-rank model: messages, bytes and the distant receivers' selection
  ranks.max_bodies = 512;
  ranks.max_bytes = 1e8;
  const Network net{1e10, 1e-5};
  const ModelStep s = model_step_interior(ranks, interior, net, 8 * 512, 0.7);
  const double growth = 152.0 / 56;
  const double volume = 2e8 * growth + 1e8;  // (7): the probe's grown by (3), the P-rank model's not
  EXPECT_NEAR(s.volume, volume, 1e-3);
  EXPECT_NEAR(s.volume_near, 2e8 * growth, 1e-3);
  EXPECT_NEAR(s.local, 0.7, 1e-12);
  EXPECT_NEAR(s.remote, 0.7 * 0.25 * growth / 8, 1e-12);
  EXPECT_NEAR(s.plan, 0.002 * growth + 0.02, 1e-12);
  EXPECT_NEAR(s.write, volume * 5e-11, 1e-12);  // (8): the same volume written as sent
  EXPECT_NEAR(s.select, s.plan + s.write, 1e-12);
  EXPECT_NEAR(s.communication, 7e-5 + volume / 1e10, 1e-12);
  // writing 0.032 and the exchange 0.064 hide behind the first 0.525 s of the 0.7 s
  EXPECT_NEAR(s.step, s.plan + 0.525 + 0.175 + s.remote, 1e-12);
  EXPECT_NEAR(s.efficiency, 0.7 / s.step, 1e-12);
  EXPECT_NEAR(s.step_whole, s.plan + 0.7 + s.remote, 1e-12);
  // at 1 GB/s the exchange (0.643 s) and the writing outlast the 0.525 s beside them
  const ModelStep slow = model_step_interior(ranks, interior, Network{1e9, 0}, 8 * 512, 0.7);
  EXPECT_NEAR(slow.step, slow.plan + volume * 5e-11 + volume / 1e9 + 0.175 + slow.remote, 1e-12);
}

TEST(FmmModel, InteriorProbeTimesTheCentreOf27Parts) {
  // the part timed is the one receiving the most, the centre: 26 messages, bodies from every side
  Options o;
  o.order = 4;
  const ModelRanks m = model_interior(Kernel::laplace, o, 3000);
  EXPECT_EQ(m.ranks, 27);
  EXPECT_EQ(m.max_messages, 26);
  EXPECT_LE(std::abs(double(m.timed_bodies) - 3000), 2.0);
  EXPECT_GT(m.max_let_bodies, 3000);  // a part 3 leaves wide inside a shell of its neighbours' leaves
  EXPECT_GT(m.local, 0);
  EXPECT_GT(m.remote, 0);
  // (7)'s premise: the centre part writes for its neighbours about what it receives from them
  EXPECT_NEAR(m.written_bytes / m.max_bytes, 1.0, 0.15);
}

}  // namespace
}  // namespace loom::fmm::parallel
