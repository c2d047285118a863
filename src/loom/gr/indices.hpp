// Component indexing of the generalized harmonic variables at one point, in the order of spectral::TensorShape
// (kinds aa and iaa): a symmetric pair (a, b) of spacetime indices (0 the time) is stored once, pairs ordered
// (0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3) (2,2) (2,3) (3,3); Phi_iab is 3 blocks of 10. The evolved state of
// a point is 50 values: psi_ab (0..9), Pi_ab (10..19), Phi_iab (20..49).
#pragma once

#include "loom/core/host_device.hpp"

namespace loom::gr {

inline constexpr int pairs = 10;        // unique components of a symmetric 4 x 4 tensor
inline constexpr int state_size = 50;   // psi, Pi, Phi
inline constexpr int pi_offset = 10;
inline constexpr int phi_offset = 20;

LOOM_HOST_DEVICE constexpr int sym(int a, int b) {
  const int p = a < b ? a : b, q = a < b ? b : a;
  return p * 4 - p * (p - 1) / 2 + (q - p);
}

// A symmetric 4 x 4 tensor unpacked to a full matrix.
LOOM_HOST_DEVICE inline void unpack(const double* packed, double (&full)[4][4]) {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) full[a][b] = packed[sym(a, b)];
}

}  // namespace loom::gr
