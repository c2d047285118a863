#include "loom/fmm/parallel/model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "loom/comm/communicator.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/list_cache.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/parallel/received_sources.hpp"
#include "loom/fmm/parallel/let_batch.hpp"
#include "loom/fmm/parallel/local_tree.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {

Network parse_network(std::string_view name) {
  if (name == "ndr") return {50e9, 2e-6};
  if (name == "nvlink") return {450e9, 3e-6};
  throw UsageError("model_network = \"" + std::string(name) + "\": expected one of ndr, nvlink");
}

namespace {

struct Part {
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma;
};

std::vector<Part> split_parts(const Partition& p, std::span<const Vec3d> x, std::span<const double> strength,
                              std::span<const double> sigma, int ncomp) {
  std::vector<Part> parts(p.domains.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    Part& q = parts[static_cast<std::size_t>(p.part[i])];
    q.x.push_back(x[i]);
    for (int d = 0; d < ncomp; ++d) q.strength.push_back(strength[i * static_cast<std::size_t>(ncomp) + d]);
    if (!sigma.empty()) q.sigma.push_back(sigma[i]);
  }
  return parts;
}

// The communication into every part: counted LETs from every other part (P^2 walks of the senders' trees).
// Each part's patches (let.hpp), as the ranks' FMM gathers them.
std::vector<std::vector<Patch>> part_patches(const std::vector<detail::TreeData>& trees) {
  std::vector<std::vector<Patch>> out;
  for (const auto& t : trees) {
    std::vector<double> v;
    append_patches(t.tree, patches_per_rank, v);
    out.push_back(read_patches(v));
  }
  return out;
}

// Returns the part that receives the most bytes (the slowest rank's at equal loads: it is timed).
std::size_t count_lets(const std::vector<Part>& parts, const std::vector<detail::TreeData>& trees,
                       const std::vector<std::vector<double>>& cell_sigma, const Options& o, int ncomp, ModelRanks& m) {
  const auto patches = part_patches(trees);
  const auto n = static_cast<std::int64_t>(parts.size());
  std::vector<double> bytes(parts.size(), 0.0), messages(parts.size(), 0.0);
  std::vector<Index> cells(parts.size(), 0), bodies(parts.size(), 0);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < n; ++r) {
    const auto u = static_cast<std::size_t>(r);
    if (parts[u].x.empty()) continue;
    const LetCriterion criterion{o.theta, ncomp == 3 ? o.guard : 0.0};
    for (std::size_t s = 0; s < parts.size(); ++s) {
      if (s == u || parts[s].x.empty()) continue;
      LetSource source;
      source.tree = &trees[s].tree;
      source.order = o.order;
      source.ncomp = ncomp;
      source.cell_sigma = cell_sigma[s];
      const LetCount c = select_let(source, patches[u], criterion, nullptr);
      bytes[u] += 8 * c.doubles(o.order, ncomp);
      messages[u] += c.cells > 0 ? 1 : 0;
      cells[u] += c.cells;
      bodies[u] += c.bodies;
    }
  }
  const auto most = static_cast<std::size_t>(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
  m.max_bytes = bytes[most];
  m.max_messages = *std::max_element(messages.begin(), messages.end());
  m.max_cells = cells[most];
  m.max_let_bodies = bodies[most];
  for (std::size_t r = 0; r < parts.size(); ++r) {
    m.mean_bytes += bytes[r] / double(parts.size());
    m.mean_messages += messages[r] / double(parts.size());
  }
  return most;
}

// One part's local FMM and received field (wall seconds) in one evaluation with the received sources, the tree
// built before; the least of three evaluations after an untimed one (thread start-up, first-touch pages, the
// device's first launches). Without a LET: the local FMM alone. Each evaluation on a fresh evaluator, so that
// the local FMM pays its traversal as the received field pays its walk (the ranks' FMM builds both each step).
struct PartTimes {
  double local = 0, remote = 0, walk = 0;  // walk: the received field's dual traversal, on the host
  double after_far = 0;  // of local: its downward pass, which runs after the received LET is needed
};

template <class K>
PartTimes time_part(const Options& o, const Part& q, const Let* let) {
  const Tree tree = cubic_tree(q.x, o.ncrit);  // as the ranks' FMM builds it
  std::vector<Vec3d> alpha;
  for (std::size_t i = 0; K::ncomp == 3 && i < q.x.size(); ++i)
    alpha.push_back({q.strength[3 * i], q.strength[3 * i + 1], q.strength[3 * i + 2]});
  PartTimes best{1e300, 1e300, 0};
  for (int k = 0; k < 4; ++k) {
    Evaluator e(o);
    e.set_tree(tree);
    ReceivedSources<K> received(o, [&]() -> const Let& { return *let; }, nullptr);
    detail::ExtraSources* extra = let ? &received : nullptr;
    double call = 0;
    Timings time;
    if constexpr (K::ncomp == 1) {
      LaplaceResult r;
      e.laplace(q.strength, r, extra);
      time = r.time;
    } else {
      BiotSavartResult r;
      e.biot_savart(alpha, q.sigma, r, extra);
      time = r.time;
    }
    call = time.call;
    const double remote = received.times().total();
    if (k > 0 && call < best.local + best.remote)
      best = {call - remote, remote, received.times().walk, time.downward};
  }
  return best;
}

PartTimes time_part(Kernel kernel, const Options& o, const Part& q, const Let* let) {
  return kernel == Kernel::laplace ? time_part<LaplaceKernel>(o, q, let) : time_part<BiotSavartKernel>(o, q, let);
}

// The LET that part r receives from all the others (built for real, with every sender's multipoles).
Let received_let(const Options& o, const std::vector<Part>& parts, const std::vector<detail::TreeData>& trees,
                 std::size_t r, int ncomp) {
  const LetCriterion criterion{o.theta, ncomp == 3 ? o.guard : 0.0};
  const auto patches = part_patches(trees);
  std::vector<double> received;
  for (std::size_t s = 0; s < parts.size(); ++s)
    if (s != r && !parts[s].x.empty())
      select_let(local_tree(trees[s].tree, o.order, ncomp, parts[s].strength, parts[s].sigma).source(), patches[r],
                 criterion, &received);
  return parse_let(received, o.order, ncomp);
}

// For part r: the time to plan its LETs for all others and to write them, as the ranks do (let_batch.hpp) in
// `threads` (the ranks' writer: distributed.cpp), into a kept buffer: the second of two writings is timed, as a
// rank's second step writes into the pages of its first.
struct Selection {
  double plan = 0, write = 0, write_fresh = 0;  // write_fresh: the first writing, into fresh pages
  double bytes = 0;                             // written
};
Selection selection_seconds(const Options& o, const std::vector<Part>& parts,
                            const std::vector<detail::TreeData>& trees, std::size_t r, int ncomp, int threads) {
  const LocalTree mine = local_tree(trees[r].tree, o.order, ncomp, parts[r].strength, parts[r].sigma);
  const auto patches = part_patches(trees);
  std::vector<LetMessage> messages;
  for (std::size_t s = 0; s < parts.size(); ++s)
    if (s != r && !parts[s].x.empty()) messages.push_back({static_cast<int>(s), patches[s], {}, {}, {}});
  Selection t;
  core::WallTimer plan;
  plan_lets(mine.t.tree, mine.cell_sigma, {o.theta, ncomp == 3 ? o.guard : 0.0}, messages);
  t.plan = plan.seconds();
  std::vector<double> kept;
  core::WallTimer fresh;
  write_lets(mine.source(), messages, kept, threads);  // the first step's: fresh pages
  t.write_fresh = fresh.seconds();
  core::WallTimer write;
  t.bytes = 8.0 * double(write_lets(mine.source(), messages, kept, threads));
  t.write = write.seconds();
  return t;
}

struct Parts {
  std::vector<Part> parts;
  std::vector<detail::TreeData> trees;
  std::vector<std::vector<double>> cell_sigma;
  std::size_t largest = 0;
};

Parts make_parts(const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
                 std::span<const double> sigma, int ranks, int ncomp) {
  const auto world = comm::Communicator::world();
  const Partition partition = multisection(world.split(world.rank()), x, {}, ranks);
  Parts p;
  p.parts = split_parts(partition, x, strength, sigma, ncomp);
  p.trees.resize(p.parts.size());
  p.cell_sigma.resize(p.parts.size());
  for (std::size_t s = 0; s < p.parts.size(); ++s) {
    p.trees[s].tree = cubic_tree(p.parts[s].x, o.ncrit);
    if (ncomp == 3 && !p.parts[s].x.empty()) p.cell_sigma[s] = detail::cell_max_sigma(p.trees[s].tree, p.parts[s].sigma);
    if (p.parts[s].x.size() > p.parts[p.largest].x.size()) p.largest = s;
  }
  return p;
}

// n bodies in a cube as the bench generates them (strengths uniform in [-1, 1), Biot-Savart's core radius the
// mean spacing), in `ranks` parts.
Parts cube_parts(const Options& o, Index n, int ranks, int ncomp) {
  const auto x = make_positions(Distribution::cube, n, 1);
  const auto strength = make_uniform(n * ncomp, -1, 1, 2);
  std::vector<double> sigma;
  if (ncomp == 3) sigma.assign(static_cast<std::size_t>(n), 2 / std::cbrt(double(n)));  // the mean spacing
  return make_parts(o, x, strength, sigma, ranks, ncomp);
}

}  // namespace

ModelRanks model_ranks(Kernel kernel, const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
                       std::span<const double> sigma, int ranks, int writer_threads) {
  LOOM_REQUIRE(ranks >= 1, "model_ranks: ranks must be >= 1");
  const int ncomp = kernel == Kernel::laplace ? 1 : 3;
  const Parts p = make_parts(o, x, strength, sigma, ranks, ncomp);
  ModelRanks m;
  m.ranks = ranks;
  m.ncrit = o.ncrit;
  m.bodies = static_cast<Index>(x.size());
  m.max_bodies = static_cast<Index>(p.parts[p.largest].x.size());
  m.imbalance = double(m.max_bodies) * ranks / double(std::max<Index>(1, m.bodies));
  const std::size_t timed = count_lets(p.parts, p.trees, p.cell_sigma, o, ncomp, m);
  m.timed_bodies = static_cast<Index>(p.parts[timed].x.size());
  std::optional<Let> let;
  if (ranks > 1) {
    const Selection t = selection_seconds(o, p.parts, p.trees, timed, ncomp, writer_threads);
    m.plan = t.plan;
    m.select = t.plan + t.write;
    m.select_fresh = t.plan + t.write_fresh;
    m.written_bytes = t.bytes;
    let = received_let(o, p.parts, p.trees, timed, ncomp);
  }
  const PartTimes t = time_part(kernel, o, p.parts[timed], let ? &*let : nullptr);
  m.local = t.local;
  m.remote = t.remote;
  m.walk = t.walk;
  m.after_far = t.after_far;
  m.one_rank_local = m.local * double(m.bodies) / (double(ranks) * double(std::max<Index>(1, m.timed_bodies)));
  return m;
}

ModelRanks model_interior(Kernel kernel, const Options& o, Index bodies_per_part) {
  const int ncomp = kernel == Kernel::laplace ? 1 : 3;
  const Index n = 27 * bodies_per_part;
  Options host = o;
  host.backend = core::Backend::cpu;
  const Parts p = cube_parts(host, n, 27, ncomp);
  ModelRanks m;
  m.ranks = 27;
  m.ncrit = o.ncrit;
  m.bodies = n;
  const std::size_t centre = count_lets(p.parts, p.trees, p.cell_sigma, host, ncomp, m);
  m.max_bodies = m.timed_bodies = static_cast<Index>(p.parts[centre].x.size());
  const Selection select = selection_seconds(host, p.parts, p.trees, centre, ncomp, core::cpu_threads());
  m.plan = select.plan;
  m.select = select.plan + select.write;
  m.select_fresh = select.plan + select.write_fresh;
  m.written_bytes = select.bytes;
  const Let let = received_let(host, p.parts, p.trees, centre, ncomp);
  const PartTimes t = time_part(kernel, o, p.parts[centre], &let);
  m.local = m.one_rank_local = t.local;
  m.remote = t.remote;
  m.walk = t.walk;
  m.after_far = t.after_far;
  return m;
}

RemoteProbe probe_remote(Kernel kernel, const Options& o, Index bodies_per_part) {
  const int ncomp = kernel == Kernel::laplace ? 1 : 3;
  const Parts p = cube_parts(o, 2 * bodies_per_part, 2, ncomp);
  const Let let = received_let(o, p.parts, p.trees, p.largest, ncomp);
  Options host = o, device = o;
  host.backend = core::Backend::cpu;
  device.backend = core::Backend::cuda;
  const PartTimes h = time_part(kernel, host, p.parts[p.largest], &let);
  const PartTimes d = time_part(kernel, device, p.parts[p.largest], &let);
  return {static_cast<Index>(p.parts[p.largest].x.size()), h.local, h.remote, d.local, d.remote, h.walk, d.walk};
}

double received_growth(const ModelRanks& m, double scale) {
  if (m.max_let_bodies <= 0 || m.max_bodies <= 0) return std::pow(scale, 2.0 / 3.0);
  const double side = std::cbrt(double(m.max_bodies) / m.ncrit);
  const double ratio = double(m.max_let_bodies) / double(m.max_bodies);  // shell over domain, in leaves
  const double width = side * (std::cbrt(1 + ratio) - 1) / 2;
  const double target = side * std::cbrt(scale);
  auto shell = [&](double s) { return std::pow(s + 2 * width, 3) - std::pow(s, 3); };
  return shell(target) / shell(side);
}

namespace {

// (1): the plan on the rank's thread, then the writing and the exchange beside the local FMM up to the point
// where the received LET is needed (the local FMM's `hidden` seconds), then the rest of the local FMM and the
// received field.
void add_up(ModelStep& s, double hidden) {
  s.hidden = std::min(hidden, s.local);
  s.step = s.plan + std::max(s.hidden, s.select - s.plan + s.communication) + (s.local - s.hidden) + s.remote;
  s.step_whole = s.plan + std::max(s.local, s.select - s.plan + s.communication) + s.remote;
}

}  // namespace

ModelStep model_step(const ModelRanks& m, const Network& net, double scale, double local_seconds,
                     bool remote_on_host, double remote_factor) {
  ModelStep s;
  const double surface = received_growth(m, scale);                                       // (3)
  const double speed = local_seconds > 0 ? local_seconds / (m.one_rank_local * scale) : 1;  // other machine
  const double one_rank = m.one_rank_local * scale * speed;
  s.local = m.local * scale * speed;
  s.select = m.select * surface * (remote_on_host ? 1 : speed);
  s.plan = m.plan * surface * (remote_on_host ? 1 : speed);
  s.remote = m.remote * surface * (remote_on_host ? 1 : speed * remote_factor);  // (5)
  s.communication = m.max_messages * net.latency + m.max_bytes * surface / net.bandwidth;
  add_up(s, s.local * (m.local > 0 ? 1 - m.after_far / m.local : 1));  // (1)
  s.efficiency = one_rank / s.step;                                     // (2)
  s.efficiency_whole = one_rank / s.step_whole;
  return s;
}

ModelStep model_step_interior(const ModelRanks& ranks, const ModelRanks& interior, const Network& net,
                              double target_bodies, double target_seconds) {
  LOOM_REQUIRE(interior.written_bytes > 0 && interior.local > 0, "model_step_interior: the probe wrote nothing");
  ModelStep s;
  const double scale = target_bodies / double(interior.timed_bodies);
  const double growth = received_growth(interior, scale);                                      // (3)
  s.local = target_seconds * ranks.imbalance;
  s.volume_near = interior.max_bytes * growth;                                                // (7)
  s.volume = s.volume_near + ranks.max_bytes;
  s.plan = interior.plan * growth + ranks.plan;
  s.write = s.volume * (interior.select - interior.plan) / interior.written_bytes;             // (8)
  s.select = s.plan + s.write;
  s.remote = target_seconds * (interior.remote / interior.local) * growth / scale;             // (6)
  s.communication = ranks.max_messages * net.latency + s.volume / net.bandwidth;
  add_up(s, s.local * (1 - interior.after_far / interior.local));                             // (1)
  s.efficiency = target_seconds / s.step;                                                     // (2)
  s.efficiency_whole = target_seconds / s.step_whole;
  return s;
}

}  // namespace loom::fmm::parallel
