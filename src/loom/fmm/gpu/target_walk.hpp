// One target cell's walk of device_lists.hpp's traversal (LOOM_HOST_DEVICE: the host and the device run it): the
// dual traversal's rules (traversal.cpp's Traverser::visit) seen from the target, with an explicit stack.
#pragma once

#include <cmath>
#include <cstdint>

#include "loom/core/host_device.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::gpu {

struct Source {
  int cell;
  std::uint8_t shift;
};

struct WalkRules {
  const Cell* cells;
  double theta, guard, period;
  bool far_field, periodic;
  const double* sigma;  // per source cell, or null
};

// Where a walk's pairs go: counted only (null pointers), or also written from the given places on.
struct WalkOutput {
  Index m2l = 0, p2p = 0, down = 0;  // counts
  Source *m2l_at = nullptr, *p2p_at = nullptr, *down_at = nullptr;
  LOOM_HOST_DEVICE void put(Source*& at, Index& count, Source s) {
    if (at) at[count] = s;
    ++count;
  }
};

inline constexpr int walk_stack_size = 512;  // > 8 children times the deepest tree

// Walks target a against the sources `in`; false when the stack overflowed.
LOOM_HOST_DEVICE inline bool walk_target(const WalkRules& r, int a, const Source* in, Index in_count, WalkOutput& out) {
  Source stack[walk_stack_size];
  const Cell& A = r.cells[a];
  for (Index e = 0; e < in_count; ++e) {
    int top = 0;
    stack[top++] = in[e];
    while (top > 0) {
      const Source s = stack[--top];
      const Cell& B = r.cells[s.cell];
      if (A.count == 0 || B.count == 0) continue;
      if (s.cell == a && s.shift == no_shift) {  // a cell with itself: all pairs of its children
        if (A.leaf()) out.put(out.p2p_at, out.p2p, s);
        else
          for (int j = 0; j < A.child_count; ++j) out.put(out.down_at, out.down, {A.child_begin + j, s.shift});
        continue;
      }
      Vec3d center = B.center;
      if (r.periodic) center += shift_vector(s.shift, r.period);
      const double distance = sqrt(norm2(A.center - center));
      const double radii = A.radius + B.radius;
      const double sigma = r.sigma ? r.sigma[s.cell] : 0.0;
      const bool apart = distance - radii > r.guard * sigma;
      if (r.far_field) {
        if (distance * r.theta > radii && apart) {
          out.put(out.m2l_at, out.m2l, s);
          continue;
        }
      } else if (apart) {
        continue;
      }
      if (A.leaf() && B.leaf()) {
        out.put(out.p2p_at, out.p2p, s);
      } else if (B.leaf() || (!A.leaf() && A.radius >= B.radius)) {
        out.put(out.down_at, out.down, s);  // split the target: A's children take this source
      } else {
        if (top + B.child_count > walk_stack_size) return false;
        for (int j = B.child_count - 1; j >= 0; --j) stack[top++] = {B.child_begin + j, s.shift};
      }
    }
  }
  return true;
}

}  // namespace loom::fmm::gpu
