#include "loom/hit/solver.hpp"

#include <cmath>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/hit/transforms_slabs.hpp"

namespace loom::hit {
namespace {

// Half a cell in every direction: the second grid of the phase-shift dealiasing.
double shift_of(SpectralGrid g, int shift) { return shift == 0 ? 0.0 : 0.5 * g.spacing(); }

void fill_zeros(core::Backend backend, core::Array<Complex>& a) {
  Complex* v = a.write(core::where(backend));
  core::parallel_for(backend, Index(a.size()), [=] LOOM_HOST_DEVICE(Index i) { v[i] = Complex{}; });
}

std::unique_ptr<Transforms> plain_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning,
                                             SlabTransform slabs, const std::optional<comm::Communicator>& comm) {
  if (!comm || comm->size() == 1) return make_transforms(backend, grid, planning);
  if (backend == core::Backend::cuda || slabs == SlabTransform::alltoall)
    return make_slab_transforms(backend, grid, planning, *comm);
  return make_fftw_mpi_transforms(grid, planning, *comm);
}

// With callbacks: cuFFT's own on one GPU; the CPU's transforms run the callbacks' functions in passes (the same
// arithmetic, for the tests); the GPU's slabs run the solver's kernels (they have no callbacks).
std::unique_ptr<Transforms> solver_transforms(core::Backend backend, SpectralGrid grid, const SolverOptions& o,
                                              const std::optional<comm::Communicator>& comm) {
  auto plain = plain_transforms(backend, grid, o.planning, o.slabs, comm);
  if (!o.callbacks || backend != core::Backend::cpu) return plain;
  return with_host_callbacks(std::move(plain));
}

}  // namespace

bool uses_pruned_transforms(core::Backend /*either: both measured*/, const SolverOptions& o, int ranks) {
  // The callbacks fuse the pointwise work into the plain transforms instead.
  if (ranks > 1 || o.callbacks || o.pruning == Pruning::off) return false;
  if (o.pruning == Pruning::on) return true;
  // Measured faster under the 2/3 rule on the H200 and on its host's 16 cores (docs/performance.md, tenth session);
  // the phase-shift sphere's box holds nearly every mode.
  return o.dealiasing == Dealiasing::two_thirds;
}

bool writes_kept_fields(core::Backend backend, const SolverOptions& o, int ranks) {
  // cuFFT's planes form runs the z and y passes as one transform in place: it needs inverse()'s whole input.
  return uses_pruned_transforms(backend, o, ranks) &&
         (backend == core::Backend::cpu || o.pruned_form == PrunedForm::columns);
}

bool fuses_stages(core::Backend backend, const SolverOptions& o, int ranks) {
  return writes_kept_fields(backend, o, ranks) && o.dealiasing != Dealiasing::phase_shift;
}

Solver::Solver(core::Backend backend, SpectralGrid grid, SolverOptions options, std::optional<comm::Communicator> comm)
    : backend_(backend),
      grid_(grid),
      options_(options),
      comm_(std::move(comm)),
      fft_(solver_transforms(backend, grid, options, comm_)),
      pruned_(uses_pruned_transforms(backend, options, comm_ ? comm_->size() : 1)
                  ? make_pruned_transforms(backend, grid, options.dealiasing, options.planning, options.pruned_form)
                  : nullptr),
      kept_input_(hit::writes_kept_fields(backend, options, comm_ ? comm_->size() : 1)),
      fused_(hit::fuses_stages(backend, options, comm_ ? comm_->size() : 1)),
      u_(3 * std::size_t(layout().mode_stride)),
      w_(fused_ ? 0 : 3 * std::size_t(layout().mode_stride)),
      acc_(3 * std::size_t(layout().mode_stride)),
      partial_(options.dealiasing == Dealiasing::phase_shift ? 3 * std::size_t(layout().mode_stride) : 0),
      spectral_(6 * std::size_t(layout().mode_stride)),
      kept_(kept_input_ ? 6 * std::size_t(layout().mode_stride) : 0),
      physical_(6 * std::size_t(layout().point_stride)) {
  LOOM_REQUIRE(grid.n >= 4 && grid.n % 2 == 0, "hit::Solver: the grid needs an even n >= 4");
  LOOM_REQUIRE(!kept_input_ || stage_transforms().reads_kept_input(), "hit::Solver: the transforms need inverse()");
  if (kept_input_) fill_zeros(backend_, kept_);  // the zeros the evaluations never write again
}

void Solver::set_modes(core::Array<Complex> u_hat, double t, Index steps) {
  LOOM_REQUIRE(u_hat.size() == u_.size(), "hit::Solver::set_modes: 3 layout().mode_stride values expected");
  const SlabLayout L = layout();
  const Index M = L.mode_stride;
  const Dealiasing d = options_.dealiasing;
  Complex* u = u_hat.read_write(core::where(backend_));
  core::parallel_for(backend_, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    if (retained(d, L.grid.n, L.wavevector(m))) return;
    u[m] = u[M + m] = u[2 * M + m] = Complex{};
  });
  u_ = std::move(u_hat);
  t_ = t;
  steps_ = steps;
}

void Solver::set_velocity(const core::Array<double>& velocity, double t) {
  LOOM_REQUIRE(velocity.size() == 3 * std::size_t(grid_.points()), "hit::Solver::set_velocity: 3 n^3 values");
  const SlabLayout L = layout();
  const Index N = grid_.points(), P = L.point_stride;
  double* points = physical_.write(core::where(backend_));
  const double* in = velocity.read(core::where(backend_));
  core::parallel_for(backend_, L.points(), [=] LOOM_HOST_DEVICE(Index i) {
    const Index global = L.is_point(i) ? L.global_point(i) : 0;  // padding: any value, the transform skips it
    for (Index c = 0; c < 3; ++c) points[c * P + i] = in[c * N + global];
  });
  modes_from_points(t);
}

void Solver::set_local_velocity(const core::Array<double>& local, double t) {
  LOOM_REQUIRE(local.size() == 3 * std::size_t(layout().point_stride),
               "hit::Solver::set_local_velocity: 3 layout().point_stride values");
  double* points = physical_.write(core::where(backend_));
  const double* in = local.read(core::where(backend_));
  core::parallel_for(backend_, Index(local.size()), [=] LOOM_HOST_DEVICE(Index i) { points[i] = in[i]; });
  modes_from_points(t);
}

// The modes of the velocity in the first 3 grid components of the work space (eq. 1's state, 1/n^3 folded in).
void Solver::modes_from_points(double t) {
  const auto where = core::where(backend_);
  const SlabLayout L = layout();
  const Index M = L.mode_stride;
  core::Array<Complex> modes(3 * std::size_t(M));
  Complex* out = modes.write(where);
  fft_->forward(physical_.read_write(where), out, 3);
  const double scale = 1.0 / double(grid_.points());
  core::parallel_for(backend_, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    for (Index c = 0; c < 3; ++c) out[c * M + m] = scale * out[c * M + m];
  });
  set_modes(std::move(modes), t, 0);
}

// Kernel A: the kept modes of u and omega = i k x u (times the shift's phase) into the 6 spectral components (into
// kept_, whose other modes stay zero, when the transforms read a kept input; every mode of the work space
// otherwise), then to the grid; with callbacks, inside the inverse transforms' loads.
void Solver::to_physical(const Complex* input, int shift) {
  const auto where = core::where(backend_);
  const ModeLoad load{input, layout(), options_.dealiasing, shift_of(grid_, shift)};
  if (options_.callbacks && fft_->fuses())
    return fft_->inverse_loaded(load, spectral_.write(where), physical_.write(where));
  const SlabLayout L = load.layout;
  const Index M = L.mode_stride;
  const bool zeros_kept = kept_input_;
  Complex* s = zeros_kept ? kept_.read_write(where) : spectral_.write(where);
  core::parallel_for(backend_, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    const Wavevector k = L.wavevector(m);
    const bool kept = retained(load.dealiasing, L.grid.n, k);
    if (!kept && zeros_kept) return;
    const Complex factor = kept ? shift_phase(k, load.shift) : Complex{};  // one phase for the 6 components
    for (int c = 0; c < 6; ++c) s[c * M + m] = kept ? velocity_or_vorticity(k, factor, load.input, M, m, c) : Complex{};
  });
  fields_to_grid();
}

// The inverse transforms of the six fields kernel A (or, fused, the last stage's update) left.
void Solver::fields_to_grid() {
  const auto where = core::where(backend_);
  if (kept_input_)
    return stage_transforms().inverse_from_kept(kept_.read(where), spectral_.write(where), physical_.write(where), 6);
  stage_transforms().inverse(spectral_.read_write(where), physical_.write(where), 6);
}

// Kernel B: u x omega on the grid, over the first three components; optionally the largest |u| + |v| + |w| (of
// all ranks; a row's padding is skipped there and crossed harmlessly here).
double Solver::cross_product(bool want_speed) {
  const SlabLayout L = layout();
  const Index N = L.point_stride;
  double* r = physical_.read_write(core::where(backend_));
  auto body = [=] LOOM_HOST_DEVICE(Index i) {
    const PointVector u{r[i], r[N + i], r[2 * N + i]}, omega{r[3 * N + i], r[4 * N + i], r[5 * N + i]};
    const PointVector c = cross(u, omega);
    r[i] = c.x, r[N + i] = c.y, r[2 * N + i] = c.z;
    return L.is_point(i) ? std::fabs(u.x) + std::fabs(u.y) + std::fabs(u.z) : 0.0;
  };
  if (want_speed) return max_over_ranks(core::parallel_max(backend_, L.points(), body));
  core::parallel_for(backend_, L.points(), body);
  return 0;
}

// Kernel C: N = P(k) (u x omega)^ / n^3 on the kept modes (eq. 1), averaged over the shifted grids, then the
// stage's integrating-factor update (stages.hpp) of acc and of the next input; with callbacks, inside the forward
// transforms' stores.
void Solver::finish_stage(const Stage& stage, double h, int shift, int shifts) {
  const auto where = core::where(backend_);
  ModeUpdate p;
  p.layout = layout();
  p.dealiasing = options_.dealiasing;
  p.nu = options_.nu, p.half_step = 0.5 * h, p.shift = shift_of(grid_, shift);
  p.scale = 1.0 / double(grid_.points());
  p.stage = stage;
  p.keep_partial = shift + 1 < shifts, p.add_partial = shift > 0;
  // Pointers by what the update does with them: arrays it overwrites whole (on the kept modes) are not read first.
  p.partial = p.keep_partial ? partial_.write(where) : p.add_partial ? partial_.read_write(where) : nullptr;
  p.u = u_.read_write(where);
  p.acc = stage.writes_acc && stage.to_acc.from_acc == 0 ? acc_.write(where) : acc_.read_write(where);
  p.fields = fused_ && !stage.last ? kept_.read_write(where) : nullptr;
  p.next = stage.last ? p.u : p.fields != nullptr ? nullptr : w_.write(where);
  Complex* s = spectral_.write(where);
  if (options_.callbacks && fft_->fuses()) return fft_->forward_stored(physical_.read_write(where), s, p);
  stage_transforms().forward(physical_.read_write(where), s, 3);
  const Index M = p.layout.mode_stride;
  core::parallel_for(backend_, p.layout.modes(),
                     [=] LOOM_HOST_DEVICE(Index m) { update_mode(p, m, s[m], s[M + m], s[2 * M + m]); });
}

double Solver::step(const StepRule& rule) {
  const auto where = core::where(backend_);
  const int shifts = options_.dealiasing == Dealiasing::phase_shift ? 2 : 1;
  double h = rule.dt;
  StageTable table;
  for (int s = 0;; ++s) {
    for (int shift = 0; shift < shifts; ++shift) {
      if (s > 0 && fused_)
        fields_to_grid();  // the previous stage's update wrote the fields
      else
        to_physical(s == 0 ? u_.read(where) : w_.read(where), shift);
      const bool first = s == 0 && shift == 0;
      const double speed = cross_product(first && rule.dt <= 0);
      if (first) {
        if (rule.dt <= 0) h = std::min(rule.cfl * grid_.spacing() / std::max(speed, 1e-300), rule.dt_cap);
        table = if_rk_stages(options_.scheme, h);
      }
      finish_stage(table.stage[std::size_t(s)], table.h, shift, shifts);
    }
    if (table.stage[std::size_t(s)].last) break;
  }
  t_ += h;
  ++steps_;
  return h;
}

const core::Array<double>& Solver::velocity() {
  const auto where = core::where(backend_);
  const SlabLayout L = layout();
  const Index M = L.mode_stride;
  Complex* s = spectral_.write(where);
  const Complex* u = u_.read(where);
  core::parallel_for(backend_, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    for (Index c = 0; c < 3; ++c) s[c * M + m] = u[c * M + m];
  });
  fft_->inverse(s, physical_.write(where), 3);
  return physical_;
}

double Solver::max_speed_sum() {
  const SlabLayout L = layout();
  const Index N = L.point_stride;
  const double* r = velocity().read(core::where(backend_));
  return max_over_ranks(core::parallel_max(backend_, L.points(), [=] LOOM_HOST_DEVICE(Index i) {
    return L.is_point(i) ? std::fabs(r[i]) + std::fabs(r[N + i]) + std::fabs(r[2 * N + i]) : 0.0;
  }));
}

}  // namespace loom::hit
