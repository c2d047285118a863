// The distributed evaluation (distributed.hpp): one template over the kernel for the pipeline; the two public
// calls only say how a kernel's strengths and results are laid out.
#include "loom/fmm/parallel/distributed.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "loom/comm/collectives.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/parallel/let.hpp"
#include "loom/fmm/parallel/let_batch.hpp"
#include "loom/fmm/parallel/let_writer.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/list_cache.hpp"
#include "loom/fmm/tree/reorder.hpp"

namespace loom::fmm::parallel {
namespace {

// Every rank's patches (let.hpp), gathered: one length-prefixed list per rank.
std::vector<std::vector<Patch>> rank_patches(const comm::Communicator& comm, const Tree& tree) {
  std::vector<double> mine{0.0};
  append_patches(tree, patches_per_rank, mine);
  mine[0] = double(mine.size() - 1);
  const std::vector<double> all = comm::all_gather(comm, mine);
  std::vector<std::vector<Patch>> out;
  for (std::size_t at = 0; at < all.size();) {
    const auto n = static_cast<std::size_t>(all[at]);
    out.push_back(read_patches(std::span<const double>(all).subspan(at + 1, n)));
    at += 1 + n;
  }
  return out;
}

}  // namespace

// The buffers a rank keeps between calls (distributed.hpp).
struct RankFmm::Buffers {
  std::vector<LetMessage> messages;   // in rank order, each with its plan (their memory kept)
  std::vector<double> send, receive;  // the LETs written and received (grow_to)
  std::vector<detail::C> sent;        // the sent cells' multipoles, gathered from the device
  std::vector<int> slot;              // each cell's place among them
  Let let;                            // the received LETs parsed
  core::Array<double> far_scratch;    // the local L2P before it joins the near field (evaluate.hpp near_first)
  comm::MessageExchange exchange;
  // The local FMM, kept while the calls' options stay the same: its engine's pinned arena and the device pool's
  // blocks are not given back and taken again every call (its tree and lists are, at the next call's tree).
  std::optional<Evaluator> evaluator;
};

namespace {

// The kept evaluator for these (local) options, made afresh when they changed.
Evaluator& kept_evaluator(RankFmm::Buffers& b, const Options& o) {
  if (!b.evaluator || !(b.evaluator->options() == o)) {
    b.evaluator.reset();  // its memory given back before the new one's
    b.evaluator.emplace(o);
  }
  return *b.evaluator;
}

// What this rank sends every other rank that holds bodies (periodic: the LETs of the 27 near images of its tree,
// each shifted where it lies), planned before the local FMM into the kept messages; the doubles per rank.
struct LetPlans {
  std::vector<std::vector<Patch>> patches;  // every rank's (the messages' receivers point into them)
  std::vector<int> counts;
  std::vector<std::size_t> offsets;  // each message's place in the send buffer (message_offsets)
};

LetPlans plan_all(const comm::Communicator& comm, const Tree& tree, std::span<const double> cell_sigma,
                  const Options& o, int ncomp, std::vector<LetMessage>& messages, RankReport& report) {
  LetPlans plans;
  core::WallTimer gather;  // a collective: it waits for the slowest rank's tree
  // a lone rank sends nothing (and its tree may hold its cells alone: no bodies to bound the patches)
  plans.patches = comm.size() > 1 ? rank_patches(comm, tree) : std::vector<std::vector<Patch>>(1);
  report.communication = gather.seconds();
  std::size_t k = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const auto& receiver = plans.patches[static_cast<std::size_t>(r)];
    if (r == comm.rank() || receiver.empty()) continue;
    for (int s = o.periodic ? 0 : no_shift; s <= (o.periodic ? 26 : no_shift); ++s, ++k) {
      if (k == messages.size()) messages.emplace_back();
      messages[k].rank = r;
      messages[k].receiver = receiver;
      messages[k].shift = shift_vector(s, o.period);
    }
  }
  messages.resize(k);
  plan_lets(tree, cell_sigma, {o.theta, cell_sigma.empty() ? 0.0 : o.guard}, messages);
  plans.counts.assign(static_cast<std::size_t>(comm.size()), 0);
  for (const LetMessage& m : messages) {
    report.let_cells_sent += m.count.cells;
    report.let_bodies_sent += m.count.bodies;
    plans.counts[static_cast<std::size_t>(m.rank)] += static_cast<int>(m.count.doubles(o.order, ncomp));
  }
  plans.offsets = message_offsets(messages, o.order, ncomp);
  return plans;
}

// The writer's threads: on the GPU the host is idle while the device runs the local FMM; on the CPU one thread,
// beside the local FMM's team.
int writer_threads(const Options& o) { return o.backend == core::Backend::cuda ? core::cpu_threads() : 1; }

// The multipoles of the cells the messages send, for the writer: on the GPU gathered on the device and copied
// into the kept buffer (only they cross PCIe), on the CPU the evaluation's own array (null slots).
std::pair<const detail::C*, const int*> sent_multipoles(const Options& o, int ncomp, std::size_t ncells,
                                                        const core::Array<detail::C>& multipoles,
                                                        RankFmm::Buffers& b) {
  if (o.backend != core::Backend::cuda) return {multipoles.read(core::Where::host), nullptr};
  const std::vector<int> cells = sent_cells(b.messages, ncells, b.slot);
  const Index per_cell = ncomp * term_count(o.order);
  detail::C* out = grow_to(b.sent, cells.size() * static_cast<std::size_t>(per_cell));
  detail::cell_expansions(o.backend, multipoles, cells, per_cell, out);
  return {out, b.slot.data()};
}

// The local FMM's options: periodic, its own 27 near images but none of the far ones (they come from the whole
// box's moments, with the received cells).
Options local_options(Options o) {
  if (o.periodic) {
    o.image_levels = 0;
    o.tinfoil = false;
  }
  return o;
}

// The whole box's moments: each rank's bodies' moments about the box centre, summed over the ranks (strengths
// in the caller's order, ncomp per body).
detail::BoxMoments global_moments(const comm::Communicator& comm, const Options& o, const detail::TreeData& t,
                                  int ncomp, std::span<const double> strength) {
  const Index n = t.n();
  detail::BoxMoments m{std::vector<detail::C>(static_cast<std::size_t>(ncomp * term_count(detail::image_order(o)))),
                       std::vector<double>(static_cast<std::size_t>(ncomp), 0.0)};
  if (n > 0) {
    core::Array<double> tree_strength(static_cast<std::size_t>(ncomp * n));
    gather_to_tree_order(core::Backend::cpu, n, t.tree.order().data(), strength.data(), ncomp, ncomp,
                         tree_strength.write(core::Where::host));
    m = detail::box_moments(o, t, ncomp, tree_strength);
  }
  const std::span<double> terms(&m.multipole.data()->re, 2 * m.multipole.size());
  comm::all_reduce(comm, terms, comm::Reduce::sum);
  comm::all_reduce(comm, m.second, comm::Reduce::sum);
  return m;
}

// Every body's cost (4) from the local lists' work, the received work and the local kernels' times.
void measure_cost(const comm::Communicator& comm, const Tree& t, CellWork work, const RankReport& report,
                  BodyCost& cost) {
  if (!cost.rates.given()) cost.rates = measured_rates(comm, t, work, report.local_time);
  work.add(report.remote_pairs.work);
  cost.seconds = body_cost(t, work, cost.rates);
}

// The pipeline for kernel K: `local` runs the local FMM (Evaluator&) with the received sources, returning its
// times; the LETs are planned before it and written on the writer's thread while it runs (distributed.hpp).
template <class K, class Local>
void run(const comm::Communicator& comm, RankFmm::Buffers& b, const Options& o, std::span<const Vec3d> x,
         std::span<const double> strength, std::span<const double> sigma, RankReport& report, BodyCost* cost,
         Local&& local) {
  core::WallTimer tree_timer;
  Evaluator& e = kept_evaluator(b, local_options(o));
  e.set_list_work(cost != nullptr);  // the costs' local work counted where the lists are
  // the bodies' order and positions on the host for the LETs' bodies, the far images' moments and the costs;
  // a lone rank without them keeps its bodies on the device (a backend tree only)
  e.set_host_bodies(comm.size() > 1 || o.periodic || cost != nullptr);
  // a rank's domain is often elongated; its cells need not be: the root cut into near-cubic pieces
  if (o.tree_on_backend) {
    e.set_positions(x, cubic_root_rounds(x));
  } else {
    e.set_tree(cubic_tree(x, o.ncrit));
  }
  report.tree = tree_timer.seconds();
  core::WallTimer plan_timer;
  // the cells' largest core radii for the LETs' guard (none sent on one rank; the local FMM has its own)
  const bool sends = comm.size() > 1;
  const std::vector<double> cell_sigma =
      sigma.empty() || !sends ? std::vector<double>() : detail::cell_max_sigma(e.tree(), sigma);
  const LetPlans plans = plan_all(comm, e.tree(), cell_sigma, o, K::ncomp, b.messages, report);
  double* send = grow_to(b.send, plans.offsets.back());
  report.let_build = plan_timer.seconds() - report.communication;
  core::WallTimer counts_timer;
  b.exchange.start(comm, plans.counts, {send, plans.offsets.back()}, b.receive);
  report.communication += counts_timer.seconds();
  LetSource source;
  source.tree = &e.tree();
  source.order = o.order;
  source.ncomp = K::ncomp;
  source.strength = strength.data();
  source.sigma = sigma;
  source.body_order = e.tree().order().data();
  source.cell_sigma = cell_sigma;
  std::optional<LetWriter> writer;
  if (!b.messages.empty()) writer.emplace(source, b.messages, plans.offsets, send, b.exchange, writer_threads(o));
  // After the upward pass (or at once on a rank without bodies): the far images' moments (an MPI call, before
  // the writer may send), the multipoles handed to the writer; and the local lists' work per cell for the costs.
  std::optional<detail::BoxMoments> far;
  if (o.periodic) far.emplace();
  bool handed = false;
  CellWork work;
  double upward_seconds = 0;
  const auto hand_over = [&](const detail::TreeData& t, const InteractionLists& lists,
                             const core::Array<detail::C>& multipoles) {
    core::WallTimer timer;
    if (far) *far = global_moments(comm, o, t, K::ncomp, strength);
    if (writer) {
      const auto [m, slot] = sent_multipoles(o, K::ncomp, t.tree.cells().size(), multipoles, b);
      writer->multipoles_ready(m, slot);
    }
    if (cost) {  // counted on the device with the lists; else from the host lists (t.tree's, or an empty tree's)
      const ListWork* counted = e.list_work(K::id);
      work = counted ? CellWork{counted->m2l, counted->sources} : local_work(e.tree(), lists);
    }
    handed = true;
    upward_seconds = timer.seconds();
  };
  double exchange_wait = 0;
  ReceivedSources<K> received(
      o,
      [&]() -> const Let& {
        if (writer) report.let_wait = writer->join();
        core::WallTimer waiting;
        const std::span<const double> data = b.exchange.finish();
        exchange_wait = waiting.seconds();
        parse_let(data, o.order, K::ncomp, b.let);
        return b.let;
      },
      far ? &*far : nullptr, hand_over);
  received.keep_far_scratch(&b.far_scratch);
  received.on_evaluation_end([&]() noexcept {  // the writer may read the evaluation's multipoles (CPU backend)
    if (writer) writer->abandon();
  });
  core::WallTimer local_timer;
  report.local_time = local(e, received);
  if (!handed) hand_over(detail::TreeData{}, InteractionLists{}, core::Array<detail::C>{});  // a rank without bodies
  received.let();
  const double call = local_timer.seconds();
  if (writer) report.let_write = writer->busy_seconds();
  report.remote_time = received.times();
  report.let_build += upward_seconds;
  report.communication += exchange_wait;
  // the received field with the parsing (the writer's and the exchange's waits apart)
  report.remote = report.remote_time.total() + report.remote_time.wait - report.let_wait - exchange_wait;
  report.local = call - report.remote_time.wait - report.remote_time.total() - upward_seconds;
  report.let_cells_received = static_cast<Index>(b.let.cells.size());
  report.let_bodies_received = static_cast<Index>(b.let.x.size());
  report.remote_pairs = received.counts();
  report.bodies = static_cast<Index>(x.size());
  report.tree_host = report.local_time.build_host;
  if (cost) {
    core::WallTimer cost_timer;
    measure_cost(comm, e.tree(), std::move(work), report, *cost);
    report.cost = cost_timer.seconds();
  }
  core::WallTimer release_timer;
  writer.reset();
  report.release = release_timer.seconds();
}

}  // namespace

RankFmm::RankFmm(comm::Communicator comm) : comm_(std::move(comm)), b_(std::make_unique<Buffers>()) {}
RankFmm::~RankFmm() = default;
RankFmm::RankFmm(RankFmm&&) noexcept = default;
RankFmm& RankFmm::operator=(RankFmm&&) noexcept = default;

double RankFmm::kept_bytes() const {
  double bytes = 8.0 * double(b_->send.capacity() + b_->receive.capacity()) +
                 double(sizeof(detail::C) * b_->sent.capacity() + sizeof(int) * b_->slot.capacity()) +
                 8.0 * double(b_->far_scratch.size());  // on the backend: the device's with CUDA
  for (const LetMessage& m : b_->messages) bytes += double(sizeof(LetEntry) * m.plan.capacity());
  const Let& l = b_->let;
  bytes += double(sizeof(LetCell) * l.cells.capacity() + sizeof(detail::C) * l.multipoles.capacity() +
                  sizeof(Vec3d) * l.x.capacity() + 8 * (l.strength.capacity() + l.sigma.capacity()));
  return bytes;
}

LaplaceResult RankFmm::laplace(const Options& o, std::span<const Vec3d> x, std::span<const double> charges,
                               RankReport* report, BodyCost* cost) {
  LaplaceResult result;
  laplace(o, x, charges, result, report, cost);
  return result;
}

BiotSavartResult RankFmm::biot_savart(const Options& o, std::span<const Vec3d> x, std::span<const Vec3d> alpha,
                                      std::span<const double> sigma, RankReport* report, BodyCost* cost) {
  BiotSavartResult result;
  biot_savart(o, x, alpha, sigma, result, report, cost);
  return result;
}

void RankFmm::laplace(const Options& o, std::span<const Vec3d> x, std::span<const double> charges,
                      LaplaceResult& result, RankReport* report, BodyCost* cost) {
  core::WallTimer whole;
  RankReport own;
  RankReport& r = report ? *report : own;
  r = RankReport{};
  run<LaplaceKernel>(comm_, *b_, o, x, charges, {}, r, cost,
                     [&](Evaluator& e, ReceivedSources<LaplaceKernel>& received) {
                       if (!x.empty()) e.laplace(charges, result, &received);
                       r.local_stats = result.stats;
                       return result.time;
                     });
  r.total = whole.seconds();
}

void RankFmm::biot_savart(const Options& o, std::span<const Vec3d> x, std::span<const Vec3d> alpha,
                          std::span<const double> sigma, BiotSavartResult& result, RankReport* report,
                          BodyCost* cost) {
  core::WallTimer whole;
  RankReport own;
  RankReport& r = report ? *report : own;
  r = RankReport{};
  const std::span<const double> strength(alpha.empty() ? nullptr : &alpha[0].x, 3 * alpha.size());
  run<BiotSavartKernel>(comm_, *b_, o, x, strength, sigma, r, cost,
                        [&](Evaluator& e, ReceivedSources<BiotSavartKernel>& received) {
                          if (!x.empty()) e.biot_savart(alpha, sigma, result, &received);
                          r.local_stats = result.stats;
                          return result.time;
                        });
  r.total = whole.seconds();
}

LaplaceResult laplace(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x,
                      std::span<const double> charges, RankReport* report, BodyCost* cost) {
  return RankFmm(comm).laplace(o, x, charges, report, cost);
}

BiotSavartResult biot_savart(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x,
                             std::span<const Vec3d> alpha, std::span<const double> sigma, RankReport* report,
                             BodyCost* cost) {
  return RankFmm(comm).biot_savart(o, x, alpha, sigma, report, cost);
}

}  // namespace loom::fmm::parallel
