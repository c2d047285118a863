#include "loom/vortex/rates.hpp"

#include <algorithm>
#include <span>

#include "loom/core/timer.hpp"
#include "loom/vortex/neutral.hpp"

namespace loom::vortex {

RateEvaluator::RateEvaluator(const fmm::Options& options, StretchingForm form) : evaluator_(options), form_(form) {}

void RateEvaluator::evaluate(const Particles& p, Rates& out) {
  core::WallTimer tree;
  evaluator_.set_positions(p.x);
  times_.tree += tree.seconds();
  core::WallTimer call;
  std::span<const Vec3d> sums = p.alpha;
  if (options().periodic) {  // the sums of a neutral box (neutral.hpp)
    subtract_mean(p.alpha, mean_strength(p.alpha), neutral_);
    sums = neutral_;
  }
  evaluator_.biot_savart(sums, p.sigma, result_);
  out.velocity = result_.velocity;
  out.stretching = result_.stretching;
  if (form_ == StretchingForm::transpose) {  // omega = curl u: of the same strengths as u
    const std::vector<Vec3d> omega = evaluator_.gaussian_sum(sums, p.sigma);
    for (std::size_t i = 0; i < omega.size(); ++i) out.stretching[i] += fmm::cross(p.alpha[i], omega[i]);
  }
  const double lists = result_.time.traversal;  // traversed afresh: the positions changed
  times_.lists += lists;
  times_.fmm += call.seconds() - lists;
}

std::vector<Vec3d> RateEvaluator::velocity_at(const Particles& p, const std::vector<Vec3d>& points) {
  Particles all = p;
  all.x.insert(all.x.end(), points.begin(), points.end());
  if (options().periodic) subtract_mean(p.alpha, mean_strength(p.alpha), all.alpha);  // the particles' mean
  all.alpha.resize(all.x.size(), Vec3d{});
  // a zero strength's core radius changes no sum; the smallest keeps the far-field guard as it is
  const double sigma = p.sigma.empty() ? 1.0 : *std::min_element(p.sigma.begin(), p.sigma.end());
  all.sigma.resize(all.x.size(), sigma);
  std::vector<Vec3d> u = velocity(all);
  u.erase(u.begin(), u.begin() + p.size());
  return u;
}

std::vector<Vec3d> RateEvaluator::velocity(const Particles& p) {
  Rates rates;
  const StretchingForm form = form_;
  form_ = StretchingForm::classical;  // the omega sum of the transpose form changes no velocity
  evaluate(p, rates);
  form_ = form;
  return std::move(rates.velocity);
}

RateTimes RateEvaluator::take_times() {
  const RateTimes t = times_;
  times_ = {};
  return t;
}

}  // namespace loom::vortex
