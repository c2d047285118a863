// `loom bench hit`: the time of one integrating-factor RK4 step of the pseudo-spectral solver per grid size and
// backend, against its FFT floor measured in the same run: the step's own transforms alone (per evaluation of N,
// 6 complex-to-real and 3 real-to-complex transforms of the grid; 4 evaluations per RK4 step, twice that with
// phase-shift dealiasing), on the same arrays. Under mpiexec the grid is split in slabs over the ranks (FFTW's MPI
// transforms on the CPU, or fft.slabs = alltoall; the MPI_Alltoall transposes on the GPU) and the floor is the
// slab transforms, their transposes included; times are the slowest rank's. The alltoall transforms also report
// the transposes' share of the step and the bytes they move. With fft.callbacks = on the floor is still the plain
// transforms: the callbacks' work counts against the step. With fft.pruned = on (one rank) the step runs the pruned
// transforms of kept_lines.hpp, and the floor is still the plain transforms (the reference): the pruned
// transforms' own time alone is reported beside it, with both forms' modelled bytes and flops (traffic.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/core/backend.hpp"
#include "loom/hit/solver.hpp"

namespace loom::hit {

struct BenchmarkOptions {
  int warmup = 1, repeats = 5;
  SolverOptions solver{0.005};
};

struct StepTiming {
  core::Backend backend = core::Backend::cpu;
  Index n = 0;
  double step_s = 0;       // median seconds per step
  double floor_s = 0;      // the step's transforms alone: evaluations x (inverse of 6 + forward of 3), median
  double pair_s = 0;       // one forward plus one inverse transform of one component, median
  double memory_bytes = 0; // the solver's arrays
  int evaluations = 0;     // evaluations of N per step
  int ranks = 1;
  bool callbacks = false;  // fft.callbacks = on (inside cuFFT's transforms on one GPU)
  double kernel_bytes = 0; // the non-FFT passes' traffic per step (traffic.hpp, less the transforms' zero pass)
  bool kept_fields = false, fused = false;  // the solver's writes_kept_fields() and fuses_stages()
  bool pruned = false;      // the step through the pruned transforms (fft.pruned) of `form`
  PrunedForm form = PrunedForm::planes;
  double pruned_floor_s = 0;  // those transforms alone, as floor_s (0 when not pruned)
  double fft_bytes = 0, fft_flops = 0;                // the transforms the step runs, per step (traffic.hpp's model)
  double full_fft_bytes = 0, full_fft_flops = 0;      // the plain transforms, the same model
  // The MPI_Alltoall transposes per step (transforms.hpp's ExchangeCounts, mean over the warm-up and timed steps,
  // the slowest rank): seconds, bytes a rank sends to the others, bytes a rank stages between device and host.
  double exchange_s = 0, exchange_bytes = 0, staged_bytes = 0;
  double exchange_share = 0;  // of the same steps' time
};

// Bytes the solver's arrays take at grid size n (3 state arrays, 6 + 6 work components, the phase-shift partial;
// the kept fields' 6 and no w when the stages are fused, solver.hpp).
double solver_bytes(Index n, core::Backend backend, const SolverOptions& options, int ranks = 1);

// On the ranks of `comm` when given (collective), else on this process alone.
StepTiming time_step(core::Backend backend, Index n, const BenchmarkOptions& options,
                     std::optional<comm::Communicator> comm = std::nullopt);

// The non-FFT bytes over the step's time beyond the transforms it runs (the pruned ones' floor when pruned; 0 when
// the step is not slower).
double beyond_fft_bandwidth(const StepTiming& row);

void print_step_table(std::ostream& out, const std::vector<StepTiming>& rows);
nlohmann::json to_json(const std::vector<StepTiming>& rows);

}  // namespace loom::hit
