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
#include "loom/fmm/parallel/local_tree.hpp"

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

// The LETs for every other rank that holds bodies, packed in rank order, and the counts per rank; periodic: of
// the 27 near images of this rank's tree, each shifted where it lies.
std::vector<double> select_all(const comm::Communicator& comm, const LocalTree& local, const Options& o,
                               std::vector<int>& counts, RankReport& report) {
  const std::vector<std::vector<Patch>> patches = rank_patches(comm, local.t.tree);
  const LetSource source = local.source();
  const LetCriterion criterion{o.theta, local.cell_sigma.empty() ? 0.0 : o.guard};
  std::vector<double> send;
  counts.assign(static_cast<std::size_t>(comm.size()), 0);
  for (int r = 0; r < comm.size(); ++r) {
    const auto& receiver = patches[static_cast<std::size_t>(r)];
    if (r == comm.rank() || receiver.empty()) continue;
    const std::size_t before = send.size();
    for (int s = o.periodic ? 0 : no_shift; s <= (o.periodic ? 26 : no_shift); ++s) {
      const LetCount c = select_let(source, receiver, criterion, &send, shift_vector(s, o.period));
      report.let_cells_sent += c.cells;
      report.let_bodies_sent += c.bodies;
    }
    counts[static_cast<std::size_t>(r)] = static_cast<int>(send.size() - before);
  }
  report.let_doubles_sent = double(send.size());
  return send;
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

// The whole box's moments: each rank's bodies' moments about the box centre, summed over the ranks.
detail::BoxMoments global_moments(const comm::Communicator& comm, const Options& o, const LocalTree& tree) {
  detail::BoxMoments m = detail::box_moments(o, tree.t, tree.ncomp, tree.strength);
  const std::span<double> terms(&m.multipole.data()->re, 2 * m.multipole.size());
  comm::all_reduce(comm, terms, comm::Reduce::sum);
  comm::all_reduce(comm, m.second, comm::Reduce::sum);
  return m;
}

// Every body's cost (4) from the local lists, the received work and the local kernels' times.
void measure_cost(const comm::Communicator& comm, const Options& o, const LocalTree& tree, const RankReport& report,
                  BodyCost& cost) {
  const Tree& t = tree.t.tree;
  CellWork work = local_work(o, t, tree.cell_sigma);
  if (!cost.rates.given()) cost.rates = measured_rates(comm, t, work, report.local_time);
  work.add(report.remote_pairs.work);
  cost.seconds = body_cost(t, work, cost.rates);
}

// The pipeline for kernel K: `local` runs the local FMM (Evaluator&) with the received sources, returning its
// times; the LETs travel during its upward pass and M2L.
template <class K, class Local>
void run(const comm::Communicator& comm, const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
         std::span<const double> sigma, RankReport& report, BodyCost* cost, Local&& local) {
  core::WallTimer build;
  Evaluator e(local_options(o));
  if (o.tree_on_backend) {
    e.set_positions(x);
  } else {
    e.set_tree(cubic_tree(x, o.ncrit));  // a rank's domain is often elongated; its cells need not be
  }
  const LocalTree tree = local_tree(e.tree(), o.order, K::ncomp, strength, sigma, o.backend);
  std::optional<detail::BoxMoments> far;
  if (o.periodic) far = global_moments(comm, o, tree);
  std::vector<int> counts;
  std::vector<double> send = select_all(comm, tree, o, counts, report);
  report.let_build = build.seconds();
  core::WallTimer post;
  comm::AllToAll exchange(comm, std::move(send), std::move(counts));
  report.communication = post.seconds();
  std::optional<Let> let;
  double wait = 0;
  ReceivedSources<K> received(
      o,
      [&]() -> const Let& {
        core::WallTimer waiting;
        const std::vector<double>& data = exchange.wait();
        wait = waiting.seconds();
        let = parse_let(data, o.order, K::ncomp);
        return *let;
      },
      far ? &*far : nullptr);
  core::WallTimer local_timer;
  report.local_time = local(e, received);
  received.let();  // a rank without bodies evaluates nothing but completes the exchange
  const double call = local_timer.seconds();
  report.remote_time = received.times();
  report.communication += wait;
  report.remote = report.remote_time.total() + report.remote_time.wait - wait;  // with the parsing
  report.local = call - report.remote_time.wait - report.remote_time.total();
  report.let_cells_received = static_cast<Index>(let->cells.size());
  report.let_bodies_received = static_cast<Index>(let->x.size());
  report.remote_pairs = received.counts();
  report.bodies = static_cast<Index>(x.size());
  if (cost) measure_cost(comm, local_options(o), tree, report, *cost);
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
