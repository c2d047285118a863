// The FMM evaluator (fmm.hpp): the tree once per set of positions, the interaction lists from the list cache,
// each evaluation through the pipeline of evaluate.hpp on the engine of the options' backend (CPU or CUDA).
#include <algorithm>
#include <memory>
#include <string>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/evaluate.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/gpu/device_lists.hpp"
#include "loom/fmm/gpu/device_tree.hpp"
#include "loom/fmm/list_cache.hpp"

namespace loom::fmm {

struct Evaluator::State {
  Options o;
  detail::TreeData t;
  double build_seconds = 0;
  double build_host_seconds = 0;  // of build_seconds, the backend tree's host copy adopted (Timings::build_host)
  detail::ListCache cache;
  std::unique_ptr<detail::PassEngine> engine;  // over o and t (a State never moves)
  std::unique_ptr<gpu::BackendTree> backend_tree;  // Options::tree_on_backend: the tree as built there
  bool host_lists = false;                         // set_host_lists
  bool host_bodies = true;                         // set_host_bodies
  bool list_work = false;                          // set_list_work
  Index n() const { return t.n(); }
};

namespace {

// Wall time since construction, after the backend's queued work (the GPU's kernels are asynchronous).
struct CallTimer {
  core::Stopwatch watch;
  explicit CallTimer(core::Backend b) : watch(b) { watch.start(); }
  double seconds() { return watch.stop(); }
};

// The upload's end: on the GPU after its queued copies and permutations, so that no phase's time includes them.
double upload_seconds(core::Backend backend, const core::WallTimer& up) {
  if (backend == core::Backend::cuda) cuda::synchronize();
  return up.seconds();
}

// Sized for n bodies, keeping the vector's memory when it already is (no fresh pages to fault in every call).
template <class T>
T* sized(std::vector<T>& v, Index n) {
  if (v.size() != static_cast<std::size_t>(n)) v.assign(static_cast<std::size_t>(n), T{});
  return v.data();
}

static_assert(sizeof(Vec3d) == 3 * sizeof(double), "a Vec3d array is 3n doubles, interleaved");

double* doubles(Vec3d* v) { return &v->x; }
std::span<const double> doubles(std::span<const Vec3d> v) { return {v.empty() ? nullptr : &v[0].x, 3 * v.size()}; }

void check_inside_box(const Options& o, std::span<const Vec3d> positions) {
  for (std::size_t i = 0; i < positions.size(); ++i)
    for (int d = 0; d < 3; ++d) {
      const double u = positions[i][d] - o.box_lower[d];
      if (!(u >= 0 && u < o.period))
        throw UsageError("fmm: body " + std::to_string(i) + " lies outside the periodic box");
    }
}

// For an engine that asks (the CPU's P2P), TreeData's split coordinates from its positions (tree order).
void split_coordinates(Evaluator::State& s) {
  detail::TreeData& t = s.t;
  const Index n = s.n();
  const bool split = s.engine->wants_split_coordinates();
  t.px.resize(split ? static_cast<std::size_t>(n) : 0);
  t.py.resize(t.px.size());
  t.pz.resize(t.px.size());
  if (!split) return;
  const Vec3d* pos = t.pos.read(core::Where::host);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    t.px[static_cast<std::size_t>(i)] = pos[i].x;
    t.py[static_cast<std::size_t>(i)] = pos[i].y;
    t.pz[static_cast<std::size_t>(i)] = pos[i].z;
  }
}

// The tree (built by whatever means) and its arrays for the engine; the lists cached for another tree dropped.
void adopt_tree(Evaluator::State& s, Tree tree) {
  detail::TreeData& t = s.t;
  core::WallTimer timer;
  t.tree = std::move(tree);
  t.cells = core::Array<Cell>::from(std::span<const Cell>(t.tree.cells()));
  t.leaves = core::Array<int>::from(std::span<const int>(t.tree.leaves()));
  t.leaf_of_body = core::Array<int>::from(std::span<const int>(t.tree.leaf_of_body()));
  t.order = core::Array<Index>::from(std::span<const Index>(t.tree.order()));
  t.pos = core::Array<Vec3d>::from(std::span<const Vec3d>(t.tree.positions()));
  split_coordinates(s);
  s.engine->tree_changed();
  s.build_seconds = timer.seconds();
  s.cache.clear();
}

// The caller's values in an array on the backend's side (on the GPU one copy across PCIe, no host copy first).
template <class T>
core::Array<T> backend_array(core::Backend b, std::span<const T> values) {
  if (b != core::Backend::cuda) return core::Array<T>::from(values);
  core::Array<T> a(values.size());
  if (!values.empty()) cuda::copy_host_to_device(a.write(core::Where::device), values.data(), a.bytes());
  return a;
}

// A backend array's values in a host vector (one copy across PCIe from the device).
template <class T>
std::vector<T> host_vector(core::Backend b, const core::Array<T>& a) {
  std::vector<T> v(a.size());
  if (v.empty()) return v;
  if (b == core::Backend::cuda) {
    cuda::copy_device_to_host(v.data(), a.read(core::Where::device), a.bytes());
  } else {
    std::copy_n(a.read(core::Where::host), a.size(), v.data());
  }
  return v;
}

// Options::tree_on_backend: the backend tree's arrays taken over by the engine's (no round trip through the
// host), its host form made from one copy of its cells and, with set_host_bodies, of its order and positions
// (no engine's passes read them: the CPU's read TreeData's arrays too); the lists cached for another tree dropped. The
// backend tree keeps its cells and level offsets (the traversal's and the core radii's input).
void adopt_backend_tree(Evaluator::State& s) {
  detail::TreeData& t = s.t;
  gpu::BackendTree& bt = *s.backend_tree;
  const core::Backend b = s.o.backend;
  std::vector<Cell> cells = host_vector(b, bt.cells);
  if (s.host_bodies) {
    t.tree = Tree::from_cells(std::move(cells), bt.level_offsets, host_vector(b, bt.order), host_vector(b, bt.pos),
                              bt.ncrit);
  } else {
    t.tree = Tree::cells_only(std::move(cells), bt.level_offsets, bt.n, bt.ncrit);
  }
  t.cells = bt.cells.clone();
  t.order = std::move(bt.order);
  t.pos = std::move(bt.pos);
  t.leaves = std::move(bt.leaves);
  t.leaf_of_body = std::move(bt.leaf_of_body);
  split_coordinates(s);
  s.engine->tree_changed();
  s.cache.clear();
}

// The statistics of lists traversed on the backend, counted there (no host copy of them).
Statistics backend_statistics(const Tree& tree, const gpu::BackendTree& on_backend, const gpu::BackendLists& lists) {
  Statistics s;
  s.bodies = tree.size();
  s.cells = static_cast<int>(tree.cells().size());
  s.leaves = static_cast<int>(tree.leaves().size());
  s.levels = tree.levels();
  s.m2l_pairs = lists.m2l_count;
  s.p2p_pairs = lists.p2p_count;
  s.p2p_interactions = gpu::p2p_interactions(on_backend, lists);
  return s;
}

// The list cache's traverser of a backend tree (with the cells' core radii sent along for the guard): on the
// CUDA engine the lists stay on the device (its staged copy takes them over) unless set_host_lists asked for a
// host copy; the CPU engine reads the host copy.
void traverse_backend_tree(Evaluator::State& s, const TraversalOptions& t, detail::CachedLists& e) {
  const core::Backend b = s.o.backend;
  const gpu::BackendTree& tree = *s.backend_tree;
  TraversalOptions o = t;
  core::Array<double> sigma;
  if (t.source_sigma) {
    sigma = core::Array<double>::from(std::span<const double>(t.source_sigma, static_cast<std::size_t>(tree.cell_count())));
    o.source_sigma = sigma.read(gpu::side(b));
  }
  gpu::BackendLists lists = gpu::traverse_tree(tree, o);
  if (b == core::Backend::cuda && !s.host_lists) {
    e.stats = backend_statistics(s.t.tree, tree, lists);
    if (s.list_work) gpu::cell_work(tree, lists, e.work.m2l, e.work.sources);
    e.staged = s.engine->staged_lists(std::move(lists));
    LOOM_REQUIRE(e.staged != nullptr, "fmm::Evaluator: the CUDA engine stages backend lists");
  } else {
    e.lists = gpu::to_host_lists(lists);
    e.stats = detail::statistics(s.t.tree, e.lists);
  }
}

// Options::tree_on_backend: the tree built on the backend from the positions sent there, its host form for the
// passes' bookkeeping, and the lists traversed there.
void set_backend_tree(Evaluator::State& s, std::span<const Vec3d> positions, int root_rounds) {
  const core::Backend b = s.o.backend;
  const core::Array<Vec3d> bodies = backend_array(b, positions);
  s.backend_tree = std::make_unique<gpu::BackendTree>(
      gpu::build_tree(b, bodies.read(gpu::side(b)), static_cast<Index>(positions.size()), s.o.ncrit, root_rounds));
  Evaluator::State* state = &s;  // a State never moves
  s.cache.set_traverser(
      [state](const TraversalOptions& t, detail::CachedLists& e) { traverse_backend_tree(*state, t, e); });
  core::WallTimer host;
  adopt_backend_tree(s);
  s.build_host_seconds = host.seconds();
}

// The cells' largest core radii (the Biot-Savart lists' key and guard): from the backend tree where there is one
// (sigma_tree: the bodies' radii in tree order, on the engine's side), read back to the host (one double a cell).
std::vector<double> cell_sigma_for_lists(const Evaluator::State& s, std::span<const double> sigma,
                               const core::Array<double>& sigma_tree) {
  if (!s.backend_tree) return detail::cell_max_sigma(s.t.tree, sigma);
  const core::Array<double> cells =
      gpu::cell_max_sigma(*s.backend_tree, sigma_tree.read(gpu::side(s.o.backend)), /*tree_order=*/true);
  const auto h = cells.host();
  return {h.begin(), h.end()};
}

// Before a new tree: the old one's arrays, lists and backend form given back, so that a kept evaluator's peak
// memory is a fresh one's.
void forget_tree(Evaluator::State& s) {
  s.cache.clear();
  s.backend_tree.reset();
  s.t = detail::TreeData{};
}

}  // namespace

Evaluator::Evaluator(Options options) : s_(std::make_unique<State>()) {
  validate(options);
  s_->o = options;
  s_->engine = options.backend == core::Backend::cpu ? detail::make_cpu_engine(s_->o, s_->t)
                                                     : detail::make_cuda_engine(s_->o, s_->t);
}
Evaluator::~Evaluator() = default;
Evaluator::Evaluator(Evaluator&&) noexcept = default;
Evaluator& Evaluator::operator=(Evaluator&&) noexcept = default;
void Evaluator::set_order(int order) {
  Options o = s_->o;
  o.order = order;
  validate(o);
  s_->o = o;
}
void Evaluator::set_precision(Precision precision) { s_->o.precision = precision; }
void Evaluator::set_host_bodies(bool host_bodies) { s_->host_bodies = host_bodies; }
void Evaluator::set_list_work(bool list_work) {
  if (list_work == s_->list_work) return;
  s_->list_work = list_work;
  s_->cache.clear();
}
const ListWork* Evaluator::list_work(Kernel k) const {
  const detail::CachedLists* e = s_->cache.valid_entry(k);
  return e && !e->work.m2l.empty() ? &e->work : nullptr;
}
void Evaluator::set_host_lists(bool host_lists) {
  if (host_lists == s_->host_lists) return;
  s_->host_lists = host_lists;
  s_->cache.clear();
}
const Tree& Evaluator::tree() const { return s_->t.tree; }
const Options& Evaluator::options() const { return s_->o; }

void Evaluator::set_positions(std::span<const Vec3d> positions) { set_positions(positions, 3); }

void Evaluator::set_positions(std::span<const Vec3d> positions, int root_rounds) {
  LOOM_REQUIRE(root_rounds == 3 || s_->o.tree_on_backend,
               "fmm::Evaluator::set_positions: root_rounds needs Options::tree_on_backend");
  if (s_->o.periodic) check_inside_box(s_->o, positions);
  core::WallTimer timer;
  forget_tree(*s_);
  s_->build_host_seconds = 0;
  if (s_->o.tree_on_backend) {
    set_backend_tree(*s_, positions, root_rounds);
  } else {
    set_tree(Tree(positions, s_->o.ncrit));
  }
  s_->build_seconds = upload_seconds(s_->o.backend, timer);
}

void Evaluator::set_tree(Tree tree) {
  s_->backend_tree.reset();
  s_->build_host_seconds = 0;
  s_->cache.set_traverser({});
  adopt_tree(*s_, std::move(tree));
}

LaplaceResult Evaluator::laplace(std::span<const double> charges) {
  LaplaceResult r;
  laplace(charges, r);
  return r;
}

void Evaluator::laplace(std::span<const double> charges, LaplaceResult& r, detail::ExtraSources* extra) {
  State& s = *s_;
  LOOM_REQUIRE(static_cast<Index>(charges.size()) == s.n(), "fmm::Evaluator::laplace: one charge per body");
  CallTimer call(s.o.backend);
  r.time = Timings{};
  r.time.build = s.build_seconds;
  r.time.build_host = s.build_host_seconds;
  auto& lists = s.cache.lists<LaplaceKernel>(s.o, s.t.tree, {});
  r.time.traversal = lists.traversal_seconds;
  const Index n = s.n();
  core::WallTimer up;
  auto strength = s.engine->to_tree_order(charges, 1, 1);
  r.time.transfer += upload_seconds(s.o.backend, up);
  core::Array<double> out(static_cast<std::size_t>(LaplaceKernel::nout * n)), none;
  detail::evaluate<LaplaceKernel>(*s.engine, s.o, s.t, lists.lists, lists.staged, strength, none, out, r.time, extra);
  core::WallTimer back;
  const detail::ResultPart parts[] = {{0, 1, sized(r.potential, n)}, {1, 3, doubles(sized(r.gradient, n))}};
  s.engine->to_user_order(out, parts, 1.0);
  r.time.transfer += back.seconds();
  r.stats = lists.stats;
  r.time.call = call.seconds();
}

BiotSavartResult Evaluator::biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma) {
  BiotSavartResult r;
  biot_savart(alpha, sigma, r);
  return r;
}

void Evaluator::biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma, BiotSavartResult& r,
                            detail::ExtraSources* extra) {
  State& s = *s_;
  const Index n = s.n();
  LOOM_REQUIRE(static_cast<Index>(alpha.size()) == n && static_cast<Index>(sigma.size()) == n,
               "fmm::Evaluator::biot_savart: one strength and one core radius per body");
  CallTimer call(s.o.backend);
  r.time = Timings{};
  r.time.build = s.build_seconds;
  r.time.build_host = s.build_host_seconds;
  core::WallTimer up;
  auto strength = s.engine->to_tree_order(doubles(alpha), 3, 3);
  auto sigma_tree = s.engine->to_tree_order(sigma, 1, 1);
  // the lists' key (on the GPU from the backend tree after the upload, or on the host while it runs)
  std::vector<double> cell_sigma = cell_sigma_for_lists(s, sigma, sigma_tree);
  r.time.transfer += upload_seconds(s.o.backend, up);
  auto& lists = s.cache.lists<BiotSavartKernel>(s.o, s.t.tree, std::move(cell_sigma));
  r.time.traversal = lists.traversal_seconds;
  core::Array<double> out(static_cast<std::size_t>(BiotSavartKernel::nout * n));
  detail::evaluate<BiotSavartKernel>(*s.engine, s.o, s.t, lists.lists, lists.staged, strength, sigma_tree, out, r.time,
                                     extra);
  core::WallTimer back;
  constexpr double inv_4pi = 0.079577471545947667884;
  const detail::ResultPart parts[] = {{0, 3, doubles(sized(r.velocity, n))}, {3, 3, doubles(sized(r.stretching, n))}};
  s.engine->to_user_order(out, parts, inv_4pi);
  r.time.transfer += back.seconds();
  r.stats = lists.stats;
  r.time.call = call.seconds();
}

std::vector<Vec3d> Evaluator::gaussian_sum(std::span<const Vec3d> alpha, std::span<const double> sigma, double cutoff) {
  State& s = *s_;
  const Index n = s.n();
  LOOM_REQUIRE(static_cast<Index>(alpha.size()) == n && static_cast<Index>(sigma.size()) == n,
               "fmm::Evaluator::gaussian_sum: one strength and one core radius per body");
  LOOM_REQUIRE(s.t.tree.has_bodies(), "fmm::Evaluator::gaussian_sum: needs the tree's bodies on the host");
  auto strength = s.engine->to_tree_order(doubles(alpha), 3, 3);
  auto sigma_tree = s.engine->to_tree_order(sigma, 1, 1);
  const std::vector<double> cell_sigma = detail::cell_max_sigma(s.t.tree, sigma);
  // a one-off traversal, not cached: its cutoff is the caller's
  const InteractionLists lists =
      traverse(s.t.tree, s.t.tree, detail::traversal_options(s.o, false, cutoff, cell_sigma.data()));
  std::unique_ptr<detail::StagedLists> staged;
  core::Array<double> out(static_cast<std::size_t>(GaussianKernel::nout * n));
  Timings time;
  detail::evaluate<GaussianKernel>(*s.engine, s.o, s.t, lists, staged, strength, sigma_tree, out, time);
  std::vector<Vec3d> w(static_cast<std::size_t>(n));
  const detail::ResultPart parts[] = {{0, 3, doubles(w.data())}};
  s.engine->to_user_order(out, parts, 1.0);
  return w;
}

LaplaceResult laplace(std::span<const Vec3d> positions, std::span<const double> charges, const Options& options) {
  Evaluator e(options);
  e.set_positions(positions);
  return e.laplace(charges);
}

BiotSavartResult biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha,
                             std::span<const double> sigma, const Options& options) {
  Evaluator e(options);
  e.set_positions(positions);
  return e.biot_savart(alpha, sigma);
}

}  // namespace loom::fmm
