// The memory traffic of the passes of a step that are not FFTs (solver.cpp's kernels A, B and C), counted per
// array element each pass reads or writes once: the bytes a step must move besides its transforms. `loom bench
// hit` prints them with the bandwidth they imply, (step - FFT floor) / bytes, so that a step's distance from its
// FFT floor reads as passes times bytes against the device's copy bandwidth. Kernels A and C touch the kept modes
// only (stage_modes.hpp), a fraction kappa of the stored ones; kernel A writes every mode (the transforms read
// them all). Inside the transforms (cuFFT's callbacks) the count is net of the transforms' own loads and stores
// that the callbacks replace, and may be negative: the inverse transforms' loads then read 9 kappa components of
// the input (1 for each of u, 2 for each of omega) in place of 6 whole components. With a kept input
// (Transforms::reads_kept_input()) kernel A writes the kept modes only, the transforms zero part of their work
// array instead, and with one grid per evaluation kernel C writes the next evaluation's six fields in place of its
// three input components, so that kernel A runs once per step.
#pragma once

#include "loom/hit/solver.hpp"

namespace loom::hit {

struct StepTraffic {
  double to_physical = 0;    // kernel A: the input's kept modes read (3), u and omega written (6)
  double zero_pass = 0;      // kept input: the zeros the transforms write into their work array
  double cross_product = 0;  // kernel B: reads u and omega on the grid (6), writes u x omega (3)
  double finish_stage = 0;   // kernel C: N, u, acc and the phase-shift partial read; acc and the next input written
  double total() const { return to_physical + zero_pass + cross_product + finish_stage; }
};

// How the evaluations reach the transforms: kernel A writes every mode of the inverse's input (whole); kernels A
// and C inside cuFFT's transforms (callbacks, fft.callbacks = on on one GPU); kernel A writes the kept modes of an
// input the transforms keep, which zero `zeroed` of each component of their work (kept, kept_lines.hpp).
enum class FieldPath { whole, callbacks, kept };

// The transforms' own work per step (fft.pruned's two forms side by side), modelled as three passes of 1D
// transforms of length n (kept_lines.hpp's PassLines) that each read and write their lines once: 2 x 16 bytes per
// complex value of a c2c pass, 16 (n/2 + 1) + 8 n bytes per line of the real pass; 5 n log2 n flops per complex
// line, half that per real line (the usual count). A model, not cuFFT's own pass structure: it says how much
// pruning removes, (full - pruned) / full, which the measured floors then test.
struct TransformWork {
  double bytes = 0, flops = 0;
};
// `pruned`: the pruned lines of options.pruned_form, batched as cuFFT batches them (`one_stride`) or as FFTW does.
TransformWork transform_work(SpectralGrid grid, const SolverOptions& options, bool pruned, bool one_stride);

// The fraction of the stored modes the dealiasing keeps.
double kept_fraction(SpectralGrid grid, Dealiasing dealiasing);

// Bytes per step of the whole grid (one rank) with `options`' scheme and dealiasing, by `path` (`zeroed`: the
// kept path's zeroed fraction, kept_lines.hpp's zeroed_fraction()).
StepTraffic step_traffic(SpectralGrid grid, const SolverOptions& options, FieldPath path = FieldPath::whole,
                         double zeroed = 0);

}  // namespace loom::hit
