// The per-mode work on either side of the transforms of one evaluation of N (solver.hpp, eq. 1), written once for
// the kernels of solver.cpp and for cuFFT's load and store callbacks (callbacks_cufft.cu), which run the same
// functions inside the transforms' own loads and stores so that the kernels' passes over memory disappear.
// Dropped modes (the dealiasing mask) are neither read nor updated: the input of the inverse transforms is zero
// there whatever the arrays hold, so the modes the mask drops (70% under the 2/3 rule) cost no traffic after the
// transforms.
#pragma once

#include "loom/hit/slab_layout.hpp"
#include "loom/hit/stages.hpp"

namespace loom::hit {

// Component c of the six fields the grid needs (solver.cpp's kernel A): u (c < 3) and omega = i k x u (c >= 3) of
// mode m, with u the 3 components of `u` (M apart) times `factor` (the shift's phase). Reads only what component c
// needs: one component of u for u, two for omega.
LOOM_HOST_DEVICE inline Complex velocity_or_vorticity(Wavevector k, Complex factor, const Complex* u, Index M, Index m,
                                                      int c) {
  if (c < 3) return factor * u[c * M + m];
  const int w = c - 3, a = (w + 1) % 3, b = (w + 2) % 3;
  return curl_component(k, w, factor * u[a * M + m], factor * u[b * M + m]);
}

// What the loads before the inverse transforms read: the stage's input modes and the grid they go to.
struct ModeLoad {
  const Complex* input = nullptr;  // 3 components, layout.mode_stride apart
  SlabLayout layout;
  Dealiasing dealiasing = Dealiasing::two_thirds;
  double shift = 0;  // the grid's shift: 0, or half a cell (phase-shift dealiasing's second grid)
};

// Component c of mode m as the inverse transforms take it: zero, reading nothing, for a dropped mode.
LOOM_HOST_DEVICE inline Complex load_mode(const ModeLoad& p, int c, Index m) {
  const Wavevector k = p.layout.wavevector(m);
  if (!retained(p.dealiasing, p.layout.grid.n, k)) return {};
  return velocity_or_vorticity(k, shift_phase(k, p.shift), p.input, p.layout.mode_stride, m, c);
}

// What the update after the forward transforms of u x omega (solver.cpp's kernel C) reads and writes.
struct ModeUpdate {
  const Complex* n_xy = nullptr;  // the callbacks: where the first forward transform left N_x and N_y, raw
  Complex* u = nullptr;           // the step's start (the last stage's `next` as well)
  Complex* acc = nullptr;
  Complex* next = nullptr;
  // Not null: the next evaluation's six fields (kernel A's output on the unshifted grid) are written from the next
  // input in hand, in place of `next` (the RK combination fused with the next curl; one grid per evaluation only).
  Complex* fields = nullptr;
  Complex* partial = nullptr;  // phase-shift dealiasing: the first grid's N
  SlabLayout layout;
  Dealiasing dealiasing = Dealiasing::two_thirds;
  double nu = 0, half_step = 0, shift = 0, scale = 0;  // scale: 1/n^3 of the unnormalised forward transform
  Stage stage;
  bool keep_partial = false, add_partial = false;
};

// Mode m from the three raw forward-transform values (s_x, s_y, s_z) of u x omega: N = P(k) (u x omega)^ / n^3
// (eq. 1) with the dealiasing mask and the conjugate of the shift's phase, averaged with the other shifted grid's N,
// then the stage's integrating-factor update (stages.hpp) of acc and of the next input (or of the next evaluation's
// fields, velocity_or_vorticity() of the next input on the unshifted grid, whose phase is 1).
LOOM_HOST_DEVICE inline void update_mode(const ModeUpdate& p, Index m, Complex sx, Complex sy, Complex sz) {
  const Wavevector k = p.layout.wavevector(m);
  if (!retained(p.dealiasing, p.layout.grid.n, k)) return;
  const Complex factor = p.scale * core::conj(shift_phase(k, p.shift));
  ModeVector n = project(k, {factor * sx, factor * sy, factor * sz});
  const double e_half = viscous_decay(p.nu, k, p.half_step);
  const Complex* nc[3] = {&n.x, &n.y, &n.z};
  const Index M = p.layout.mode_stride;
  Complex next[3];
  for (int c = 0; c < 3; ++c) {
    const Index i = c * M + m;
    if (p.keep_partial) {
      p.partial[i] = *nc[c];
      continue;
    }
    const Complex value = p.add_partial ? 0.5 * (*nc[c] + p.partial[i]) : *nc[c];
    const Complex start = p.u[i];
    if (p.stage.writes_acc) p.acc[i] = stage_value(p.stage.to_acc, e_half, &p.acc[i], start, value);
    next[c] = stage_value(p.stage.to_next, e_half, &p.acc[i], start, value);
    if (p.fields == nullptr) p.next[i] = next[c];
  }
  if (p.fields == nullptr || p.keep_partial) return;
  const Complex unshifted = shift_phase(k, 0.0);  // exactly 1, as kernel A's factor on that grid
  for (int c = 0; c < 6; ++c) p.fields[c * M + m] = velocity_or_vorticity(k, unshifted, next, 1, 0, c);
}

// The transforms' view, as cuFFT's callbacks see the arrays: the offset of an element in the batched components
// (component c of mode m at c layout.mode_stride + m).
//
// The inverse transforms' load: component offset / M of the six of load_mode().
LOOM_HOST_DEVICE inline Complex load_element(const ModeLoad& p, Index offset) {
  const Index M = p.layout.mode_stride;
  return load_mode(p, int(offset / M), offset % M);
}

// The first forward transform's store (N_x and N_y, raw, into `out`): the kept modes only, as nothing reads the others.
LOOM_HOST_DEVICE inline void store_kept(const ModeUpdate& p, Complex* out, Index offset, Complex value) {
  if (retained(p.dealiasing, p.layout.grid.n, p.layout.wavevector(offset % p.layout.mode_stride))) out[offset] = value;
}

// The second forward transform's store (N_z of mode m): the whole update of the mode, N_x and N_y read back from
// where store_kept() left them.
LOOM_HOST_DEVICE inline void store_update(const ModeUpdate& p, Index m, Complex nz) {
  update_mode(p, m, p.n_xy[m], p.n_xy[p.layout.mode_stride + m], nz);
}

}  // namespace loom::hit
