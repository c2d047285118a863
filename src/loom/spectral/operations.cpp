#include "loom/spectral/operations.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <utility>

#include "loom/core/copy_values.hpp"
#include "loom/core/error.hpp"
#include "loom/spectral/gpu_apply.hpp"
#include "loom/spectral/jacobian.hpp"

namespace loom::spectral {

void apply_steps(Strategy s, OperatorCache& cache, const std::vector<AxisOperator>& steps, Index components,
                 const double* in, double* out) {
  if (steps.size() == 1) return apply(s, cache, steps[0], components, in, out);
  const core::Where w = core::where(backend_of(s));
  Index largest = 0;
  for (const auto& op : steps) largest = std::max(largest, op.shape.output_size() * components);
  core::Array<double> ping(static_cast<std::size_t>(largest)), pong(static_cast<std::size_t>(largest));
  const double* from = in;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    double* to = k + 1 == steps.size() ? out : (k % 2 == 0 ? ping : pong).write(w);
    apply(s, cache, steps[k], components, from, to);
    from = to;
  }
}

namespace {

void require_size(const core::Array<double>& a, Index values, const char* what) {
  LOOM_REQUIRE(a.size() >= static_cast<std::size_t>(values), what);
}

// Opt-in shared memory per block of sm_90 (227 KB).
constexpr Index cluster_max_shared = 227 * 1024;

// The strategy that runs a request for s: the cluster route needs thread-block clusters (an sm_90 device and a
// build for it); without them the fused passes run instead, said once.
Strategy runnable(Strategy s) {
  if (s != Strategy::cluster || gpu::clusters_available()) return s;
  static std::once_flag said;
  std::call_once(said, [] {
    std::fputs("spectral: strategy cluster needs thread-block clusters (an sm_90 device and a build for sm_90); "
               "running fused instead\n",
               stderr);
  });
  return Strategy::fused;
}

bool cluster_fits(const std::optional<FusedShell>& fused) {
  const auto shapes = fused ? fused->separable_shapes() : std::nullopt;
  return shapes && shapes->n_phi % 2 == 0 &&
         ClusterShell::shared_bound(shapes->n_r, shapes->n_theta, shapes->n_phi, 1, ClusterShell::default_options()) <=
             cluster_max_shared;
}

}  // namespace

Differentiator::Differentiator(const Topology& t, AngularMethod m) : topology_(t) {
  for (int j = 0; j < 3; ++j) steps_[j] = t.derivative_steps(j, m);
  fused_ = FusedShell::gradient(t, steps_);
  cluster_fits_ = cluster_fits(fused_);
  for (const auto& op : steps_[0])
    launch_key_ += std::to_string(op.shape.inner) + "x" + std::to_string(op.shape.n_in) + "x" +
                   std::to_string(op.shape.outer) + ";";
  for (int j = 1; j < 3; ++j)
    for (const auto& op : steps_[j]) launch_key_ += op.key + ";";
}

bool Differentiator::shares_launch(const Differentiator& other) const {
  return cluster_supported() && other.cluster_supported() && launch_key_ == other.launch_key_;
}

// Shells that share a launch (as the first of them), max_shells at a time; any other shell by itself.
void Differentiator::cartesian_gradients(Strategy s, OperatorCache& cache, Index components,
                                         std::span<const ShellGradient> shells) {
  const auto alone = [&](const ShellGradient& g) {
    g.differentiator->cartesian_gradient(s, cache, *g.inverse_jacobian, components, *g.in, *g.scratch, *g.out);
  };
  if (runnable(s) != Strategy::cluster) {
    for (const auto& g : shells) alone(g);
    return;
  }
  constexpr core::Where w = core::Where::device;
  std::size_t first = 0;
  while (first < shells.size()) {
    const Differentiator& lead = *shells[first].differentiator;
    std::size_t end = first + 1;
    while (end < shells.size() && end - first < cluster::max_shells && lead.shares_launch(*shells[end].differentiator))
      ++end;
    if (end == first + 1) {
      alone(shells[first++]);
      continue;
    }
    const int count = static_cast<int>(end - first);
    const cluster::Plan& plan = *lead.cluster_route(s, cache, components, count);
    sweep::ComponentMap maps[cluster::max_shells];
    const double *jacobians[cluster::max_shells], *radials[cluster::max_shells];
    for (std::size_t k = first; k < end; ++k) {
      const ShellGradient& g = shells[k];
      const Index n = g.differentiator->topology_.size();
      require_size(*g.in, components * n, "cartesian_gradients: in too small");
      require_size(*g.out, 3 * components * n, "cartesian_gradients: out too small");
      maps[k - first] = component_map(g.in->read(w), g.out->write(w), components);
      jacobians[k - first] = g.inverse_jacobian->read(w);
      const cluster::Plan& own = *g.differentiator->cluster_route(s, cache, components, count);
      LOOM_REQUIRE(own.shared == plan.shared && own.components == plan.components && own.blocks == plan.blocks,
                   "cartesian_gradients: the shells' cluster plans differ in layout");
      radials[k - first] = own.radial;
    }
    const auto n_shells = static_cast<std::size_t>(count);
    gpu::cluster_gradient(plan, shell_table(plan, {maps, n_shells}, {jacobians, n_shells}, {radials, n_shells}));
    first = end;
  }
}

const sweep::Separable* Differentiator::gemm_route(Strategy s, OperatorCache& cache) const {
  // only a separable plan: building the device plan of the dense one would copy its angular matrices for nothing
  if (s != Strategy::batched || !fused_ || !fused_->separable()) return nullptr;
  fused_->plan(cache, core::Where::device);
  const auto& route = fused_->launch().separable;
  return route ? &*route : nullptr;
}

bool Differentiator::cluster_supported() const { return cluster_fits_; }

const cluster::Plan* Differentiator::cluster_route(Strategy s, OperatorCache& cache, Index components,
                                                   int shells) const {
  if (s != Strategy::cluster) return nullptr;
  if (!cluster_supported())
    throw UsageError(
        "strategy = \"cluster\": needs a shell on the separable angular route whose blocks fit in "
        "shared memory");
  const int wanted = ClusterShell::components_for(components), shell_class = ClusterShell::shell_class(shells);
  if (cluster_ && cluster_cache_ == cache.id() && cluster_wanted_ == wanted && cluster_shells_ == shell_class)
    return &cluster_->plan(core::Where::device);
  const auto route = sweep::separable_route(fused_->plan(cache, core::Where::host), Index{1} << 40);
  LOOM_REQUIRE(route, "cluster route: the plan is not separable");
  cluster_ = ClusterShell::make_default(*route, components, cluster_max_shared, shells);
  if (!cluster_) throw Error("cluster route: the phi DFT matrices lack the half-period symmetry");
  cluster_cache_ = cache.id();
  cluster_wanted_ = wanted;
  cluster_shells_ = shell_class;
  return &cluster_->plan(core::Where::device);
}

void Differentiator::logical_gradient(Strategy s, OperatorCache& cache, Index components, const double* in,
                                      double* out) const {
  s = runnable(s);
  if (const auto* plan = cluster_route(s, cache, components))
    return gpu::cluster_gradient(*plan, component_map(in, out, components), nullptr);
  const sweep::Separable* route = gemm_route(s, cache);
  if (fused_shell(s) || route) {
    const Index needed = (route ? 3 : 2) * components * topology_.size();
    if (scratch_.size() < static_cast<std::size_t>(needed)) scratch_ = core::Array<double>(needed);
    if (route)
      return gemm_.gradient(*route, component_map(in, out, components), nullptr, scratch_.write(core::Where::device),
                            core::Where::device);
    const auto& plan = fused_->plan(cache, core::Where::device);
    return gpu::shell_gradient(plan, fused_->launch(), component_map(in, out, components), nullptr,
                               scratch_.write(core::Where::device));
  }
  const Index block = components * topology_.size();
  for (int j = 0; j < 3; ++j) apply_steps(s, cache, steps_[j], components, in, out + j * block);
}

void Differentiator::cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                                        const Tensor& in, core::Array<double>& scratch,
                                        core::Array<double>& out) const {
  cartesian_gradient(s, cache, inverse_jacobian, in.components(), in.data, scratch, out);
}

// The fused route's host work per call: the plan check (an id comparison), the pointers, two launches.
void Differentiator::cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                                        Index components, const core::Array<double>& in, core::Array<double>& scratch,
                                        core::Array<double>& out) const {
  s = runnable(s);
  const core::Where w = core::where(backend_of(s));
  const Index n = topology_.size();
  require_size(out, 3 * components * n, "cartesian_gradient: out too small");
  if (const auto* plan = cluster_route(s, cache, components))
    return gpu::cluster_gradient(*plan, component_map(in.read(w), out.write(w), components), inverse_jacobian.read(w));
  if (fused_shell(s)) {
    require_size(scratch, 2 * components * n, "cartesian_gradient: scratch too small");
    const auto& plan = fused_->plan(cache, w);
    return gpu::shell_gradient(plan, fused_->launch(), component_map(in.read(w), out.write(w), components),
                               inverse_jacobian.read(w), scratch.write(w));
  }
  require_size(scratch, 3 * components * n, "cartesian_gradient: scratch too small");
  if (const auto* route = gemm_route(s, cache))
    return gemm_.gradient(*route, component_map(in.read(w), out.write(w), components), inverse_jacobian.read(w),
                          scratch.write(w), w);
  logical_gradient(s, cache, components, in.read(w), scratch.write(w));
  diff_jac(backend_of(s), inverse_jacobian, n, static_cast<int>(components), scratch, out);
}

void Differentiator::cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                                        std::span<const Tensor* const> in, core::Array<double>& scratch,
                                        std::span<core::Array<double>* const> out) const {
  LOOM_REQUIRE(in.size() == out.size(), "cartesian_gradient: as many outputs as tensors");
  s = runnable(s);
  const sweep::Separable* route = gemm_route(s, cache);
  if (!fused_shell(s) && !route && s != Strategy::cluster) {
    for (std::size_t t = 0; t < in.size(); ++t)
      cartesian_gradient(s, cache, inverse_jacobian, *in[t], scratch, *out[t]);
    return;
  }
  const core::Where w = core::Where::device;
  const Index n = topology_.size();
  sweep::ComponentMap map;
  for (std::size_t t = 0; t < in.size(); ++t) {
    require_size(*out[t], 3 * in[t]->components() * n, "cartesian_gradient: out too small");
    add_part(map, in[t]->data.read(w), out[t]->write(w), in[t]->components());
  }
  if (const auto* plan = cluster_route(s, cache, map.components()))
    return gpu::cluster_gradient(*plan, map, inverse_jacobian.read(w));
  require_size(scratch, (route ? 3 : 2) * map.components() * n, "cartesian_gradient: scratch too small");
  if (route) return gemm_.gradient(*route, map, inverse_jacobian.read(w), scratch.write(w), w);
  const auto& plan = fused_->plan(cache, w);
  gpu::shell_gradient(plan, fused_->launch(), map, inverse_jacobian.read(w), scratch.write(w));
}

bool Differentiator::supports(Strategy s) const {
  if (s == Strategy::cluster) return cluster_supported();
  if (fused_shell(s)) return true;
  for (const auto& steps : steps_)
    for (const auto& op : steps)
      if (!spectral::supports(s, op)) return false;
  return true;
}

perf::Work Differentiator::work(Index components, Strategy s) const {
  if (s != Strategy::cluster || !cluster_supported()) return work(components);
  const auto shapes = fused_->separable_shapes();
  return cluster_gradient_work(shapes->n_r, shapes->n_theta, shapes->n_phi, components, true);
}

perf::Work Differentiator::work(Index components) const {
  perf::Work w = diff_jac_work(topology_.size(), static_cast<int>(components));
  for (const auto& steps : steps_)
    for (const auto& op : steps) w += matrix_work(op, components);
  return w;
}

SpectralFilter::SpectralFilter(const Topology& t, const FilterSpec& spec, AngularMethod m)
    : steps_(t.filter_steps(spec, m)), fused_(FusedShell::filter(t, steps_)), topology_size_(t.size()) {}

void SpectralFilter::apply(Strategy s, OperatorCache& cache, Tensor& field, core::Array<double>& scratch) const {
  apply(s, cache, field.components(), field.data, scratch);
}

void SpectralFilter::apply(Strategy s, OperatorCache& cache, Index components, core::Array<double>& field,
                           core::Array<double>& scratch) const {
  const core::Where w = core::where(backend_of(s));
  if (s == Strategy::fused && fused_) {
    require_size(scratch, components * fused_->points(), "filter: scratch too small");
    double* u = field.read_write(w);
    const auto& plan = fused_->plan(cache, w);
    return gpu::shell_filter(plan, fused_->launch(), component_map(u, u, components), scratch.write(w));
  }
  // Ping-pong between the field and scratch, the result copied back after an odd number of steps: the caller's
  // arrays keep their sizes (a list of tensors shares one scratch).
  require_size(scratch, components * topology_size_, "filter: scratch too small");
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const bool from_field = k % 2 == 0;
    spectral::apply(s, cache, steps_[k], components, (from_field ? field : scratch).read(w),
                    (from_field ? scratch : field).write(w));
  }
  if (steps_.size() % 2 == 1) {
    core::copy_values(w, scratch.read(w), field.write(w), static_cast<std::size_t>(components * topology_size_));
  }
}

void SpectralFilter::apply(Strategy s, OperatorCache& cache, std::span<Tensor* const> fields,
                           core::Array<double>& scratch) const {
  if (s != Strategy::fused || !fused_) {
    for (Tensor* f : fields) apply(s, cache, *f, scratch);
    return;
  }
  const core::Where w = core::Where::device;
  sweep::ComponentMap map;
  for (Tensor* f : fields) {
    double* u = f->data.read_write(w);
    add_part(map, u, u, f->components());
  }
  require_size(scratch, map.components() * fused_->points(), "filter: scratch too small");
  const auto& plan = fused_->plan(cache, w);
  gpu::shell_filter(plan, fused_->launch(), map, scratch.write(w));
}

bool SpectralFilter::supports(Strategy s) const {
  if (s == Strategy::fused && fused_) return true;
  for (const auto& op : steps_)
    if (!spectral::supports(s, op)) return false;
  return true;
}

perf::Work SpectralFilter::work(Index components) const {
  perf::Work w;
  for (const auto& op : steps_) w += matrix_work(op, components);
  return w;
}

void logical_gradient(const Topology& t, Strategy s, OperatorCache& cache, Index components, const double* in,
                      double* out, AngularMethod m) {
  Differentiator(t, m).logical_gradient(s, cache, components, in, out);
}

void cartesian_gradient(const Topology& t, Strategy s, OperatorCache& cache,
                        const core::Array<double>& inverse_jacobian, const Tensor& in, core::Array<double>& scratch,
                        core::Array<double>& out, AngularMethod m) {
  Differentiator(t, m).cartesian_gradient(s, cache, inverse_jacobian, in, scratch, out);
}

void filter(const Topology& t, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field,
            core::Array<double>& scratch, AngularMethod m) {
  SpectralFilter(t, spec, m).apply(s, cache, field, scratch);
}

bool supports_gradient(const Topology& t, Strategy s, AngularMethod m) { return Differentiator(t, m).supports(s); }

bool supports_filter(const Topology& t, Strategy s, const FilterSpec& spec, AngularMethod m) {
  return SpectralFilter(t, spec, m).supports(s);
}

perf::Work gradient_work(const Topology& t, Index components, AngularMethod m) {
  return Differentiator(t, m).work(components);
}

perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components, AngularMethod m) {
  return SpectralFilter(t, spec, m).work(components);
}

}  // namespace loom::spectral
