// One pair of device_lists.hpp's breadth-first traversal (LOOM_HOST_DEVICE: the host and the device run it): the
// dual traversal's rules (traversal.cpp's Traverser::visit) -- the MAC |dX| theta > R_A + R_B with the far-field
// guard gives an M2L pair, two leaves a P2P pair, a cell with itself all pairs of its children, and otherwise the
// larger cell is split -- told as an outcome and the number of pairs it becomes, and those pairs one by one.
#pragma once

#include <cmath>
#include <cstdint>

#include "loom/core/host_device.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::gpu {

struct CellPair {
  int target, source;
  std::uint8_t shift;
};

struct VisitRules {
  const Cell* cells;
  double theta, guard, period;
  bool far_field, periodic;
  const double* sigma;  // per source cell, or null
};

enum class Outcome : std::uint8_t { none, m2l, p2p, split_target, split_source, split_both };

// What the traversal does with pair p; `children`: how many pairs it splits into.
LOOM_HOST_DEVICE inline Outcome visit(const VisitRules& r, const CellPair& p, int& children) {
  children = 0;
  const Cell& A = r.cells[p.target];
  const Cell& B = r.cells[p.source];
  if (A.count == 0 || B.count == 0) return Outcome::none;
  if (p.target == p.source && p.shift == no_shift) {
    if (A.leaf()) return Outcome::p2p;
    children = A.child_count * A.child_count;
    return Outcome::split_both;
  }
  Vec3d center = B.center;
  if (r.periodic) center += shift_vector(p.shift, r.period);
  const double distance = sqrt(norm2(A.center - center));
  const double radii = A.radius + B.radius;
  const double sigma = r.sigma ? r.sigma[p.source] : 0.0;
  const bool apart = distance - radii > r.guard * sigma;
  if (r.far_field) {
    if (distance * r.theta > radii && apart) return Outcome::m2l;
  } else if (apart) {
    return Outcome::none;  // beyond the cutoff
  }
  if (A.leaf() && B.leaf()) return Outcome::p2p;
  if (B.leaf() || (!A.leaf() && A.radius >= B.radius)) {
    children = A.child_count;
    return Outcome::split_target;
  }
  children = B.child_count;
  return Outcome::split_source;
}

// The k-th pair that p splits into under outcome o.
LOOM_HOST_DEVICE inline CellPair child_pair(const Cell* cells, const CellPair& p, Outcome o, int k) {
  const Cell& A = cells[p.target];
  if (o == Outcome::split_target) return {A.child_begin + k, p.source, p.shift};
  if (o == Outcome::split_source) return {p.target, cells[p.source].child_begin + k, p.shift};
  return {A.child_begin + k / A.child_count, A.child_begin + k % A.child_count, p.shift};
}

}  // namespace loom::fmm::gpu
