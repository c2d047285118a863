#include "loom/hit/benchmark.hpp"

#include <fmt/format.h>

#include <cstring>

#include "loom/core/cuda_api.hpp"
#include "loom/core/timer.hpp"
#include "loom/hit/initial.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/hit/traffic.hpp"
#include "loom/perf/timing.hpp"

namespace loom::hit {

double solver_bytes(Index n, core::Backend backend, const SolverOptions& o, int ranks) {
  const SpectralGrid g{n};
  const double mode_bytes = double(g.modes()) * sizeof(Complex), point_bytes = double(g.points()) * sizeof(double);
  const double kept = writes_kept_fields(backend, o, ranks) ? 6 : 0, fused = fuses_stages(backend, o, ranks) ? 3 : 0;
  return (9 + 6 + (o.dealiasing == Dealiasing::phase_shift ? 3 : 0) + kept - fused) * mode_bytes + 6 * point_bytes;
}

StepTiming time_step(core::Backend backend, Index n, const BenchmarkOptions& o,
                     std::optional<comm::Communicator> comm) {
  StepTiming t;
  t.backend = backend;
  t.n = n;
  t.ranks = comm ? comm->size() : 1;
  t.memory_bytes = solver_bytes(n, backend, o.solver, t.ranks);
  t.callbacks = o.solver.callbacks;
  const int shifts = o.solver.dealiasing == Dealiasing::phase_shift ? 2 : 1;
  t.evaluations = (o.solver.scheme == Scheme::rk4 ? 4 : 2) * shifts;
  Solver solver(backend, {n}, o.solver, comm);
  t.kept_fields = solver.writes_kept_fields(), t.fused = solver.fuses_stages();
  const bool one_gpu = backend == core::Backend::cuda && t.ranks == 1;
  const FieldPath path = t.callbacks && one_gpu ? FieldPath::callbacks
                         : t.kept_fields         ? FieldPath::kept
                                                 : FieldPath::whole;
  const double zeroed = t.kept_fields ? zeroed_fraction(kept_lines({n}, o.solver.dealiasing), one_gpu) : 0;
  const StepTraffic traffic = step_traffic({n}, o.solver, path, zeroed);
  t.kernel_bytes = traffic.total() - traffic.zero_pass;  // the zeros belong to the transforms' own time (their floor)
  t.pruned = solver.pruned();
  t.form = o.solver.pruned_form;
  const TransformWork full = transform_work({n}, o.solver, false, false),
                      used = transform_work({n}, o.solver, t.pruned, backend == core::Backend::cuda);
  t.full_fft_bytes = full.bytes, t.full_fft_flops = full.flops;
  t.fft_bytes = used.bytes, t.fft_flops = used.flops;
  solver.set_modes(restrict_modes(
      solver.layout(), random_solenoidal({n}, o.solver.dealiasing, SpectrumShape::exponential, 4, 0.5, 1)));
  const StepRule rule{0.1 * solver.grid().spacing()};  // Courant number about 0.1 * max|u|: stable, fixed
  core::Stopwatch watch(backend);
  const ExchangeCounts before = solver.transforms().exchange_counts();
  double stepping = 0;  // every step's seconds, warm-up included, for the transposes' share of the same steps
  t.step_s = perf::time_repeated(o.warmup, o.repeats, [&] {
               watch.start();
               solver.step(rule);
               const double s = watch.stop();
               stepping += s;
               return s;
             }).median;
  const ExchangeCounts after = solver.transforms().exchange_counts();
  const double steps = double(o.warmup + o.repeats);
  t.exchange_s = solver.max_over_ranks((after.seconds - before.seconds) / steps);
  t.exchange_share = solver.max_over_ranks((after.seconds - before.seconds) / stepping);
  t.exchange_bytes = solver.max_over_ranks((after.sent_bytes - before.sent_bytes) / steps);
  t.staged_bytes = solver.max_over_ranks((after.staged_bytes - before.staged_bytes) / steps);
  // Zeros: the repeated unnormalised transforms would otherwise grow the data towards overflow.
  const auto where = core::where(backend);
  Complex* modes = solver.spectral_work().write(where);
  double* points = solver.physical_work().write(where);
  if (backend == core::Backend::cuda) {
    cuda::fill_bytes(modes, 0, solver.spectral_work().bytes());
    cuda::fill_bytes(points, 0, solver.physical_work().bytes());
  } else {
    std::memset(static_cast<void*>(modes), 0, solver.spectral_work().bytes());
    std::memset(static_cast<void*>(points), 0, solver.physical_work().bytes());
  }
  Transforms& fft = solver.transforms();
  // The transforms as the step runs them: the pruned ones from the solver's kept fields when it writes them.
  const Complex* kept = t.kept_fields ? solver.kept_fields().read(where) : nullptr;
  const auto floor_of = [&](Transforms& f, bool from_kept) {
    return t.evaluations * perf::time_repeated(o.warmup, o.repeats, [&] {
                             watch.start();
                             if (from_kept)
                               f.inverse_from_kept(kept, modes, points, 6);
                             else
                               f.inverse(modes, points, 6);
                             f.forward(points, modes, 3);
                             return watch.stop();
                           }).median;
  };
  t.floor_s = floor_of(fft, false);
  if (t.pruned) t.pruned_floor_s = floor_of(solver.stage_transforms(), t.kept_fields);
  t.pair_s = perf::time_repeated(o.warmup, o.repeats, [&] {
               watch.start();
               fft.forward(points, modes, 1);
               fft.inverse(modes, points, 1);
               return watch.stop();
             }).median;
  t.step_s = solver.max_over_ranks(t.step_s);
  t.floor_s = solver.max_over_ranks(t.floor_s);
  t.pair_s = solver.max_over_ranks(t.pair_s);
  return t;
}

double beyond_fft_bandwidth(const StepTiming& r) {
  const double floor = r.pruned ? r.pruned_floor_s : r.floor_s;  // the transforms the step runs
  return r.step_s > floor ? r.kernel_bytes / (r.step_s - floor) : 0.0;
}

namespace {

const char* pruned_name(const StepTiming& r) {
  return !r.pruned ? "off" : r.form == PrunedForm::planes ? "planes" : "columns";
}

}  // namespace

void print_step_table(std::ostream& out, const std::vector<StepTiming>& rows) {
  // kernel GB: the non-FFT passes' bytes per step (traffic.hpp); GB/s beyond FFT: those bytes over the time the
  // step spends beyond its FFT floor, to hold against the copy bandwidth of `loom bench ceilings`. alltoall %:
  // the transposes' share of the step (staging included); sent GB: what a rank sends to the others per step.
  // pruned: the step through the pruned transforms; FFT floor and step/FFT stay the plain transforms' (the
  // reference), pruned FFT ms is the pruned transforms alone; FFT GB and GFlop: the model of the transforms the
  // step runs (traffic.hpp), plain / as run.
  out << "FFT floor: the plain (unpruned) transforms of the step, the reference of step/FFT for every row\n";
  out << fmt::format("{:<8}{:>6}{:>11}{:>9}{:>6}{:>12}{:>14}{:>10}{:>15}{:>16}{:>14}{:>10}{:>11}{:>18}{:>12}{:>10}{:>17}{:>19}\n",
                     "backend", "ranks", "callbacks", "pruned", "n", "step ms", "FFT floor ms", "step/FFT",
                     "pruned FFT ms", "fwd+inv ms (1)", "Mpoints/s", "GiB", "kernel GB", "GB/s beyond FFT",
                     "alltoall %", "sent GB", "FFT GB full/run", "FFT GFlop full/run");
  for (const auto& r : rows)
    out << fmt::format(
        "{:<8}{:>6}{:>11}{:>9}{:>6}{:>12.3f}{:>14.3f}{:>10.3f}{:>15.3f}{:>16.3f}{:>14.1f}{:>10.2f}{:>11.2f}{:>18.1f}{:>12.1f}"
        "{:>10.2f}{:>17}{:>19}\n",
        core::to_string(r.backend), r.ranks, r.callbacks ? "on" : "off", pruned_name(r), r.n,
        1e3 * r.step_s, 1e3 * r.floor_s, r.step_s / r.floor_s, 1e3 * r.pruned_floor_s, 1e3 * r.pair_s,
        double(r.n * r.n * r.n) / r.step_s / 1e6, r.memory_bytes / double(1 << 30), r.kernel_bytes / 1e9,
        beyond_fft_bandwidth(r) / 1e9, 100 * r.exchange_share, r.exchange_bytes / 1e9,
        fmt::format("{:.1f}/{:.1f}", r.full_fft_bytes / 1e9, r.fft_bytes / 1e9),
        fmt::format("{:.1f}/{:.1f}", r.full_fft_flops / 1e9, r.fft_flops / 1e9));
}

nlohmann::json to_json(const std::vector<StepTiming>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"backend", std::string(core::to_string(r.backend))},
                   {"n", r.n},
                   {"step_s", r.step_s},
                   {"fft_floor_s", r.floor_s},
                   {"step_over_floor", r.step_s / r.floor_s},
                   {"forward_inverse_one_component_s", r.pair_s},
                   {"evaluations_per_step", r.evaluations},
                   {"memory_bytes", r.memory_bytes},
                   {"ranks", r.ranks},
                   {"callbacks", r.callbacks},
                   {"pruned", pruned_name(r)},
                   {"pruned_fft_floor_s", r.pruned_floor_s},
                   {"fft_bytes_model", r.fft_bytes},
                   {"fft_flops_model", r.fft_flops},
                   {"full_fft_bytes_model", r.full_fft_bytes},
                   {"full_fft_flops_model", r.full_fft_flops},
                   {"kernel_bytes_model", r.kernel_bytes},
                   {"kept_fields", r.kept_fields},
                   {"fused_stages", r.fused},
                   {"bandwidth_beyond_fft", beyond_fft_bandwidth(r)},
                   {"alltoall_s_per_step", r.exchange_s},
                   {"alltoall_share", r.exchange_share},
                   {"alltoall_sent_bytes_per_step", r.exchange_bytes},
                   {"alltoall_staged_bytes_per_step", r.staged_bytes}});
  return out;
}

}  // namespace loom::hit
