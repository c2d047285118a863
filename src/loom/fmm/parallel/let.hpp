// Local essential trees (the paper's section on communication): what one rank's tree must tell another rank
// for that rank's sums. The receiver describes its tree by a few patches (cells of its tree, each the bounding
// box of its bodies and the largest radius of the leaves beneath it). Walking its tree against them, the sender
// keeps a cell's multipoles when the cell passes the multipole acceptance criterion against the nearest point
// of every patch, as if the patch's largest leaf stood there (theta |dX| > R_B + R_leaf, and for guarded
// kernels a gap of guard * sigma_B), and opens it otherwise, down to the leaves, whose bodies it sends (with
// their multipoles). Every leaf of the receiver then accepts every multipole-only cell it is sent (its centre
// lies in its patch's box, its radius is at most the patch's R_leaf). Patches rather than one box: clustered
// bodies have leaves of very different sizes, and one box with the largest leaf of all would make the sender
// open nearly every cell. The opened cells go too, with their multipoles, so that the receiver gets the
// sender's tree pruned, not flat: its dual traversal (let_field.hpp) takes a far part of the received tree
// by one M2L into a large local cell, where a flat list of the small cells near its boundary would need one
// M2L per small cell (measured: most of the received field's time, docs/performance.md).
// Wire format, per cell in depth-first pre-order, all doubles: centre (3), radius, largest sigma, body count
// b, child count k (the cells of its next k subtrees), the multipoles (ncomp * p(p+1)/2 complex), then b
// bodies of (x, y, z, ncomp strengths, sigma). A cell has bodies or children, not both.
#pragma once

#include <span>
#include <vector>

#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {

// The sender's side: its tree (host data), strengths and core radii, multipoles of every cell it sends and
// largest sigma per cell (empty: none). Strengths in tree order, component-major, and sigma in tree order
// (empty: none); or, with `order` (tree.order()), both in the caller's order, ncomp strengths per body
// interleaved, read through it (a rank's own arrays, not gathered whole for the few bodies it sends).
// Multipoles: every cell's, or with `multipole_slot` only those of the cells it sends, cell c's at slot[c]
// (a rank's device multipoles gathered for them alone, engine/passes.hpp cell_expansions).
struct LetSource {
  const Tree* tree = nullptr;
  int order = 0, ncomp = 1;
  const double* strength = nullptr;
  const detail::C* multipoles = nullptr;
  std::span<const double> cell_sigma, sigma;
  const Index* body_order = nullptr;
  const int* multipole_slot = nullptr;
};

struct LetCriterion {
  double theta = 0.4;
  double guard = 0;  // only where cell sigmas are given
};

// A part of the receiver's tree: the bounding box of a cell's bodies, the largest leaf radius beneath it.
struct Patch {
  Box box;
  double leaf_radius = 0;
};
constexpr int patch_values = 7;  // lower (3), upper (3), leaf radius: a patch as doubles
constexpr int patches_per_rank = 64;  // enough to follow a cluster's leaves, few enough to test them all

// The receiver's tree as at most `count` patches covering its bodies: from the root, the widest cell opened
// into its children while they fit. Appended to `out` as patch_values doubles each.
void append_patches(const Tree& tree, int count, std::vector<double>& out);
std::vector<Patch> read_patches(std::span<const double> values);

// What the receiver's patches need from the source's tree, as the selection walk decides it: the cells in
// depth-first pre-order, each with its non-empty children written (opened) or its bodies (an unaccepted
// leaf) or neither (accepted: multipoles only). `shift` moves the source's tree (a periodic image): the
// cells are tested where it puts them. Needs only the tree and its cell sigmas, not the multipoles: a rank
// plans its LETs before its upward pass and writes them after it (write_let).
struct LetEntry {
  int cell = 0, children = 0;
  bool bodies = false;
};
struct LetCount {
  Index cells = 0, bodies = 0;
  // doubles on the wire
  double doubles(int order, int ncomp) const {
    return double(cells) * (7 + ncomp * order * (order + 1)) + double(bodies) * (4 + ncomp);
  }
};
LetCount plan_let(const Tree& tree, std::span<const double> cell_sigma, std::span<const Patch> receiver,
                  const LetCriterion& criterion, Vec3d shift, std::vector<LetEntry>* plan);
// Writes the planned cells (wire format above), moved by `shift`, at `at` (room for the plan's
// LetCount::doubles); returns one past what it wrote. In two parts if asked: everything but the multipoles
// (their places skipped: a rank writes that before its upward pass has made them), then the multipoles alone
// into the same places (the source's multipoles only are read then).
enum class LetPart { all, without_multipoles, multipoles };
double* write_let(const LetSource& source, std::span<const LetEntry> plan, Vec3d shift, double* at,
                  LetPart part = LetPart::all);

// Both at once: appends what the receiver's patches need to `out` (null: only counts, for the model of many
// ranks; then the source needs only its tree and cell sigmas); returns the cells and bodies it takes.
LetCount select_let(const LetSource& source, std::span<const Patch> receiver, const LetCriterion& criterion,
                    std::vector<double>* out, Vec3d shift = {});

// The receiver's side: the cells and bodies of any number of concatenated messages, in their pre-order: the
// children of cell k are k + 1, then each next one at the previous one's `end`, up to k's own `end`; the roots
// likewise from 0.
struct LetCell {
  Vec3d center;
  double radius = 0, sigma = 0;
  Index body_begin = 0, body_count = 0;
  int end = 0;  // one past the cell's subtree
  bool leaf(int self) const { return end == self + 1; }
};
struct Let {
  std::vector<LetCell> cells;
  std::vector<detail::C> multipoles;  // ncomp * nt per cell
  std::vector<Vec3d> x;
  std::vector<double> strength;  // ncomp per body, interleaved
  std::vector<double> sigma;
};
Let parse_let(std::span<const double> data, int order, int ncomp);
// The same into `let`, whose vectors keep their memory (a rank's every step parses into the same one).
void parse_let(std::span<const double> data, int order, int ncomp, Let& let);

// Distance from x to the nearest point of the box (0 inside).
double distance_to_box(Vec3d x, const Box& box);

}  // namespace loom::fmm::parallel
