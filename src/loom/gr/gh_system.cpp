#include "loom/gr/gh_system.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "loom/core/copy_values.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/core/timer.hpp"
#include "loom/gr/cpu_operators.hpp"
#include "loom/gr/damping.hpp"
#include "loom/gr/gh_kernels.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/jacobian.hpp"

namespace loom::gr {

struct GhSystem::ShellData {
  std::unique_ptr<spectral::Shell> shell;
  std::unique_ptr<spectral::Differentiator> differentiator;
  std::vector<spectral::AxisOperator> filter_steps;        // the CPU's (without the radial step when alpha = 0)
  std::unique_ptr<spectral::SpectralFilter> fused_filter;  // the GPU's: the whole state in one call
  // With the tensor filter: the radial step alone (both backends) and the spin-weighted angular filter.
  std::optional<spectral::AxisOperator> radial_filter;
  std::unique_ptr<spectral::SpinFilter> spin_filter;
  std::unique_ptr<CpuOperators> cpu;  // CPU backend: d_r, d_theta, d_phi, filter, by components over threads
  Index n = 0;
  // The GPU gradient's strategy, chosen once: the cluster route where the device runs thread-block clusters.
  spectral::Strategy gradient_strategy = spectral::Strategy::fused;
  // The radial Legendre-Gauss-Lobatto weight of the inner and the outer end point in r, L_xi / (N (N - 1)) times
  // d r / d xi there (L_xi the length in the map's coordinate): the penalties' denominators.
  std::array<double, 2> end_weight{};
  core::Array<double> coords, inverse_jacobian, weights, gamma0, gamma2, gauge, dgauge, exact;
  core::Array<double> logical, gradient, scratch;  // 150 N, 150 N, 50 N

  BoundarySlice slice(bool outer_surface, core::Where w, double gamma1) const {
    const auto e = shell->extents();
    return {n, Index{e[1]} * e[2], e[0], outer_surface ? e[0] - 1 : 0, coords.read(w), gamma2.read(w), gamma1};
  }
};

namespace {

// Adds the seconds of a scope to `sink` when profiling (the stopwatch waits for the device's work).
class ModuleTimer {
 public:
  ModuleTimer(bool on, core::Backend b, double& sink) : sink_(sink) {
    if (on) watch_.emplace(b), watch_->start();
  }
  ~ModuleTimer() {
    if (watch_) sink_ += watch_->stop();
  }
  ModuleTimer(const ModuleTimer&) = delete;
  ModuleTimer& operator=(const ModuleTimer&) = delete;

 private:
  double& sink_;
  std::optional<core::Stopwatch> watch_;
};

core::Array<double> host_array(const std::vector<double>& v) { return core::Array<double>::from(v); }

}  // namespace

spectral::RadialMap shell_map(const GhGeometry& g, std::size_t s) {
  if (g.maps.size() == 1) return g.maps.front();
  return s < g.maps.size() ? g.maps[s] : spectral::RadialMap::linear;
}

std::string map_names(const GhGeometry& g) {
  std::string names;
  for (std::size_t s = 0; s + 1 < g.radii.size(); ++s) {
    if (s) names += ',';
    names += spectral::to_string(shell_map(g, s));
  }
  return names;
}

GhSystem::GhSystem(const KerrSchild& bh, const GhGeometry& g, const spectral::FilterSpec& filter, core::Backend backend)
    : backend_(backend),
      strategy_(backend == core::Backend::cuda ? spectral::Strategy::fused : spectral::Strategy::blas),
      bh_(bh),
      outer_(g.outer),
      interface_(g.interface),
      filter_target_(g.filter_target),
      angular_filter_(g.angular_filter),
      radial_filter_(filter.alpha != 0),
      gamma1_(g.damping.gamma1) {
  const auto separable = spectral::AngularMethod::separable;
  for (std::size_t s = 0; s + 1 < g.radii.size(); ++s) {
    auto d = std::make_unique<ShellData>();
    const auto map = shell_map(g, s);
    d->shell = std::make_unique<spectral::Shell>(g.extents[0], g.extents[1], g.radii[s], g.radii[s + 1], map);
    d->differentiator = std::make_unique<spectral::Differentiator>(*d->shell, separable);
    const bool cluster = strategy_ == spectral::Strategy::fused && spectral::gpu::clusters_available() &&
                         d->differentiator->supports(spectral::Strategy::cluster);
    d->gradient_strategy = cluster ? spectral::Strategy::cluster : strategy_;
    d->filter_steps = d->shell->filter_steps(filter, separable);
    // alpha = 0 is no radial filter (the default; docs/gr.md): its step, the first of filter_steps, is dropped
    // rather than applied as an identity.
    if (filter.alpha == 0) d->filter_steps.erase(d->filter_steps.begin());
    // The fused route needs its radial step first: with alpha = 0 it is the identity, a 10 x 10 product inside
    // the same sweep, cheaper than the separate launches of the angular steps alone.
    if (angular_filter_ == spectral::AngularFilter::tensor) {
      // The radial filter commutes with the triad (a function of the angles only): applied first, per component.
      d->radial_filter = d->shell->radial_filter(filter);
      d->filter_steps = {*d->radial_filter};
      // Default l_max - 3: the filtered Phi_ijk (rank 3) then has Cartesian components of degree <= l_max, all
      // seen by the scalar Y_lm derivatives (at l_max - 1 a part of it is not, and on the CPU it grows at once:
      // docs/gr.md, "The tensor filter").
      const int l_keep = filter.l_keep < 0 ? std::max(0, g.extents[1] - 1 - spectral::max_spin_rank) : filter.l_keep;
      auto blocks = spectral::spatial_blocks(spectral::shape_of(spectral::TensorKind::aa), 0);
      for (auto& b : spectral::spatial_blocks(spectral::shape_of(spectral::TensorKind::aa), pi_offset)) blocks.push_back(b);
      for (auto& b : spectral::spatial_blocks(spectral::shape_of(spectral::TensorKind::iaa), phi_offset)) blocks.push_back(b);
      d->spin_filter = std::make_unique<spectral::SpinFilter>(*d->shell, l_keep, blocks, state_size);
    } else if (backend == core::Backend::cuda) {
      d->fused_filter = std::make_unique<spectral::SpectralFilter>(*d->shell, filter, separable);
    }
    const Index n = d->shell->size();
    d->n = n;
    const auto& xi = d->shell->radial();
    const double lgl = (xi.upper() - xi.lower()) / (double(g.extents[0]) * (g.extents[0] - 1));
    for (int end = 0; end < 2; ++end) d->end_weight[end] = lgl / spectral::dxi_dr(map, g.radii[s + end]);
    const auto x = d->shell->cartesian();
    std::vector<double> coords(3 * n), g0(n), g2(n), exact(state_size * n), gauge(4 * n);
    for (Index p = 0; p < n; ++p) {
      const double pos[3] = {x[0][p], x[1][p], x[2][p]};
      for (int i = 0; i < 3; ++i) coords[i * n + p] = pos[i];
      const double r = std::sqrt(pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2]);
      g0[p] = damping_gamma0(g.damping, r);
      g2[p] = damping_gamma2(g.damping, r);
      double u[state_size], h[4];
      kerr_schild_state(bh, pos, u, h);
      for (int c = 0; c < state_size; ++c) exact[c * n + p] = u[c];
      for (int a = 0; a < 4; ++a) gauge[a * n + p] = h[a];
    }
    d->coords = host_array(coords);
    d->gamma0 = host_array(g0);
    d->gamma2 = host_array(g2);
    d->exact = host_array(exact);
    d->gauge = host_array(gauge);
    d->inverse_jacobian = host_array(d->shell->inverse_jacobian());
    d->weights = host_array(d->shell->weights());
    // d_i H_a spectrally on the host (the gauge source is fixed; d_t H_a = 0).
    core::Array<double> logical(12 * n), dh(12 * n);
    d->differentiator->logical_gradient(spectral::Strategy::blas, cache_, 4, d->gauge.read(core::Where::host),
                                        logical.write(core::Where::host));
    spectral::diff_jac(core::Backend::cpu, d->inverse_jacobian, n, 4, logical, dh);
    std::vector<double> dgauge(16 * n, 0.0);
    const double* dhp = dh.read(core::Where::host);
    for (Index i = 0; i < 12 * n; ++i) dgauge[4 * n + i] = dhp[i];
    d->dgauge = host_array(dgauge);
    if (backend == core::Backend::cpu) {
      std::vector<std::vector<spectral::AxisOperator>> sequences;
      for (int j = 0; j < 3; ++j) sequences.push_back(d->shell->derivative_steps(j, separable));
      sequences.push_back(d->filter_steps);
      d->cpu = std::make_unique<CpuOperators>(std::move(sequences));
    }
    d->logical = core::Array<double>(3 * state_size * n);
    d->gradient = core::Array<double>(3 * state_size * n);
    d->scratch = core::Array<double>(state_size * n);
    shells_.push_back(std::move(d));
  }
}

GhSystem::~GhSystem() = default;

Index GhSystem::points(int s) const { return shells_[s]->n; }

Index GhSystem::total_points() const {
  Index n = 0;
  for (const auto& d : shells_) n += d->n;
  return n;
}

const spectral::Shell& GhSystem::shell(int s) const { return *shells_[s]->shell; }

State GhSystem::exact_state() const {
  State u;
  for (const auto& d : shells_) u.push_back(d->exact.clone());
  return u;
}

std::vector<double> GhSystem::coordinates(int s) const {
  const double* c = shells_[s]->coords.read(core::Where::host);
  return {c, c + 3 * shells_[s]->n};
}

// All 50 components in one call: on the GPU the derivatives and DiffJac together in one launch of the cluster
// route where the device runs thread-block clusters (sm_90; the route `auto` picks there, docs/spectral.md),
// else in the fused strategy's two launches (the Jacobian module's time is then inside Deriv's). The threaded
// CPU path spreads the components over threads instead (cpu_operators.hpp), then applies DiffJac.
void GhSystem::gradient(int s, const core::Array<double>& u) {
  ShellData& d = *shells_[s];
  if (!d.cpu) {
    ModuleTimer t(profiling_, backend_, times_.deriv);
    d.differentiator->cartesian_gradient(d.gradient_strategy, cache_, d.inverse_jacobian, state_size, u, d.logical,
                                         d.gradient);
    return;
  }
  const core::Where w = core::where(backend_);
  {
    ModuleTimer t(profiling_, backend_, times_.deriv);
    double* out = d.logical.write(w);
    for (int j = 0; j < 3; ++j) d.cpu->apply(j, state_size, u.read(w), out + j * state_size * d.n);
  }
  ModuleTimer t(profiling_, backend_, times_.jacobian);
  spectral::diff_jac(backend_, d.inverse_jacobian, d.n, state_size, d.logical, d.gradient);
}

void GhSystem::gradients(const State& u) {
  const bool cluster = std::all_of(shells_.begin(), shells_.end(), [](const auto& d) {
    return d->gradient_strategy == spectral::Strategy::cluster;
  });
  if (!cluster) {
    for (int s = 0; s < shells(); ++s) gradient(s, u[s]);
    return;
  }
  ModuleTimer t(profiling_, backend_, times_.deriv);
  batch_.clear();
  for (int s = 0; s < shells(); ++s) {
    ShellData& d = *shells_[s];
    batch_.push_back({d.differentiator.get(), &d.inverse_jacobian, &u[s], &d.logical, &d.gradient});
  }
  spectral::Differentiator::cartesian_gradients(spectral::Strategy::cluster, cache_, state_size, batch_);
}

void GhSystem::rhs(const State& u, State& du) {
  const core::Where w = core::where(backend_);
  gradients(u);
  for (int s = 0; s < shells(); ++s) {
    ShellData& d = *shells_[s];
    ModuleTimer t(profiling_, backend_, times_.gh_eqns);
    const ShellFields f{
        d.n,    u[s].read(w), d.gradient.read(w), d.gauge.read(w), d.dgauge.read(w), d.gamma0.read(w), d.gamma2.read(w),
        gamma1_};
    gh_rhs_points(backend_, f, du[s].write(w));
  }
  if (filter_target_ == FilterTarget::rates) filter_fields(du);
  ModuleTimer t(profiling_, backend_, times_.apply_bcs);
  apply_boundaries(u, du, false);
}

void GhSystem::apply_boundaries(const State& frame, State& field, bool values) {
  const core::Where w = core::where(backend_);
  for (int s = 0; s + 1 < shells(); ++s) {
    const ShellData &a = *shells_[s], &b = *shells_[s + 1];
    if (interface_ == InterfaceCoupling::upwind)
      merge_interface(backend_, a.slice(true, w, gamma1_), b.slice(false, w, gamma1_), frame[s].read(w),
                      field[s].read_write(w), field[s + 1].read_write(w));
    else if (!values)  // penalties act on rates only; each shell keeps its values
      penalty_interface(backend_, a.slice(true, w, gamma1_), b.slice(false, w, gamma1_), frame[s].read(w),
                        frame[s + 1].read(w), field[s].read_write(w), field[s + 1].read_write(w), a.end_weight[1],
                        b.end_weight[0]);
  }
  const ShellData& last = *shells_.back();
  if (outer_ == OuterBoundary::penalty) {
    if (!values)
      penalty_outer(backend_, last.slice(true, w, gamma1_), frame.back().read(w), last.exact.read(w),
                    field.back().read_write(w), last.end_weight[1]);
    return;
  }
  // Bjorhus on rates reads the gradient of `frame` on the last shell, which rhs() computed last.
  if (outer_ == OuterBoundary::bjorhus && !values)
    bjorhus_outer(backend_, last.slice(true, w, gamma1_),
                  {last.n, frame.back().read(w), last.gradient.read(w), last.gauge.read(w), last.dgauge.read(w),
                   last.gamma0.read(w), last.gamma2.read(w), gamma1_},
                  field.back().read_write(w));
  else
    freeze_outer(backend_, last.slice(true, w, gamma1_), frame.back().read(w), values ? last.exact.read(w) : nullptr,
                 field.back().read_write(w), outer_ == OuterBoundary::frozen);
}

// The radial and angular filter of every shell, in place (a state or its rates).
void GhSystem::filter_fields(State& field) {
  const core::Where w = core::where(backend_);
  ModuleTimer t(profiling_, backend_, times_.filter);
  for (int s = 0; s < shells(); ++s) {
    ShellData& d = *shells_[s];
    if (d.spin_filter) {
      if (radial_filter_) {  // the radial step into scratch, copied back (the state keeps its arrays)
        if (d.cpu)
          d.cpu->apply(3, state_size, field[s].read(w), d.scratch.write(w));
        else
          spectral::apply(spectral::Strategy::fused, cache_, *d.radial_filter, state_size, field[s].read(w),
                          d.scratch.write(w));
        core::copy_values(w, d.scratch.read(w), field[s].write(w), static_cast<std::size_t>(state_size * d.n));
      }
      d.spin_filter->apply(backend_, field[s].read_write(w));
      continue;
    }
    if (!d.cpu) {  // in place, all 50 components in the fused sweep (two launches)
      d.fused_filter->apply(strategy_, cache_, state_size, field[s], d.scratch);
      continue;
    }
    d.cpu->apply(3, state_size, field[s].read(w), d.scratch.write(w));
    // Copied back rather than swapped: the state keeps its arrays.
    std::copy_n(d.scratch.read(w), field[s].size(), field[s].write(w));
  }
}

void GhSystem::filter(State& u) {
  filter_fields(u);
  ModuleTimer t(profiling_, backend_, times_.apply_bcs);
  apply_boundaries(u, u, true);
}

double GhSystem::slowest_excision_speed(const State& u) {
  const core::Where w = core::where(backend_);
  ModuleTimer t(profiling_, backend_, times_.apply_bcs);
  return gr::slowest_excision_speed(backend_, shells_.front()->slice(false, w, gamma1_), u.front().read(w));
}

void GhSystem::observe(const State& u, std::vector<core::Array<double>>& out) {
  const core::Where w = core::where(backend_);
  const bool profiling = profiling_;
  profiling_ = false;  // the module times are the step's
  out.clear();
  gradients(u);
  for (int s = 0; s < shells(); ++s) {
    ShellData& d = *shells_[s];
    out.emplace_back(static_cast<std::size_t>(observable_count * d.n));
    const ShellFields f{
        d.n,    u[s].read(w), d.gradient.read(w), d.gauge.read(w), d.dgauge.read(w), d.gamma0.read(w), d.gamma2.read(w),
        gamma1_};
    point_observables(backend_, f, d.exact.read(w), out.back().write(w));
  }
  profiling_ = profiling;
}

Norms GhSystem::norms(const State& u) {
  std::vector<core::Array<double>> obs;
  observe(u, obs);
  const core::Where w = core::where(backend_);
  double sums[observable_count] = {}, volume = 0;
  for (int s = 0; s < shells(); ++s) {
    const Index n = shells_[s]->n;
    const double* wt = shells_[s]->weights.read(w);
    const double* o = obs[s].read(w);
    volume += core::parallel_sum(backend_, n, [=] LOOM_HOST_DEVICE(Index p) { return wt[p]; });
    for (int q = 0; q < observable_count; ++q)
      sums[q] += core::parallel_sum(backend_, n, [=] LOOM_HOST_DEVICE(Index p) { return wt[p] * o[q * n + p]; });
  }
  Norms r;
  r.gauge = std::sqrt(sums[0] / volume);
  r.three_index = std::sqrt(sums[1] / volume);
  r.normalized = std::sqrt((sums[0] + sums[1]) / sums[2]);
  r.psi_error = std::sqrt(sums[3] / volume);
  r.pi_error = std::sqrt(sums[4] / volume);
  r.phi_error = std::sqrt(sums[5] / volume);
  return r;
}

std::vector<std::array<std::vector<double>, 5>> GhSystem::point_fields(const State& u) {
  std::vector<core::Array<double>> obs;
  observe(u, obs);
  std::vector<std::array<std::vector<double>, 5>> out;
  for (int s = 0; s < shells(); ++s) {
    const Index n = shells_[s]->n;
    const double* o = obs[s].read(core::Where::host);
    std::array<std::vector<double>, 5> f;
    const int columns[5] = {0, 1, 3, 4, 5};  // point_observables' squared sums, skipping the derivatives' (2)
    for (int k = 0; k < 5; ++k) {
      f[k].resize(n);
      for (Index p = 0; p < n; ++p) f[k][p] = std::sqrt(o[columns[k] * n + p]);
    }
    out.push_back(std::move(f));
  }
  return out;
}

double GhSystem::smallest_spacing() const {
  double h = HUGE_VAL;
  for (const auto& d : shells_) {
    const auto& r = d->shell->radii();
    const auto& th = d->shell->sphere().theta();
    for (std::size_t i = 1; i < r.size(); ++i) h = std::min(h, r[i] - r[i - 1]);
    for (std::size_t i = 1; i < th.size(); ++i) h = std::min(h, r.front() * (th[i] - th[i - 1]));
  }
  return h;
}

}  // namespace loom::gr
