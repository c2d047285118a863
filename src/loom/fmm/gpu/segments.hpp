// The per-body and per-part formulas of the backend tree build (device_tree.cu), LOOM_HOST_DEVICE so that the
// host and the device run the same ones: bounding boxes and their merge, the run id that tells which part (a
// contiguous range of bodies) a body lies in, the sort key along a part's longest side, and the bisection's split
// point (tree.cpp's bisect: the median, clamped to the middle half of the side).
#pragma once

#include <cstdint>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::gpu {

struct Range {
  Index begin, count;
};

struct Box {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  LOOM_HOST_DEVICE Vec3d center() const { return {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])}; }
  LOOM_HOST_DEVICE int longest_axis() const {
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
    return axis;
  }
};

struct MergeBoxes {
  LOOM_HOST_DEVICE Box operator()(const Box& a, const Box& b) const {
    Box m;
    for (int d = 0; d < 3; ++d) {
      m.lo[d] = a.lo[d] < b.lo[d] ? a.lo[d] : b.lo[d];
      m.hi[d] = a.hi[d] > b.hi[d] ? a.hi[d] : b.hi[d];
    }
    return m;
  }
};

LOOM_HOST_DEVICE inline Box point_box(const Vec3d& p) {
  Box b;
  for (int d = 0; d < 3; ++d) b.lo[d] = b.hi[d] = p[d];
  return b;
}

struct BoxOf {
  const Vec3d* x;
  LOOM_HOST_DEVICE Box operator()(Index i) const { return point_box(x[i]); }
};

// The run of body i among `count` sorted disjoint ranges: 2k + 1 inside range k, 2k between ranges k - 1 and k
// (so the ids grow with i, and a stable sort by them keeps the bodies outside the ranges in place).
LOOM_HOST_DEVICE inline std::int64_t run_of(const Range* r, Index count, Index i) {
  Index lo = 0, hi = count;  // the first range beginning after i
  while (lo < hi) {
    const Index mid = (lo + hi) / 2;
    if (r[mid].begin <= i) lo = mid + 1; else hi = mid;
  }
  if (lo > 0 && i < r[lo - 1].begin + r[lo - 1].count) return 2 * (lo - 1) + 1;
  return 2 * lo;
}

// Squared distance of body i from the centre of its cell (0 outside the cells).
struct Distance2 {
  const Vec3d* x;
  const std::int64_t* run;
  const Cell* cells;
  LOOM_HOST_DEVICE double operator()(Index i) const {
    if (run[i] % 2 == 0) return 0.0;
    return norm2(x[i] - cells[(run[i] - 1) / 2].center);
  }
};

// The bits of sort_key's position along a part's side (the run id takes the bits above them).
constexpr int sort_coordinate_bits = 40;

// (run, position along the part's longest side quantised to `bits` bits of its extent): sorting by it orders each
// part along its axis and leaves the bodies outside the parts where they are.
LOOM_HOST_DEVICE inline std::uint64_t sort_key(std::int64_t run, const Box* boxes, Vec3d x, int bits) {
  std::uint64_t q = 0;
  if (run % 2 == 1) {
    const Box& b = boxes[(run - 1) / 2];
    const int axis = b.longest_axis();
    const double extent = b.hi[axis] - b.lo[axis];
    if (extent > 0) {
      const double top = double(std::uint64_t(1) << bits) - 1;
      const double u = (x[axis] - b.lo[axis]) / extent * top;
      q = static_cast<std::uint64_t>(u < 0 ? 0 : (u > top ? top : u));
    }
  }
  return (static_cast<std::uint64_t>(run) << bits) | q;
}

// The count of the lower part of range r, sorted along its box's longest side: half of it, unless the median lies
// outside the middle half of the side; then the bodies below the nearer quarter point. x[j]: the j-th position of
// the sorted order (a pointer, or an accessor).
template <class Positions>
LOOM_HOST_DEVICE inline Index lower_count(Range r, const Box& b, const Positions& x) {
  const int axis = b.longest_axis();
  const Index half = r.count / 2;
  const double lo = b.lo[axis], extent = b.hi[axis] - b.lo[axis], median = x[r.begin + half][axis];
  double bounded = median < lo + 0.25 * extent ? lo + 0.25 * extent : median;
  bounded = bounded > lo + 0.75 * extent ? lo + 0.75 * extent : bounded;
  if (!(extent > 0) || bounded == median) return half;
  Index first = 0, last = r.count;  // the first body at or above bounded
  while (first < last) {
    const Index mid = (first + last) / 2;
    if (x[r.begin + mid][axis] < bounded) first = mid + 1; else last = mid;
  }
  return first;
}

}  // namespace loom::fmm::gpu
