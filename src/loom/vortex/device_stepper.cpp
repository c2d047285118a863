// The device stepper (device_stepper.hpp); a loom_backend_sources file: its loops run on either backend.
#include "loom/vortex/device_stepper.hpp"

#include <span>
#include <utility>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/core/timer.hpp"
#include "loom/vortex/device_reinit.hpp"
#include "loom/vortex/neutral.hpp"
#include "loom/vortex/update.hpp"

namespace loom::vortex {
namespace {

using core::where;

// The update of every particle (update.hpp's formulas): x = x0 + w1dt k1 + w2dt k2 (k2 optional), the same for
// alpha, sigma spread, x wrapped into the periodic box. The outputs may be the inputs (each body reads its own).
struct Update {
  const Vec3d *x0, *a0;
  const double* s0;
  const Vec3d *u1, *t1, *u2, *t2;
  double w1dt, w2dt, spread;
  Domain domain;
};

void advance_particles(core::Backend b, Index n, Update u, Vec3d* xo, Vec3d* ao, double* so) {
  core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index i) {
    Vec3d xi = u.x0[i], ai = u.a0[i];
    add_rates(xi, ai, u.w1dt, u.u1[i], u.t1[i]);
    if (u.u2 != nullptr) add_rates(xi, ai, u.w2dt, u.u2[i], u.t2[i]);
    if (u.domain.periodic)
      for (int c = 0; c < 3; ++c) xi[c] = wrap_coordinate(xi[c], u.domain.lower, u.domain.period);
    xo[i] = xi;
    ao[i] = ai;
    so[i] = spread_core(u.s0[i], u.spread);
  });
}

template <class T>
std::vector<T> to_vector(const core::Array<T>& a) {
  const auto s = a.host();
  return {s.begin(), s.end()};
}

template <class T>
core::Array<T> from_vector(const std::vector<T>& v) {
  return core::Array<T>::from(std::span<const T>(v));
}

}  // namespace

DeviceStepper::DeviceStepper(const fmm::Options& fmm, double nu, Domain domain, double max_cost)
    : fmm_(fmm), nu_(nu), max_cost_(max_cost), domain_(domain) {}

void DeviceStepper::upload(const Particles& p) {
  x_ = from_vector(p.x);
  alpha_ = from_vector(p.alpha);
  sigma_ = from_vector(p.sigma);
  const core::Where w = where(fmm_.options().backend);
  x_.read(w);
  alpha_.read(w);
  sigma_.read(w);
  have_previous_ = false;
  have_tree_ = false;  // another particle count, or other positions: a new tree
}

void DeviceStepper::download(Particles& p) const {
  p.x = to_vector(x_);
  p.alpha = to_vector(alpha_);
  p.sigma = to_vector(sigma_);
}

Rates DeviceStepper::previous() const {
  if (!have_previous_) return {};
  return {to_vector(previous_.velocity), to_vector(previous_.stretching)};
}

void DeviceStepper::set_previous(const Rates& r) {
  LOOM_REQUIRE(static_cast<Index>(r.velocity.size()) == size() && static_cast<Index>(r.stretching.size()) == size(),
               "vortex::DeviceStepper::set_previous: one rate per particle");
  previous_.velocity = from_vector(r.velocity);
  previous_.stretching = from_vector(r.stretching);
  have_previous_ = true;
}

void DeviceStepper::rates(const core::Array<Vec3d>& x, const core::Array<Vec3d>& alpha,
                          const core::Array<double>& sigma, Stage& out) {
  const core::Where w = where(fmm_.options().backend);
  core::WallTimer tree;
  if (!have_tree_) {
    fmm_.set_positions(x.read(w), size());
    have_tree_ = true;
  } else {
    fmm_.move_positions(x.read(w), max_cost_);
  }
  times_.tree += tree.seconds();
  if (out.velocity.size() != x.size()) {
    out.velocity = core::Array<Vec3d>(x.size());
    out.stretching = core::Array<Vec3d>(x.size());
  }
  core::WallTimer call;
  const Vec3d* a = alpha.read(w);
  if (fmm_.options().periodic) {  // the sums of a neutral box (neutral.hpp)
    if (neutral_.size() != alpha.size()) neutral_ = core::Array<Vec3d>(alpha.size());
    subtract_mean_on(fmm_.options().backend, size(), a, neutral_.write(w));
    a = neutral_.read(w);
  }
  fmm_.biot_savart(a, sigma.read(w), out.velocity.write(w), out.stretching.write(w));
  const double lists = fmm_.time().traversal;
  times_.lists += lists;
  times_.fmm += call.seconds() - lists;
}

void DeviceStepper::advance(const Stage& k1, double w1, const Stage* k2, double w2, double dt, core::Array<Vec3d>& x,
                            core::Array<Vec3d>& alpha, core::Array<double>& sigma) const {
  const core::Backend b = fmm_.options().backend;
  const core::Where w = where(b);
  Update u{x_.read(w), alpha_.read(w), sigma_.read(w), k1.velocity.read(w), k1.stretching.read(w),
           k2 ? k2->velocity.read(w) : nullptr, k2 ? k2->stretching.read(w) : nullptr, w1 * dt, w2 * dt,
           2 * nu_ * (w1 + w2) * dt, domain_};
  // the step's last stage writes in place: read_write keeps the values the update reads
  Vec3d* xo = (&x == &x_) ? x.read_write(w) : x.write(w);
  Vec3d* ao = (&alpha == &alpha_) ? alpha.read_write(w) : alpha.write(w);
  double* so = (&sigma == &sigma_) ? sigma.read_write(w) : sigma.write(w);
  advance_particles(b, size(), u, xo, ao, so);
}

// AB2, or the midpoint rule when there are no previous rates (Integrator::step's order of stages).
void DeviceStepper::step(double dt) {
  LOOM_REQUIRE(size() > 0, "vortex::DeviceStepper::step: upload particles first");
  rates(x_, alpha_, sigma_, now_);
  core::WallTimer update;
  if (have_previous_) {
    advance(now_, ab2_current, &previous_, ab2_previous, dt, x_, alpha_, sigma_);
  } else {
    core::Array<Vec3d> xm(x_.size()), am(x_.size());
    core::Array<double> sm(x_.size());
    advance(now_, 0.5, nullptr, 0, dt, xm, am, sm);
    times_.update += update.seconds();
    rates(xm, am, sm, mid_);
    update.start();
    advance(mid_, 1.0, nullptr, 0, dt, x_, alpha_, sigma_);
  }
  std::swap(previous_, now_);
  have_previous_ = true;
  if (fmm_.options().backend == core::Backend::cuda) cuda::synchronize();  // the update's time, not the next call's
  times_.update += update.seconds();
}

std::vector<Vec3d> DeviceStepper::velocity() {
  LOOM_REQUIRE(size() > 0, "vortex::DeviceStepper::velocity: upload particles first");
  rates(x_, alpha_, sigma_, mid_);  // mid_ holds the midpoint rule's rates only inside a step
  return to_vector(mid_.velocity);
}

CgResult DeviceStepper::reinitialise(const Lattice& lattice, const ReinitOptions& options) {
  const core::Backend b = fmm_.options().backend;
  const core::Where w = where(b);
  const Lattice l = lattice;
  const auto n = static_cast<std::size_t>(l.size());
  core::Array<Vec3d> omega(n), alpha(n), x(n);
  core::Array<double> sigma(n);
  lattice_vorticity(b, l, size(), x_.read(w), alpha_.read(w), sigma_.read(w), options.cutoff, omega.write(w));
  const double s = options.overlap * l.h, volume = l.h * l.h * l.h;
  const Vec3d* o = omega.read(w);
  Vec3d *a = alpha.write(w), *xn = x.write(w);
  double* sn = sigma.write(w);
  core::parallel_for(b, l.size(), [=] LOOM_HOST_DEVICE(Index m) {  // reinit.cpp's first guess omega dV
    const Index i = m % l.n[0], j = (m / l.n[0]) % l.n[1], k = m / (l.n[0] * l.n[1]);
    xn[m] = {l.origin.x + l.h * double(i), l.origin.y + l.h * double(j), l.origin.z + l.h * double(k)};
    a[m] = volume * o[m];
    sn[m] = s;
  });
  const CgResult r = solve_rbf_on_backend(b, l, s, options.cutoff, o, a, options.tolerance, options.max_iterations);
  x_ = std::move(x);
  alpha_ = std::move(alpha);
  sigma_ = std::move(sigma);
  have_previous_ = false;
  have_tree_ = false;
  return r;
}

void DeviceStepper::spread_cores(double spread) {
  const core::Backend b = fmm_.options().backend;
  double* s = sigma_.read_write(where(b));
  core::parallel_for(b, size(), [=] LOOM_HOST_DEVICE(Index i) { s[i] = spread_core(s[i], spread); });
}

DeviceStepTimes DeviceStepper::take_times() {
  const DeviceStepTimes t = times_;
  times_ = {};
  return t;
}

}  // namespace loom::vortex
