// Tensors with symmetries (spectral-BH paper, section 3.3): spacetime indices a, b (4 values, 0 the time) and
// spatial indices i, j (3 values). Kinds: T_a (4), T_aa (10, symmetric), T_ab (16), T_abb (40, symmetric in the
// last two), T_iaa (30, symmetric in the last two), T_i (3), T_ij (9), T_ii (6, symmetric), and the scalar.
// All components of a tensor are one contiguous core::Array, component-major ([component * N + point]), so one
// GEMM or one kernel treats the whole tensor. TensorShape is plain data usable in device code.
#pragma once

#include <string>
#include <string_view>

#include "loom/core/array.hpp"
#include "loom/core/host_device.hpp"

namespace loom::spectral {

enum class TensorKind { scalar, a, aa, ab, abb, iaa, i, ij, ii };

struct TensorShape {
  int rank = 0;
  int dim[3] = {1, 1, 1};  // 4 (spacetime) or 3 (spatial) per index
  bool symmetric = false;  // the last two indices are symmetric

  // Unique components.
  LOOM_HOST_DEVICE int components() const {
    if (rank == 0) return 1;
    if (!symmetric) {
      int n = 1;
      for (int s = 0; s < rank; ++s) n *= dim[s];
      return n;
    }
    const int d = dim[rank - 1], pairs = d * (d + 1) / 2;
    return rank == 3 ? dim[0] * pairs : pairs;
  }
  // The stored component of index tuple idx (any order of a symmetric pair).
  LOOM_HOST_DEVICE int component(const int* idx) const {
    if (rank == 0) return 0;
    if (!symmetric) {
      int c = 0;
      for (int s = 0; s < rank; ++s) c = c * dim[s] + idx[s];
      return c;
    }
    const int d = dim[rank - 1];
    int p = idx[rank - 2], q = idx[rank - 1];
    if (p > q) {
      const int t = p;
      p = q;
      q = t;
    }
    const int pair = p * d - p * (p - 1) / 2 + (q - p);
    return rank == 3 ? idx[0] * (d * (d + 1) / 2) + pair : pair;
  }
  // The index tuple of stored component c (a symmetric pair with p <= q).
  LOOM_HOST_DEVICE void indices(int c, int* idx) const {
    if (rank == 0) return;
    if (!symmetric) {
      for (int s = rank - 1; s >= 0; --s) {
        idx[s] = c % dim[s];
        c /= dim[s];
      }
      return;
    }
    const int d = dim[rank - 1], pairs = d * (d + 1) / 2;
    if (rank == 3) {
      idx[0] = c / pairs;
      c %= pairs;
    }
    int p = 0;
    while (c >= d - p) {
      c -= d - p;
      ++p;
    }
    idx[rank - 2] = p;
    idx[rank - 1] = p + c;
  }
  // Whether index slot s is spacetime (its value 0 is time, 1..3 space).
  LOOM_HOST_DEVICE bool spacetime(int s) const { return dim[s] == 4; }
};

TensorShape shape_of(TensorKind kind);
std::string_view to_string(TensorKind kind);
// Parses a, aa, ab, abb, iaa, i, ij, ii, scalar; UsageError naming `key` otherwise.
TensorKind parse_tensor_kind(std::string_view text, std::string_view key = "tensor");

// A tensor field on N points: shape and one contiguous component-major array.
struct Tensor {
  TensorShape shape;
  Index points = 0;
  core::Array<double> data;

  Tensor() = default;
  Tensor(TensorShape s, Index n) : shape(s), points(n), data(static_cast<std::size_t>(s.components() * n)) {}
  int components() const { return shape.components(); }
};

}  // namespace loom::spectral
