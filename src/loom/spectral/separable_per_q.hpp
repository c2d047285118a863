// Step 2 of the GEMM route (separable_gemm.hpp) by hand: cuBLAS ran its products (n_r x n_theta, 10 x 19 at the
// production shell) one 32 x 32 tile of a 128-thread block each, 28 us for 13.7 M FMA (docs/spectral.md). Here
// a block takes one (sequence t, q) and a group of components: A_{t,q} is staged in shared memory once for all
// of them, and each lane computes theta_rows output rows of one radius, so each X value read serves all of them.
// Written once for the kernel (lanes: a block's threads) and the CPU form (one lane), which the CPU tests run.
#pragma once

#include <algorithm>

#include "loom/core/host_device.hpp"

namespace loom::spectral::per_q {

constexpr int theta_rows = 4;  // output rows per task
constexpr int group = 8;       // components per block

struct Step {
  Index n_r = 0, n_theta = 0, n_phi = 0, components = 0;
  const double* g = nullptr;                     // G_c [c N + q lines + r + n_r k]
  const double* matrix[2] = {nullptr, nullptr};  // A_{t,q} column-major at q n_theta^2 (element (row, k))
  double* h = nullptr;                           // H [((t C + c) n_phi + q) lines + r + n_r row]

  LOOM_HOST_DEVICE Index lines() const { return n_r * n_theta; }
  LOOM_HOST_DEVICE Index tiles() const { return (n_theta + theta_rows - 1) / theta_rows; }
  // Tasks of one block: (radius, row tile, component of the group), radius fastest (coalesced reads and writes).
  LOOM_HOST_DEVICE Index tasks() const { return n_r * tiles() * group; }
};

// Task `task` of block (t, q, component group c0 / group); `a` is A_{t,q} (staged or not).
LOOM_HOST_DEVICE inline void task(const Step& s, const double* a, Index t, Index q, Index c0, Index task) {
  const Index r = task % s.n_r, row0 = task / s.n_r % s.tiles() * theta_rows, c = c0 + task / (s.n_r * s.tiles());
  if (c >= s.components) return;
  const Index rows = std::min<Index>(theta_rows, s.n_theta - row0), lines = s.lines();
  const double* x = s.g + c * lines * s.n_phi + q * lines + r;
  double sum[theta_rows] = {};
  for (Index k = 0; k < s.n_theta; ++k) {
    const double xk = x[k * s.n_r];
    LOOM_UNROLL
    for (int i = 0; i < theta_rows; ++i)
      if (i < rows) sum[i] += a[row0 + i + s.n_theta * k] * xk;
  }
  double* out = s.h + ((t * s.components + c) * s.n_phi + q) * lines + r;
  LOOM_UNROLL
  for (int i = 0; i < theta_rows; ++i)
    if (i < rows) out[(row0 + i) * s.n_r] = sum[i];
}

}  // namespace loom::spectral::per_q

namespace loom::spectral::gpu {
// Step 2 on the device: blocks (component group, q, t), A_{t,q} in shared memory.
void per_q_step(const per_q::Step& s);
}  // namespace loom::spectral::gpu
