// Builds without CUDA have no thrust: the resident evaluator (resident.hpp) refuses, as the backend tree does.
#include "loom/core/error.hpp"
#include "loom/fmm/gpu/box_moments.hpp"
#include "loom/fmm/resident.hpp"

namespace loom::fmm {

struct ResidentEvaluator::State {};

ResidentEvaluator::ResidentEvaluator(Options) {
  throw UsageError("fmm: the resident evaluator needs a build with CUDA (thrust)");
}
ResidentEvaluator::~ResidentEvaluator() = default;
ResidentEvaluator::ResidentEvaluator(ResidentEvaluator&&) noexcept = default;
ResidentEvaluator& ResidentEvaluator::operator=(ResidentEvaluator&&) noexcept = default;
// never reached: no evaluator is ever constructed
void ResidentEvaluator::set_error_target(double) {}
const BudgetChoice& ResidentEvaluator::budget() const { throw Error("fmm: no resident evaluator"); }
void ResidentEvaluator::set_positions(const Vec3d*, Index) {}
bool ResidentEvaluator::move_positions(const Vec3d*, double) { return false; }
void ResidentEvaluator::laplace(const double*, double*, Vec3d*) {}
void ResidentEvaluator::biot_savart(const Vec3d*, const double*, Vec3d*, Vec3d*) {}
Index ResidentEvaluator::size() const { return 0; }
const Options& ResidentEvaluator::options() const { throw Error("fmm: no resident evaluator"); }
const Timings& ResidentEvaluator::time() const { throw Error("fmm: no resident evaluator"); }
const Statistics& ResidentEvaluator::stats() const { throw Error("fmm: no resident evaluator"); }
BusTraffic ResidentEvaluator::bus() const { return {}; }
double ResidentEvaluator::growth() const { return 1; }
double ResidentEvaluator::work_ratio() const { return 1; }
int ResidentEvaluator::builds() const { return 0; }
int ResidentEvaluator::refits() const { return 0; }

namespace gpu {
detail::BoxMoments box_moments_on(core::Backend, const Options&, Index, const Vec3d*, const double*, int) {
  throw UsageError("fmm: the box moments on the backend need a build with CUDA (thrust)");
}
}  // namespace gpu

}  // namespace loom::fmm
