// The distributed evaluation (distributed.hpp): one template over the kernel for the pipeline; the two public
// calls only say how a kernel's strengths and results are laid out.
#include "loom/fmm/parallel/distributed.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "loom/comm/collectives.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/parallel/let.hpp"
#include "loom/fmm/parallel/let_batch.hpp"
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

// What this rank sends every other rank that holds bodies (periodic: the LETs of the 27 near images of its tree,
// each shifted where it lies), planned before the upward pass and written after it; the doubles per rank.
struct LetPlans {
  std::vector<std::vector<Patch>> patches;  // every rank's (the messages' receivers point into them)
  std::vector<LetMessage> messages;         // in rank order
  std::vector<int> counts;
};

LetPlans plan_all(const comm::Communicator& comm, const Tree& tree, std::span<const double> cell_sigma,
                  const Options& o, int ncomp, RankReport& report) {
  LetPlans plans;
  core::WallTimer gather;  // a collective: it waits for the slowest rank's tree
  plans.patches = rank_patches(comm, tree);
  report.communication = gather.seconds();
  for (int r = 0; r < comm.size(); ++r) {
    const auto& receiver = plans.patches[static_cast<std::size_t>(r)];
    if (r == comm.rank() || receiver.empty()) continue;
    for (int s = o.periodic ? 0 : no_shift; s <= (o.periodic ? 26 : no_shift); ++s)
      plans.messages.push_back({r, receiver, shift_vector(s, o.period), {}, {}});
  }
  plan_lets(tree, cell_sigma, {o.theta, cell_sigma.empty() ? 0.0 : o.guard}, plans.messages);
  plans.counts.assign(static_cast<std::size_t>(comm.size()), 0);
  for (const LetMessage& m : plans.messages) {
    report.let_cells_sent += m.count.cells;
    report.let_bodies_sent += m.count.bodies;
    plans.counts[static_cast<std::size_t>(m.rank)] += static_cast<int>(m.count.doubles(o.order, ncomp));
  }
  return plans;
}

// The planned LETs written with the multipoles of the upward pass (on the GPU only the sent cells' are
// gathered and copied back), packed in rank order. `strength` and `sigma` in the caller's order.
std::vector<double> write_all(const LetPlans& plans, const detail::TreeData& t, const core::Array<detail::C>& multipoles,
                              const Options& o, int ncomp, std::span<const double> strength,
                              std::span<const double> sigma, std::span<const double> cell_sigma) {
  if (plans.messages.empty()) return {};
  std::vector<int> slot;
  const std::vector<int> cells = sent_cells(plans.messages, t.tree.cells().size(), slot);
  const std::vector<detail::C> sent =
      detail::cell_expansions(o.backend, multipoles, cells, ncomp * term_count(o.order));
  LetSource source;
  source.tree = &t;
  source.order = o.order;
  source.ncomp = ncomp;
  source.strength = strength.data();
  source.sigma = sigma;
  source.body_order = t.tree.order().data();
  source.multipoles = sent.data();
  source.multipole_slot = slot.data();
  source.cell_sigma = cell_sigma;
  return write_lets(source, plans.messages);
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
// times; the LETs are planned before it, written and posted after its upward pass, and travel during its M2L.
template <class K, class Local>
void run(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
         std::span<const double> sigma, RankReport& report, BodyCost* cost, Local&& local) {
  core::WallTimer tree_timer;
  Evaluator e(local_options(o));
  if (o.tree_on_backend) {
    e.set_positions(x);
  } else {
    e.set_tree(cubic_tree(x, o.ncrit));  // a rank's domain is often elongated; its cells need not be
  }
  report.tree = tree_timer.seconds();
  core::WallTimer plan_timer;
  const std::vector<double> cell_sigma = sigma.empty() ? std::vector<double>() : detail::cell_max_sigma(e.tree(), sigma);
  const LetPlans plans = plan_all(comm, e.tree(), cell_sigma, o, K::ncomp, report);
  report.let_build = plan_timer.seconds() - report.communication;
  // After the upward pass (or at once on a rank without bodies): the far images' moments, the LETs written
  // with the pass's multipoles and posted; and the local lists' work per cell for the costs.
  std::optional<detail::BoxMoments> far;
  if (o.periodic) far.emplace();
  std::optional<comm::AllToAll> exchange;
  CellWork work;
  double write_seconds = 0, post_seconds = 0;
  const auto send = [&](const detail::TreeData& t, const InteractionLists& lists,
                        const core::Array<detail::C>& multipoles) {
    core::WallTimer write;
    if (far) *far = global_moments(comm, o, t, K::ncomp, strength);
    std::vector<double> data = write_all(plans, t, multipoles, o, K::ncomp, strength, sigma, cell_sigma);
    if (cost) work = local_work(e.tree(), lists);  // t.tree, or an empty tree's on a rank without bodies
    write_seconds = write.seconds();
    core::WallTimer post;
    exchange.emplace(comm, std::move(data), plans.counts);
    post_seconds = post.seconds();
  };
  std::optional<Let> let;
  double wait = 0;
  ReceivedSources<K> received(
      o,
      [&]() -> const Let& {
        core::WallTimer waiting;
        const std::vector<double>& data = exchange->wait();
        wait = waiting.seconds();
        let = parse_let(data, o.order, K::ncomp);
        return *let;
      },
      far ? &*far : nullptr, send);
  core::WallTimer local_timer;
  report.local_time = local(e, received);
  if (!exchange) send(detail::TreeData{}, InteractionLists{}, core::Array<detail::C>{});  // a rank without bodies
  received.let();
  const double call = local_timer.seconds();
  report.remote_time = received.times();
  report.let_build += write_seconds;
  report.communication += post_seconds + wait;
  report.remote = report.remote_time.total() + report.remote_time.wait - wait;  // with the parsing
  report.local = call - report.remote_time.wait - report.remote_time.total() - write_seconds - post_seconds;
  report.let_cells_received = static_cast<Index>(let->cells.size());
  report.let_bodies_received = static_cast<Index>(let->x.size());
  report.remote_pairs = received.counts();
  report.bodies = static_cast<Index>(x.size());
  if (cost) {
    core::WallTimer cost_timer;
    measure_cost(comm, e.tree(), std::move(work), report, *cost);
    report.cost = cost_timer.seconds();
  }
}

}  // namespace

LaplaceResult laplace(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x,
                      std::span<const double> charges, RankReport* report, BodyCost* cost) {
  RankReport own;
  RankReport& r = report ? *report : own;
  r = RankReport{};
  LaplaceResult result;
  run<LaplaceKernel>(comm, o, x, charges, {}, r, cost, [&](Evaluator& e, ReceivedSources<LaplaceKernel>& received) {
    if (!x.empty()) e.laplace(charges, result, &received);
    r.local_stats = result.stats;
    return result.time;
  });
  return result;
}

BiotSavartResult biot_savart(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x,
                             std::span<const Vec3d> alpha, std::span<const double> sigma, RankReport* report,
                             BodyCost* cost) {
  RankReport own;
  RankReport& r = report ? *report : own;
  r = RankReport{};
  BiotSavartResult result;
  const std::span<const double> strength(alpha.empty() ? nullptr : &alpha[0].x, 3 * alpha.size());
  run<BiotSavartKernel>(comm, o, x, strength, sigma, r, cost,
                        [&](Evaluator& e, ReceivedSources<BiotSavartKernel>& received) {
                          if (!x.empty()) e.biot_savart(alpha, sigma, result, &received);
                          r.local_stats = result.stats;
                          return result.time;
                        });
  return result;
}

}  // namespace loom::fmm::parallel
