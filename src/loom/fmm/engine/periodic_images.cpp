// The periodic image levels (periodic_images.hpp). At each level the current super-cell (the box, then 3^3
// boxes, then 9^3, ...) is M2L'd from the 26 x 27 copies that fill the next larger 3^3 ring into the box centre's
// local expansion, then 27 copies are M2M'd into the next super-cell. The nearest copies are only two box widths
// away, so these expansions use a higher order than the tree (p + 4, up to max_order), with the box multipole
// taken straight from the bodies; the local expansion is cut back to p at the root. The result is the lattice
// sum in the order of growing cubes, which for a neutral box differs from Ewald's (tinfoil) sum by the surface
// terms (4 pi/3V) d.(x - c) - (2 pi/3V) sum_j q_j |x_j - c|^2 (d: the dipole about the box centre c); with
// `tinfoil` they are removed.
#include "loom/fmm/engine/periodic_images.hpp"

#include <algorithm>
#include <numbers>
#include <vector>

#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::detail {
namespace {

// The box's multipole about its centre (order pf, ncomp expansions) and each component's second moment
// sum_j q_j |x_j - c|^2, in fixed chunks summed in order: the same result for every thread count.
void box_multipole(int pf, int ncomp, Index n, const Vec3d* x, const double* q, Vec3d box_center, std::vector<C>& m,
                   std::vector<double>& second_moment) {
  const int ntf = term_count(pf);
  constexpr int chunks = 64;
  std::vector<std::vector<C>> chunk_m(chunks, std::vector<C>(m.size()));
  std::vector<std::vector<double>> chunk_2(chunks, std::vector<double>(second_moment.size(), 0.0));
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < chunks; ++k) {
    auto& mine = chunk_m[static_cast<std::size_t>(k)];
    auto& mine2 = chunk_2[static_cast<std::size_t>(k)];
    for (Index i = n * k / chunks; i < n * (k + 1) / chunks; ++i) {
      double qi[3];
      for (int c = 0; c < ncomp; ++c) {
        qi[c] = q[c * n + i];
        mine2[static_cast<std::size_t>(c)] += qi[c] * norm2(x[i] - box_center);
      }
      p2m(pf, ncomp, x[i] - box_center, qi, mine.data(), ntf);
    }
  }
  for (int k = 0; k < chunks; ++k) {
    for (std::size_t t = 0; t < m.size(); ++t) m[t] += chunk_m[static_cast<std::size_t>(k)][t];
    for (std::size_t c = 0; c < second_moment.size(); ++c) second_moment[c] += chunk_2[static_cast<std::size_t>(k)][c];
  }
}

// The local expansion (order pf) that removes the surface terms: the dipole's linear potential and the constant
// from the second moment.
void remove_surface_terms(const Options& o, int pf, int ncomp, const std::vector<C>& m,
                          const std::vector<double>& second_moment, std::vector<C>& local) {
  const int ntf = term_count(pf);
  const double volume = o.period * o.period * o.period;
  for (int c = 0; c < ncomp; ++c) {
    // the dipole from the expansion: M_1^0 = d_z, M_1^1 = -(d_x - i d_y)/2
    const C m10 = m[static_cast<std::size_t>(c * ntf + term(1, 0))],
            m11 = m[static_cast<std::size_t>(c * ntf + term(1, 1))];
    const Vec3d d{-2 * m11.re, 2 * m11.im, m10.re};
    const Vec3d a = (-4 * std::numbers::pi / (3 * volume)) * d;  // removes (4 pi/3V) d.(x - c)
    // a linear function a.(x - c) is the local expansion L_1^0 = a_z, L_1^1 = -(a_x + i a_y)
    local[static_cast<std::size_t>(c * ntf + term(1, 0))] += C{a.z, 0};
    local[static_cast<std::size_t>(c * ntf + term(1, 1))] += C{-a.x, -a.y};
    local[static_cast<std::size_t>(c * ntf + term(0, 0))] +=
        C{2 * std::numbers::pi / (3 * volume) * second_moment[static_cast<std::size_t>(c)], 0};
  }
}

// The image levels: the far copies' M2L into `local`, each level's super-cell M2M'd from 27 copies of the last.
void add_image_levels(const Options& o, int pf, int ncomp, std::vector<C> m, std::vector<C>& local) {
  const int ntf = term_count(pf);
  std::vector<C> next(m.size());
  double cycle = o.period;
  for (int level = 0; level < o.image_levels; ++level) {
    std::vector<std::vector<C>> ring(27, std::vector<C>(local.size()));  // one per outer image i, summed in order
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < 27; ++i) {
      if (i == no_shift) continue;
      for (int j = 0; j < 27; ++j) {
        const Vec3d offset = 3.0 * shift_vector(i, cycle) + shift_vector(j, cycle);
        m2l(pf, ncomp, Vec3d{} - offset, m.data(), ring[static_cast<std::size_t>(i)].data(), ntf);
      }
    }
    for (const auto& r : ring)
      for (std::size_t t = 0; t < local.size(); ++t) local[t] += r[t];
    std::fill(next.begin(), next.end(), C{});
    for (int j = 0; j < 27; ++j) m2m(pf, ncomp, shift_vector(j, cycle), m.data(), next.data(), ntf);
    m.swap(next);
    cycle *= 3;
  }
}

// The local expansion `local` (order pf, about box_center) shifted to each target cell and cut to order p: ncomp
// * term_count(p) terms per target, in the order of `targets`.
std::vector<C> cut_to_order(std::span<const Cell> cells, const std::vector<int>& targets, int p, int pf, int ncomp,
                            Vec3d box_center, const std::vector<C>& local) {
  const int nt = term_count(p), ntf = term_count(pf);
  std::vector<C> shifted(local.size()), terms(targets.size() * static_cast<std::size_t>(ncomp * nt));
  for (std::size_t k = 0; k < targets.size(); ++k) {
    std::fill(shifted.begin(), shifted.end(), C{});
    l2l(pf, ncomp, cells[static_cast<std::size_t>(targets[k])].center - box_center, local.data(), shifted.data(), ntf);
    for (int c = 0; c < ncomp; ++c)
      for (int t = 0; t < nt; ++t)
        terms[(k * static_cast<std::size_t>(ncomp) + static_cast<std::size_t>(c)) * static_cast<std::size_t>(nt) +
              static_cast<std::size_t>(t)] = shifted[static_cast<std::size_t>(c * ntf + t)];
  }
  return terms;
}

}  // namespace

int image_order(const Options& o) { return std::min(max_order, o.order + 4); }

int far_image_level(int levels) { return std::min(2, levels - 1); }

BoxMoments box_moments(const Options& o, const TreeData& data, int ncomp, const core::Array<double>& strength_a) {
  const Vec3d box_center = o.box_lower + Vec3d{0.5 * o.period, 0.5 * o.period, 0.5 * o.period};
  BoxMoments b{std::vector<C>(static_cast<std::size_t>(ncomp * term_count(image_order(o)))),
               std::vector<double>(static_cast<std::size_t>(ncomp), 0.0)};
  box_multipole(image_order(o), ncomp, data.n(), data.pos.read(core::Where::host), strength_a.read(core::Where::host),
                box_center, b.multipole, b.second);
  return b;
}

void add_far_images(const Options& o, std::span<const Cell> top_cells, int levels, int ncomp, BoxMoments b,
                    core::Array<C>& locals) {
  const int p = o.order, pf = image_order(o);
  const Vec3d box_center = o.box_lower + Vec3d{0.5 * o.period, 0.5 * o.period, 0.5 * o.period};
  std::vector<C> local(b.multipole.size());
  if (o.tinfoil && p >= 2) remove_surface_terms(o, pf, ncomp, b.multipole, b.second, local);
  add_image_levels(o, pf, ncomp, std::move(b.multipole), local);
  // Shift the image field (order pf) to every cell two levels down, and to the leaves above them, before
  // cutting it to p: those cells are a few times smaller than the box, so p terms suffice there.
  const int level = far_image_level(levels);
  std::vector<int> targets;
  for (std::size_t c = 0; c < top_cells.size(); ++c) {
    const Cell& cell = top_cells[c];
    if (cell.level == level || cell.leaf()) targets.push_back(static_cast<int>(c));
  }
  add_to_cell_expansions(o.backend, locals, targets, cut_to_order(top_cells, targets, p, pf, ncomp, box_center, local));
}

void add_far_images(const Options& o, const TreeData& data, int ncomp, BoxMoments b, core::Array<C>& locals) {
  const Tree& tree = data.tree;
  const auto count = static_cast<std::size_t>(tree.level_begin(far_image_level(tree.levels()) + 1));
  add_far_images(o, std::span<const Cell>(tree.cells()).first(count), tree.levels(), ncomp, std::move(b), locals);
}

void add_periodic_far_field(const Options& o, const TreeData& data, int ncomp, const core::Array<double>& strength_a,
                            core::Array<C>& locals) {
  if (o.image_levels == 0 && !(o.tinfoil && o.order >= 2)) return;  // nothing to add (the ranks' local FMM)
  add_far_images(o, data, ncomp, box_moments(o, data, ncomp, strength_a), locals);
}

}  // namespace loom::fmm::detail
