#include "loom/fmm/parallel/let.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "loom/core/error.hpp"
#include "loom/fmm/expansions/harmonics.hpp"

namespace loom::fmm::parallel {

double distance_to_box(Vec3d x, const Box& box) {
  double d2 = 0;
  for (int d = 0; d < 3; ++d) {
    const double below = box.lower[d] - x[d], above = x[d] - box.upper[d];
    const double gap = std::max({below, above, 0.0});
    d2 += gap * gap;
  }
  return std::sqrt(d2);
}

namespace {

// The largest leaf radius beneath every cell (cells are stored parents first: children after).
std::vector<double> leaf_radius_below(const Tree& tree) {
  const auto& cells = tree.cells();
  std::vector<double> r(cells.size(), 0.0);
  for (std::size_t c = cells.size(); c-- > 0;) {
    if (cells[c].leaf()) r[c] = cells[c].radius;
    if (cells[c].parent >= 0) r[static_cast<std::size_t>(cells[c].parent)] = std::max(r[static_cast<std::size_t>(cells[c].parent)], r[c]);
  }
  return r;
}

}  // namespace

void append_patches(const Tree& tree, int count, std::vector<double>& out) {
  const auto& cells = tree.cells();
  if (tree.size() == 0 || cells.empty()) return;
  const std::vector<double> below = leaf_radius_below(tree);
  // open the cell with the largest leaves beneath while its children fit: where leaves are large, one patch
  // with them would make the sender open every cell near any of its bodies
  std::vector<int> chosen{0};
  while (true) {
    int widest = -1;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      const auto c = static_cast<std::size_t>(chosen[k]);
      if (!cells[c].leaf() && (widest < 0 || below[c] > below[static_cast<std::size_t>(chosen[static_cast<std::size_t>(widest)])]))
        widest = static_cast<int>(k);
    }
    if (widest < 0) break;
    const Cell& w = cells[static_cast<std::size_t>(chosen[static_cast<std::size_t>(widest)])];
    if (static_cast<int>(chosen.size()) - 1 + w.child_count > count) break;
    chosen.erase(chosen.begin() + widest);
    for (int k = 0; k < w.child_count; ++k) chosen.push_back(w.child_begin + k);
  }
  LOOM_REQUIRE(tree.has_bodies(), "append_patches: the tree's bodies on the host (not Tree::cells_only)");
  const auto& x = tree.positions();
  for (int c : chosen) {
    const Cell& cell = cells[static_cast<std::size_t>(c)];
    if (cell.count == 0) continue;
    Box b{x[static_cast<std::size_t>(cell.begin)], x[static_cast<std::size_t>(cell.begin)]};
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i)
      for (int d = 0; d < 3; ++d) {
        b.lower[d] = std::min(b.lower[d], x[static_cast<std::size_t>(i)][d]);
        b.upper[d] = std::max(b.upper[d], x[static_cast<std::size_t>(i)][d]);
      }
    out.insert(out.end(), {b.lower.x, b.lower.y, b.lower.z, b.upper.x, b.upper.y, b.upper.z,
                           below[static_cast<std::size_t>(c)]});
  }
}

std::vector<Patch> read_patches(std::span<const double> v) {
  LOOM_REQUIRE(v.size() % patch_values == 0, "read_patches: patch_values doubles per patch");
  std::vector<Patch> out;
  for (std::size_t at = 0; at < v.size(); at += patch_values)
    out.push_back({{{v[at], v[at + 1], v[at + 2]}, {v[at + 3], v[at + 4], v[at + 5]}}, v[at + 6]});
  return out;
}

namespace {

double strength_of(const LetSource& s, Index i, int d) {
  if (!s.body_order) return s.strength[d * s.tree->size() + i];
  return s.strength[s.body_order[i] * s.ncomp + d];
}

double sigma_of(const LetSource& s, Index i) {
  if (s.sigma.empty()) return 0.0;
  return s.sigma[static_cast<std::size_t>(s.body_order ? s.body_order[i] : i)];
}

const detail::C* multipoles_of(const LetSource& s, int c) {
  const Index per_cell = s.ncomp * term_count(s.order);
  return s.multipoles + (s.multipole_slot ? s.multipole_slot[c] : c) * per_cell;
}

// Writes the cell (and its bodies) at `at`, or the part of it asked for; returns one past the cell.
double* write_cell(const LetSource& s, const LetEntry& e, Vec3d shift, double* at, LetPart part) {
  const Cell& cell = s.tree->cells()[static_cast<std::size_t>(e.cell)];
  const int nt = term_count(s.order);
  const bool rest = part != LetPart::multipoles;
  if (rest) {
    const Vec3d center = cell.center + shift;
    at[0] = center.x;
    at[1] = center.y;
    at[2] = center.z;
    at[3] = cell.radius;
    at[4] = s.cell_sigma.empty() ? 0.0 : s.cell_sigma[static_cast<std::size_t>(e.cell)];
    at[5] = e.bodies ? double(cell.count) : 0.0;
    at[6] = double(e.children);
  }
  at += 7;
  if (part != LetPart::without_multipoles) {
    const detail::C* m = multipoles_of(s, e.cell);
    for (int k = 0; k < s.ncomp * nt; ++k) {
      at[2 * k] = m[k].re;
      at[2 * k + 1] = m[k].im;
    }
  }
  at += 2 * s.ncomp * nt;
  if (!e.bodies) return at;
  if (!rest) return at + static_cast<std::ptrdiff_t>(cell.count) * (4 + s.ncomp);
  const auto& x = s.tree->positions();
  for (Index i = cell.begin; i < cell.begin + cell.count; ++i) {
    const Vec3d p = x[static_cast<std::size_t>(i)] + shift;
    *at++ = p.x;
    *at++ = p.y;
    *at++ = p.z;
    for (int d = 0; d < s.ncomp; ++d) *at++ = strength_of(s, i, d);
    *at++ = sigma_of(s, i);
  }
  return at;
}

}  // namespace

LetCount plan_let(const Tree& tree, std::span<const double> cell_sigma, std::span<const Patch> receiver,
                  const LetCriterion& criterion, Vec3d shift, std::vector<LetEntry>* plan) {
  LetCount count;
  const auto& cells = tree.cells();
  if (cells.empty() || tree.size() == 0 || receiver.empty()) return count;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int c = stack.back();
    stack.pop_back();
    const Cell& cell = cells[static_cast<std::size_t>(c)];
    if (cell.count == 0) continue;
    const double sigma = cell_sigma.empty() ? 0.0 : cell_sigma[static_cast<std::size_t>(c)];
    bool accepted = true;
    for (const Patch& p : receiver) {
      const double d = distance_to_box(cell.center + shift, p.box), radii = cell.radius + p.leaf_radius;
      if (!(d * criterion.theta > radii && d - radii > criterion.guard * sigma)) {
        accepted = false;
        break;
      }
    }
    ++count.cells;
    if (accepted || cell.leaf()) {
      if (plan) plan->push_back({c, 0, !accepted});
      if (!accepted) count.bodies += cell.count;
      continue;
    }
    int children = 0;  // the non-empty ones, which the walk writes
    for (int k = 0; k < cell.child_count; ++k) children += cells[static_cast<std::size_t>(cell.child_begin + k)].count > 0;
    if (plan) plan->push_back({c, children, false});
    for (int k = cell.child_count - 1; k >= 0; --k) stack.push_back(cell.child_begin + k);  // pre-order
  }
  return count;
}

double* write_let(const LetSource& source, std::span<const LetEntry> plan, Vec3d shift, double* at, LetPart part) {
  for (const LetEntry& e : plan) at = write_cell(source, e, shift, at, part);
  return at;
}

LetCount select_let(const LetSource& s, std::span<const Patch> receiver, const LetCriterion& criterion,
                    std::vector<double>* out, Vec3d shift) {
  if (!out) return plan_let(*s.tree, s.cell_sigma, receiver, criterion, shift, nullptr);
  std::vector<LetEntry> plan;
  const LetCount count = plan_let(*s.tree, s.cell_sigma, receiver, criterion, shift, &plan);
  const std::size_t before = out->size();
  out->resize(before + static_cast<std::size_t>(count.doubles(s.order, s.ncomp)));
  write_let(s, plan, shift, out->data() + before);
  return count;
}

Let parse_let(std::span<const double> data, int order, int ncomp) {
  Let let;
  parse_let(data, order, ncomp, let);
  return let;
}

void parse_let(std::span<const double> data, int order, int ncomp, Let& let) {
  const int nt = term_count(order);
  const std::size_t header = 7, body = static_cast<std::size_t>(3 + ncomp + 1);
  let.cells.clear();
  let.multipoles.clear();
  let.x.clear();
  let.strength.clear();
  let.sigma.clear();
  std::vector<std::pair<int, int>> open;  // cells whose subtrees are still being read, and their children left
  std::size_t at = 0;
  while (at < data.size()) {
    LOOM_REQUIRE(at + header + 2 * static_cast<std::size_t>(ncomp * nt) <= data.size(), "parse_let: truncated cell");
    LetCell cell;
    cell.center = {data[at], data[at + 1], data[at + 2]};
    cell.radius = data[at + 3];
    cell.sigma = data[at + 4];
    cell.body_count = static_cast<Index>(data[at + 5]);
    cell.body_begin = static_cast<Index>(let.x.size());
    const auto children = static_cast<int>(data[at + 6]);
    LOOM_REQUIRE(children >= 0 && (children == 0 || cell.body_count == 0), "parse_let: a cell with bodies and children");
    at += header;
    for (int k = 0; k < ncomp * nt; ++k, at += 2) let.multipoles.push_back({data[at], data[at + 1]});
    LOOM_REQUIRE(at + body * static_cast<std::size_t>(cell.body_count) <= data.size(), "parse_let: truncated bodies");
    for (Index b = 0; b < cell.body_count; ++b, at += body) {
      let.x.push_back({data[at], data[at + 1], data[at + 2]});
      for (int d = 0; d < ncomp; ++d) let.strength.push_back(data[at + 3 + static_cast<std::size_t>(d)]);
      let.sigma.push_back(data[at + 3 + static_cast<std::size_t>(ncomp)]);
    }
    const int self = static_cast<int>(let.cells.size());
    cell.end = self + 1;
    let.cells.push_back(cell);
    if (children > 0) {
      open.emplace_back(self, children);
      continue;
    }
    while (!open.empty() && --open.back().second == 0) {  // the last child of a subtree closes it
      let.cells[static_cast<std::size_t>(open.back().first)].end = self + 1;
      open.pop_back();
    }
  }
  LOOM_REQUIRE(open.empty(), "parse_let: a subtree without all its children");
}

}  // namespace loom::fmm::parallel
