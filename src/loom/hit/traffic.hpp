// The memory traffic of the passes of a step that are not FFTs (solver.cpp's kernels A, B and C), counted per
// array element each pass reads or writes once: the bytes a step must move besides its transforms. `loom bench
// hit` prints them with the bandwidth they imply, (step - FFT floor) / bytes, so that a step's distance from its
// FFT floor reads as passes times bytes against the device's copy bandwidth.
#pragma once

#include "loom/hit/solver.hpp"

namespace loom::hit {

struct StepTraffic {
  double to_physical = 0;    // kernel A: reads the 3 input components, writes u and omega (6)
  double cross_product = 0;  // kernel B: reads u and omega on the grid (6), writes u x omega (3)
  double finish_stage = 0;   // kernel C: N, u, acc and the phase-shift partial read; acc and the next input written
  double total() const { return to_physical + cross_product + finish_stage; }
};

// Bytes per step of the whole grid (one rank) with `options`' scheme and dealiasing.
StepTraffic step_traffic(SpectralGrid grid, const SolverOptions& options);

}  // namespace loom::hit
