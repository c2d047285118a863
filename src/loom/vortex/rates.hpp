// The right-hand side of the vortex method: dx/dt = u(x) by the Biot-Savart FMM with the Gaussian cutoff, and
// dalpha/dt by the stretching, in the classical form (alpha . grad) u or the transpose form (grad u)^T alpha.
#pragma once

#include <vector>

#include "loom/fmm/fmm.hpp"
#include "loom/vortex/particles.hpp"

namespace loom::vortex {

enum class StretchingForm { classical, transpose };

struct Rates {
  std::vector<Vec3d> velocity, stretching;
};

// Seconds since the last take(): the tree build, the interaction lists (their traversal, and on the GPU sending
// them), and the rest of the FMM's evaluation calls.
struct RateTimes {
  double tree = 0, lists = 0, fmm = 0;
};

class RateEvaluator {
 public:
  RateEvaluator(const fmm::Options& options, StretchingForm form);

  // The rates at the particles (periodic: of the strengths less their mean, neutral.hpp). The transpose form is
  // the classical one plus alpha_i x omega(x_i), since alpha_k d_m u_k - alpha_k d_k u_m = (alpha x omega)_m for
  // omega = curl u. For the particles' field curl u = omega_sigma + grad(div psi); the last term (from the
  // divergence of the particle vorticity, small while the particles resolve a solenoidal field) is dropped: omega
  // is the Gaussian sum omega_sigma(x_i) (fmm::Evaluator::gaussian_sum, the P2P pairs within 8 sigma).
  void evaluate(const Particles& p, Rates& out);
  // The velocity at extra points (zero-strength bodies evaluated together with the particles, which alone carry
  // the mean strength's removal).
  std::vector<Vec3d> velocity_at(const Particles& p, const std::vector<Vec3d>& points);
  // The velocity at the particles themselves (the stretching's form aside).
  std::vector<Vec3d> velocity(const Particles& p);

  RateTimes take_times();
  const fmm::Options& options() const { return evaluator_.options(); }

 private:
  fmm::Evaluator evaluator_;
  StretchingForm form_;
  fmm::BiotSavartResult result_;
  std::vector<Vec3d> neutral_;  // periodic: the strengths less their mean
  RateTimes times_;
};

}  // namespace loom::vortex
