// The resident evaluator (resident.hpp). On the CUDA backend: the backend tree and lists, the kernels' view of
// them made on the device (the targets with pairs by stream compaction, the largest leaf by a reduction), the
// passes of evaluate.hpp's order run by gpu/kernels.hpp's kernels, the strengths gathered into tree order and
// the results scattered back on the device. On the CPU backend: the same tree, re-fit and rebuild rule, the
// passes by fmm::Evaluator over the tree's host form.
#include "loom/fmm/resident.hpp"

#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/engine/l2p_at_bodies.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/gpu/box_moments.hpp"
#include "loom/fmm/gpu/device_lists.hpp"
#include "loom/fmm/gpu/device_tree.hpp"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/gpu/thrust_policy.hpp"
#include "loom/fmm/list_cache.hpp"
#include "loom/fmm/tree/reorder.hpp"

namespace loom::fmm {

using core::Array;
using core::Backend;
using C = Complex<double>;

namespace {

constexpr core::Where dev = core::Where::device;
constexpr double inv_4pi = 0.079577471545947667884;

template <class T>
void count_copies(BusTraffic& bus, const Array<T>& a) {
  const core::TransferCounts t = a.transfers();
  for (std::size_t k = 0; k < t.host_to_device + t.device_to_host; ++k) bus.add(a.bytes());
}

// One kernel's lists on the device and the kernels' view of them.
struct ResidentLists {
  bool valid = false;
  gpu::BackendLists lists;
  Array<double> cell_sigma;  // guarded kernels: the cells' largest core radii the lists were traversed for
  Array<int> m2l_targets, p2p_targets;
  gpu::TreeView view;
  double seconds = 0;
  double p2p_interactions = 0;  // body pairs of the near field, sum over P2P pairs of the two leaves' counts
  void count(BusTraffic& bus) const {
    for (const auto* a : {&lists.m2l_offset, &lists.p2p_offset}) count_copies(bus, *a);
    for (const auto* a : {&lists.m2l_source, &lists.p2p_source, &m2l_targets, &p2p_targets}) count_copies(bus, *a);
    for (const auto* a : {&lists.m2l_shift, &lists.p2p_shift}) count_copies(bus, *a);
    count_copies(bus, cell_sigma);
  }
};

struct LeafSize {
  const Cell* cells;
  LOOM_HOST_DEVICE int operator()(int c) const { return static_cast<int>(cells[c].count); }
};

// The work of one kernel's first evaluation after a build, the rebuild rule's reference (< 0: not yet measured).
struct FreshWork {
  double p2p = -1, m2l = -1;
};

}  // namespace

struct ResidentEvaluator::State {
  Options o;
  Options given;              // the constructor's options (the error-target mode's others)
  double error_target = 0;    // 0: off
  BudgetChoice budget;
  std::unique_ptr<gpu::BackendTree> tree;
  ResidentLists laplace, biot_savart;
  double growth = 1;
  int builds = 0, refits = 0;
  FreshWork fresh_laplace, fresh_biot_savart;
  double work_ratio = 1;
  double built_leaf_radius = 0;  // the largest leaf radius of the last build
  double build_seconds = 0;
  Timings time;
  Statistics stats;
  BusTraffic bus;  // copies of arrays no longer held, and the explicit reads
  // the CPU form
  std::unique_ptr<Evaluator> host;
  bool host_stale = true;
  LaplaceResult laplace_result;
  BiotSavartResult biot_savart_result;

  Backend b() const { return o.backend; }
  Index n() const { return tree ? tree->n : 0; }
  void count_tree(BusTraffic& into) const {
    if (!tree) return;
    count_copies(into, tree->cells);
    count_copies(into, tree->order);
    count_copies(into, tree->pos);
    count_copies(into, tree->leaves);
    count_copies(into, tree->leaf_of_body);
  }
  void drop_lists() {
    laplace.count(bus);
    biot_savart.count(bus);
    laplace = ResidentLists{};
    biot_savart = ResidentLists{};
  }
  template <class T>
  T read_back(const T* device) {
    T v;
    cuda::copy_device_to_host(&v, device, sizeof(T));
    bus.add(sizeof(T));
    return v;
  }
};

namespace {

using State = ResidentEvaluator::State;

// Periodic bodies must lie in the box (one flag read back).
void check_inside_box(State& s, const Vec3d* x, Index n) {
  if (!s.o.periodic || n == 0) return;
  const Vec3d lo = s.o.box_lower;
  const double L = s.o.period;
  const double outside = core::parallel_max(s.b(), n, [=] LOOM_HOST_DEVICE(Index i) {
    for (int d = 0; d < 3; ++d) {
      const double u = x[i][d] - lo[d];
      if (!(u >= 0 && u < L)) return 1.0;
    }
    return 0.0;
  });
  if (s.b() == Backend::cuda) s.bus.add(sizeof(double));
  if (outside > 0) throw UsageError("fmm: a body lies outside the periodic box");
}

// The error-target mode's parameters for n bodies; the CPU form's evaluator made again when they changed.
void apply_budget(State& s, Index n) {
  if (s.error_target <= 0) return;
  s.budget = choose_for_error(s.error_target, n);
  const Options o = with_choice(s.given, s.budget);
  if (o.order != s.o.order || o.theta != s.o.theta || o.ncrit != s.o.ncrit) s.host.reset();
  s.o = o;
  s.o.tree_on_backend = false;
}

// The largest radius of the tree's leaves (one value read back).
double largest_leaf_radius(State& s) {
  const gpu::BackendTree& t = *s.tree;
  const core::Where w = gpu::side(s.b());
  const Cell* cells = t.cells.read(w);
  const int* leaves = t.leaves.read(w);
  if (s.b() == Backend::cuda) s.bus.add(sizeof(double));
  return core::parallel_max(s.b(), static_cast<Index>(t.leaves.size()),
                            [=] LOOM_HOST_DEVICE(Index k) { return cells[leaves[k]].radius; });
}

// Periodic: how far the tree's copy holds a body outside the box (0 inside), one value read back. The re-fit keeps
// crossed bodies beside their leaves, so a coherent drift carries whole leaves out; the far images' expansions
// about the box centre then converge more slowly (4000 bodies, 8 in a box of 2: error 1.2e-5 at drifts up to a
// tenth of the period, 1.1e-4 at a fifth, 1.3e-3 at 0.3, with the work unchanged).
double farthest_outside_box(State& s) {
  if (!s.o.periodic || s.n() == 0) return 0;
  const Vec3d lo = s.o.box_lower;
  const double L = s.o.period;
  const Vec3d* x = s.tree->pos.read(gpu::side(s.b()));
  if (s.b() == Backend::cuda) s.bus.add(sizeof(double));
  return core::parallel_max(s.b(), s.n(), [=] LOOM_HOST_DEVICE(Index i) {
    double out = 0;
    for (int d = 0; d < 3; ++d) out = fmax(out, fmax(lo[d] - x[i][d], x[i][d] - (lo[d] + L)));
    return out;
  });
}

void build(State& s, const Vec3d* x, Index n) {
  core::Stopwatch watch(s.b());
  watch.start();
  apply_budget(s, n);
  s.count_tree(s.bus);
  s.drop_lists();
  s.tree = std::make_unique<gpu::BackendTree>(gpu::build_tree(s.b(), x, n, s.o.ncrit));
  s.built_leaf_radius = largest_leaf_radius(s);
  s.growth = 1;
  s.fresh_laplace = s.fresh_biot_savart = FreshWork{};
  s.work_ratio = 1;
  ++s.builds;
  s.host_stale = true;
  s.build_seconds = watch.stop();
}

// The kernels' view of a tree and its lists, made on the device.
void make_view(State& s, ResidentLists& r) {
  const gpu::BackendTree& t = *s.tree;
  gpu::TreeView& v = r.view;
  v = gpu::TreeView{};
  const int cells = t.cell_count();
  v.cells = t.cells.read(dev);
  v.cell_count = cells;
  auto compact = [&](const Array<Index>& offset, Array<int>& out) {
    gpu::PairTargets targets = gpu::pair_targets(Backend::cuda, offset, cells);
    s.bus.add(sizeof(Index));  // the count of targets
    out = std::move(targets.cells);
    return targets.count;
  };
  v.m2l_offset = r.lists.m2l_offset.read(dev);
  v.m2l_source = r.lists.m2l_source.read(dev);
  v.m2l_shift = r.lists.m2l_shift.read(dev);
  v.m2l_target_count = compact(r.lists.m2l_offset, r.m2l_targets);
  v.m2l_targets = r.m2l_targets.read(dev);
  v.p2p_offset = r.lists.p2p_offset.read(dev);
  v.p2p_source = r.lists.p2p_source.read(dev);
  v.p2p_shift = r.lists.p2p_shift.read(dev);
  v.p2p_target_count = compact(r.lists.p2p_offset, r.p2p_targets);
  v.p2p_targets = r.p2p_targets.read(dev);
  const int* leaves = t.leaves.read(dev);
  v.max_leaf = thrust::transform_reduce(gpu::device_policy(), leaves, leaves + t.leaves.size(), LeafSize{v.cells}, 0,
                                        thrust::maximum<int>());
  s.bus.add(sizeof(int));
  v.period = s.o.periodic ? s.o.period : 0.0;
}

// Kernel lists for the tree, traversed again when stale (guarded: when the cells' largest core radii changed).
ResidentLists& lists_for(State& s, ResidentLists& r, const double* sigma) {
  Array<double> cell_sigma;
  if (sigma != nullptr) {
    cell_sigma = gpu::cell_max_sigma(*s.tree, sigma);
    if (r.valid) {
      const double* a = cell_sigma.read(dev);
      const bool same = thrust::equal(gpu::device_policy(), a, a + s.tree->cell_count(), r.cell_sigma.read(dev));
      s.bus.add(sizeof(bool));
      if (same) return r;
    }
  } else if (r.valid) {
    return r;
  }
  core::Stopwatch watch(Backend::cuda);
  watch.start();
  r.count(s.bus);
  r = ResidentLists{};
  const TraversalOptions t = detail::traversal_options(s.o, true, sigma ? s.o.guard : 0.0,
                                                       sigma ? cell_sigma.read(dev) : nullptr);
  r.lists = gpu::traverse_tree(*s.tree, t);
  r.cell_sigma = std::move(cell_sigma);
  make_view(s, r);
  r.p2p_interactions = gpu::p2p_interactions(*s.tree, r.lists);
  s.bus.add(sizeof(double));  // the sum
  r.valid = true;
  r.seconds = watch.stop();
  return r;
}

// The far images' field into the locals: the box moments summed on the device, the top cells read back.
void add_images(State& s, int ncomp, const Array<double>& strength, Array<C>& locals) {
  const Options& o = s.o;
  if (o.image_levels == 0 && !(o.tinfoil && o.order >= 2)) return;
  const gpu::BackendTree& t = *s.tree;
  detail::BoxMoments m = gpu::box_moments_on(Backend::cuda, o, t.n, t.pos.read(dev), strength.read(dev), ncomp);
  s.bus.add(m.multipole.size() * sizeof(C) + m.second.size() * sizeof(double));
  const int top = t.level_offsets[static_cast<std::size_t>(detail::far_image_level(t.levels())) + 1];
  std::vector<Cell> cells(static_cast<std::size_t>(top));
  cuda::copy_device_to_host(cells.data(), t.cells.read(dev), cells.size() * sizeof(Cell));
  s.bus.add(cells.size() * sizeof(Cell));
  detail::add_far_images(o, cells, t.levels(), ncomp, std::move(m), locals);
  s.bus.add(cells.size() * static_cast<std::size_t>(ncomp * term_count(o.order)) * sizeof(C));  // the cells' terms
}

void far_field_at_bodies(LaplaceKernel, State& s, const gpu::TreeView& v, const Array<double>&, const Array<C>& L,
                         Array<double>& out) {
  const gpu::BackendTree& t = *s.tree;
  gpu::l2p_laplace(v, s.o.order, t.leaves.read(dev), static_cast<int>(t.leaves.size()), t.n, t.pos.read(dev),
                   L.read(dev), out.write(dev));
}

void far_field_at_bodies(BiotSavartKernel, State& s, const gpu::TreeView&, const Array<double>& strength_a,
                         const Array<C>& L, Array<double>& out_a) {
  detail::l2p_at_bodies<BiotSavartKernel>(Backend::cuda, s.o.order, s.tree->n, *s.tree, strength_a, L, out_a);
}

void near_field(LaplaceKernel, State& s, const gpu::TreeView& v, const Array<double>& q, const Array<double>&,
         Array<double>& out) {
  gpu::p2p_laplace(v, s.n(), s.tree->pos.read(dev), q.read(dev), out.read_write(dev), s.o.precision);
}

void near_field(BiotSavartKernel, State& s, const gpu::TreeView& v, const Array<double>& a, const Array<double>& sigma,
         Array<double>& out) {
  gpu::p2p_biot_savart(v, s.n(), s.tree->pos.read(dev), a.read(dev), sigma.read(dev), out.read_write(dev),
                       s.o.precision);
}

// evaluate.hpp's passes on the device, each phase timed apart; out: K::nout components, tree order.
template <class K>
void passes(State& s, const ResidentLists& r, const Array<double>& strength, const Array<double>& sigma,
            Array<double>& out) {
  const gpu::BackendTree& t = *s.tree;
  const gpu::TreeView& v = r.view;
  const int p = s.o.order;
  const auto& lo = t.level_offsets;
  const std::size_t terms = static_cast<std::size_t>(t.cell_count()) * K::ncomp * term_count(p);
  Array<C> M(terms), L(terms);
  core::Stopwatch watch(Backend::cuda);
  watch.start();
  gpu::p2m(v, p, K::ncomp, t.leaves.read(dev), static_cast<int>(t.leaves.size()), t.n, t.pos.read(dev),
           strength.read(dev), M.write(dev));
  for (int level = t.levels() - 2; level >= 0; --level)
    gpu::m2m_level(v, p, K::ncomp, lo[level], lo[level + 1] - lo[level], M.read_write(dev));
  s.time.upward = watch.stop();
  watch.start();
  detail::fill_zero(Backend::cuda, L);
  gpu::m2l(v, p, K::ncomp, M.read(dev), L.read_write(dev), s.o.precision != Precision::double_,
           s.o.m2l_block > 0 ? s.o.m2l_block : default_m2l_block(p, K::ncomp));
  if (s.o.periodic) add_images(s, K::ncomp, strength, L);
  s.time.m2l = watch.stop();
  watch.start();
  for (int level = 1; level < t.levels(); ++level)
    gpu::l2l_level(v, p, K::ncomp, lo[level], lo[level + 1] - lo[level], L.read_write(dev));
  far_field_at_bodies(K{}, s, v, strength, L, out);
  s.time.downward = watch.stop();
  watch.start();
  near_field(K{}, s, v, strength, sigma, out);
  s.time.p2p = watch.stop();
  count_copies(s.bus, M);
  count_copies(s.bus, L);
}

void begin_call(State& s, const char* what) {
  LOOM_REQUIRE(s.tree != nullptr, std::string("fmm::ResidentEvaluator::") + what + ": set_positions first");
  s.time = Timings{};
  s.time.build = s.build_seconds;
}

void set_stats(State& s, const ResidentLists& r) {
  const gpu::BackendTree& t = *s.tree;
  s.stats = Statistics{};
  s.stats.bodies = t.n;
  s.stats.cells = t.cell_count();
  s.stats.leaves = static_cast<int>(t.leaves.size());
  s.stats.levels = t.levels();
  s.stats.m2l_pairs = r.lists.m2l_count;
  s.stats.p2p_pairs = r.lists.p2p_count;
  s.stats.p2p_interactions = r.p2p_interactions;
}

double ratio(double now, double fresh) { return fresh > 0 ? now / fresh : (now > 0 ? HUGE_VAL : 1.0); }

// The rebuild rule's measure (resident.hpp's work_ratio), after an evaluation whose stats are set.
void note_work(State& s, FreshWork& fresh) {
  const double p2p = s.stats.p2p_interactions, m2l = double(s.stats.m2l_pairs);
  if (fresh.p2p < 0) fresh = {p2p, m2l};
  s.work_ratio = std::max(ratio(p2p, fresh.p2p), ratio(m2l, fresh.m2l));
}

// The CPU form: fmm::Evaluator over the tree's host form (set again after each build or re-fit).
Evaluator& host_evaluator(State& s) {
  if (!s.host) s.host = std::make_unique<Evaluator>(s.o);
  if (s.host_stale) {
    s.host->set_tree(gpu::to_host_tree(*s.tree));
    s.host_stale = false;
  }
  return *s.host;
}

}  // namespace

ResidentEvaluator::ResidentEvaluator(Options options) : s_(std::make_unique<State>()) {
  validate(options);
  s_->given = options;
  s_->o = options;
  s_->o.tree_on_backend = false;  // the CPU form's Evaluator takes its tree from here
}

void ResidentEvaluator::set_error_target(double target) {
  if (target != 0) choose_for_error(target, std::max<Index>(s_->n(), 1));  // refused now, not at the next build
  s_->error_target = target;
  if (target == 0) {
    s_->drop_lists();  // traversed for the budget's theta
    s_->budget = BudgetChoice{};
    s_->o = s_->given;
    s_->o.tree_on_backend = false;
    s_->host.reset();
  }
}

const BudgetChoice& ResidentEvaluator::budget() const { return s_->budget; }
ResidentEvaluator::~ResidentEvaluator() = default;
ResidentEvaluator::ResidentEvaluator(ResidentEvaluator&&) noexcept = default;
ResidentEvaluator& ResidentEvaluator::operator=(ResidentEvaluator&&) noexcept = default;

Index ResidentEvaluator::size() const { return s_->n(); }
const Options& ResidentEvaluator::options() const { return s_->o; }
const Timings& ResidentEvaluator::time() const { return s_->time; }
const Statistics& ResidentEvaluator::stats() const { return s_->stats; }
double ResidentEvaluator::growth() const { return s_->growth; }
double ResidentEvaluator::work_ratio() const { return s_->work_ratio; }
int ResidentEvaluator::builds() const { return s_->builds; }
int ResidentEvaluator::refits() const { return s_->refits; }

BusTraffic ResidentEvaluator::bus() const {
  BusTraffic b = s_->bus;
  s_->count_tree(b);
  s_->laplace.count(b);
  s_->biot_savart.count(b);
  return b;
}

void ResidentEvaluator::set_positions(const Vec3d* x, Index n) {
  check_inside_box(*s_, x, n);
  build(*s_, x, n);
}

// The rule decides on the last evaluation's work: a traversal of the re-fitted tree would cost what the rule saves.
bool ResidentEvaluator::move_positions(const Vec3d* x, double max_cost) {
  State& s = *s_;
  LOOM_REQUIRE(s.tree != nullptr, "fmm::ResidentEvaluator::move_positions: set_positions first");
  check_inside_box(s, x, s.n());
  if (max_cost < 1 || s.work_ratio > max_cost) {
    build(s, x, s.n());
    return true;
  }
  core::Stopwatch watch(s.b());
  watch.start();
  const double g = gpu::refit(*s.tree, x, s.o.periodic ? s.o.period : 0.0);
  if (s.b() == Backend::cuda) s.bus.add(sizeof(double));  // the largest growth
  s.growth *= std::max(g, 1.0);
  // A leaf past twice the build's largest (a body that jumped, or a wrap the re-fit did not see): the lists would
  // pair it with cells all over the box, past the memory a fresh tree's need; rebuilt before any traversal. And
  // periodic trees whose bodies drifted more than a tenth of the period out of the box (farthest_outside_box).
  if (largest_leaf_radius(s) > 2 * s.built_leaf_radius || farthest_outside_box(s) > 0.1 * s.o.period) {
    build(s, x, s.n());
    return true;
  }
  ++s.refits;
  s.drop_lists();
  s.host_stale = true;
  s.build_seconds = watch.stop();
  return false;
}

void ResidentEvaluator::laplace(const double* charges, double* potential, Vec3d* gradient) {
  State& s = *s_;
  begin_call(s, "laplace");
  const Index n = s.n();
  if (s.b() == Backend::cpu) {
    Evaluator& e = host_evaluator(s);
    e.laplace(std::span<const double>(charges, static_cast<std::size_t>(n)), s.laplace_result);
    std::copy(s.laplace_result.potential.begin(), s.laplace_result.potential.end(), potential);
    std::copy(s.laplace_result.gradient.begin(), s.laplace_result.gradient.end(), gradient);
    s.time = s.laplace_result.time;
    s.stats = s.laplace_result.stats;
    note_work(s, s.fresh_laplace);
    return;
  }
  core::Stopwatch call(Backend::cuda), watch(Backend::cuda);
  call.start();
  ResidentLists& r = lists_for(s, s.laplace, nullptr);
  s.time.traversal = r.seconds;
  watch.start();
  const Index* order = s.tree->order.read(dev);
  Array<double> q(static_cast<std::size_t>(n)), none, out(static_cast<std::size_t>(LaplaceKernel::nout * n));
  gather_to_tree_order(Backend::cuda, n, order, charges, 1, 1, q.write(dev));
  s.time.transfer = watch.stop();
  passes<LaplaceKernel>(s, r, q, none, out);
  watch.start();
  scatter_to_user_order(Backend::cuda, n, order, out.read(dev), 0, 1, 1.0, potential);
  scatter_to_user_order(Backend::cuda, n, order, out.read(dev), 1, 3, 1.0, &gradient->x);
  s.time.transfer += watch.stop();
  count_copies(s.bus, q);
  count_copies(s.bus, out);
  set_stats(s, r);
  note_work(s, s.fresh_laplace);
  s.time.call = call.stop();
}

void ResidentEvaluator::biot_savart(const Vec3d* alpha, const double* sigma, Vec3d* velocity, Vec3d* stretching) {
  State& s = *s_;
  begin_call(s, "biot_savart");
  const Index n = s.n();
  if (s.b() == Backend::cpu) {
    Evaluator& e = host_evaluator(s);
    const auto count = static_cast<std::size_t>(n);
    e.biot_savart(std::span<const Vec3d>(alpha, count), std::span<const double>(sigma, count), s.biot_savart_result);
    std::copy(s.biot_savart_result.velocity.begin(), s.biot_savart_result.velocity.end(), velocity);
    std::copy(s.biot_savart_result.stretching.begin(), s.biot_savart_result.stretching.end(), stretching);
    s.time = s.biot_savart_result.time;
    s.stats = s.biot_savart_result.stats;
    note_work(s, s.fresh_biot_savart);
    return;
  }
  core::Stopwatch call(Backend::cuda), watch(Backend::cuda);
  call.start();
  ResidentLists& r = lists_for(s, s.biot_savart, sigma);
  s.time.traversal = r.seconds;
  watch.start();
  const Index* order = s.tree->order.read(dev);
  Array<double> a(static_cast<std::size_t>(3 * n)), sg(static_cast<std::size_t>(n));
  Array<double> out(static_cast<std::size_t>(BiotSavartKernel::nout * n));
  gather_to_tree_order(Backend::cuda, n, order, &alpha->x, 3, 3, a.write(dev));
  gather_to_tree_order(Backend::cuda, n, order, sigma, 1, 1, sg.write(dev));
  s.time.transfer = watch.stop();
  passes<BiotSavartKernel>(s, r, a, sg, out);
  watch.start();
  scatter_to_user_order(Backend::cuda, n, order, out.read(dev), 0, 3, inv_4pi, &velocity->x);
  scatter_to_user_order(Backend::cuda, n, order, out.read(dev), 3, 3, inv_4pi, &stretching->x);
  s.time.transfer += watch.stop();
  for (const auto* arr : {&a, &sg, &out}) count_copies(s.bus, *arr);
  set_stats(s, r);
  note_work(s, s.fresh_biot_savart);
  s.time.call = call.stop();
}

namespace gpu {

detail::BoxMoments box_moments_on(Backend b, const Options& o, Index n, const Vec3d* x, const double* q, int ncomp) {
  const int pf = detail::image_order(o), ntf = term_count(pf);
  const Index per = static_cast<Index>(ncomp) * ntf;
  const Index chunks = std::max<Index>(1, std::min<Index>(n, b == Backend::cpu ? 64 : 8192));
  const Vec3d centre = o.box_lower + Vec3d{0.5 * o.period, 0.5 * o.period, 0.5 * o.period};
  const core::Where w = side(b);
  Array<C> part(static_cast<std::size_t>(chunks * per)), sum(static_cast<std::size_t>(per));
  Array<double> part2(static_cast<std::size_t>(chunks * ncomp)), sum2(static_cast<std::size_t>(ncomp));
  C* pm = part.write(w);
  double* p2 = part2.write(w);
  core::parallel_for(b, chunks, [=] LOOM_HOST_DEVICE(Index k) {
    C* m = pm + k * per;
    for (Index t = 0; t < per; ++t) m[t] = C{};
    double second[3] = {0, 0, 0};
    for (Index i = n * k / chunks; i < n * (k + 1) / chunks; ++i) {
      double qi[3] = {0, 0, 0};
      const Vec3d d = x[i] - centre;
      for (int c = 0; c < ncomp; ++c) {
        qi[c] = q[c * n + i];
        second[c] += qi[c] * norm2(d);
      }
      fmm::p2m(pf, ncomp, d, qi, m, ntf);
    }
    for (int c = 0; c < ncomp; ++c) p2[k * ncomp + c] = second[c];
  });
  C* sm = sum.write(w);
  double* s2 = sum2.write(w);
  core::parallel_for(b, per + ncomp, [=] LOOM_HOST_DEVICE(Index t) {
    if (t < per) {
      C acc{};
      for (Index k = 0; k < chunks; ++k) acc += pm[k * per + t];
      sm[t] = acc;
    } else {
      double acc = 0;
      for (Index k = 0; k < chunks; ++k) acc += p2[k * ncomp + (t - per)];
      s2[t - per] = acc;
    }
  });
  const auto m = sum.host();
  const auto s = sum2.host();
  return {std::vector<C>(m.begin(), m.end()), std::vector<double>(s.begin(), s.end())};
}

}  // namespace gpu

}  // namespace loom::fmm
