// The memory traffic of the passes of a step that are not FFTs (solver.cpp's kernels A, B and C), counted per
// array element each pass reads or writes once: the bytes a step must move besides its transforms. `loom bench
// hit` prints them with the bandwidth they imply, (step - FFT floor) / bytes, so that a step's distance from its
// FFT floor reads as passes times bytes against the device's copy bandwidth. Kernels A and C touch the kept modes
// only (stage_modes.hpp), a fraction kappa of the stored ones; kernel A writes every mode (the transforms read
// them all). Inside the transforms (cuFFT's callbacks) the count is net of the transforms' own loads and stores
// that the callbacks replace, and may be negative: the inverse transforms' loads then read 9 kappa components of
// the input (1 for each of u, 2 for each of omega) in place of 6 whole components.
#pragma once

#include "loom/hit/solver.hpp"

namespace loom::hit {

struct StepTraffic {
  double to_physical = 0;    // kernel A: the input's kept modes read (3), u and omega written (6)
  double cross_product = 0;  // kernel B: reads u and omega on the grid (6), writes u x omega (3)
  double finish_stage = 0;   // kernel C: N, u, acc and the phase-shift partial read; acc and the next input written
  double total() const { return to_physical + cross_product + finish_stage; }
};

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

// Bytes per step of the whole grid (one rank) with `options`' scheme and dealiasing; `inside_transforms`: kernels
// A and C as the callbacks of cuFFT's transforms (fft.callbacks = on on one GPU).
StepTraffic step_traffic(SpectralGrid grid, const SolverOptions& options, bool inside_transforms = false);

}  // namespace loom::hit
