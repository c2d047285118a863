// The passes on either backend (passes.hpp).
#include "loom/fmm/engine/passes.hpp"

#include <algorithm>
#include <span>

#include "loom/core/parallel_for.hpp"
#include "loom/fmm/engine/l2p_at_bodies.hpp"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/gpu/kernels.hpp"

namespace loom::fmm::detail {
namespace {

template <class T>
void zero(core::Backend backend, core::Array<T>& a) {
  T* p = a.write(core::where(backend));
  core::parallel_for(backend, static_cast<Index>(a.size()), [=] LOOM_HOST_DEVICE(Index i) { p[i] = T{}; });
}

}  // namespace

void fill_zero(core::Backend backend, core::Array<C>& a) { zero(backend, a); }
void fill_zero(core::Backend backend, core::Array<double>& a) { zero(backend, a); }

void upward(core::Backend backend, int p, int ncomp, const TreeData& t, const core::Array<double>& strength_a,
            core::Array<C>& multipoles) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
  const Index n = t.n();
  const Cell* cells = t.cells.read(where);
  const int* leaves = t.leaves.read(where);
  const Vec3d* pos = t.pos.read(where);
  const double* strength = strength_a.read(where);
  fill_zero(backend, multipoles);
  C* M = multipoles.read_write(where);
  core::parallel_for(backend, static_cast<Index>(t.tree.leaves().size()), [=] LOOM_HOST_DEVICE(Index k) {
    const int c = leaves[k];
    const Cell cell = cells[c];
    C* m = M + static_cast<Index>(c) * ncomp * nt;
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i) {
      double q[3];
      for (int d = 0; d < ncomp; ++d) q[d] = strength[d * n + i];
      p2m(p, ncomp, pos[i] - cell.center, q, m, nt);
    }
  });
  for (int level = t.tree.levels() - 2; level >= 0; --level) {
    const int first = t.tree.level_begin(level);
    core::parallel_for(backend, t.tree.level_begin(level + 1) - first, [=] LOOM_HOST_DEVICE(Index k) {
      const int c = first + static_cast<int>(k);
      const Cell cell = cells[c];
      for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch)
        m2m(p, ncomp, cells[ch].center - cell.center, M + static_cast<Index>(ch) * ncomp * nt,
            M + static_cast<Index>(c) * ncomp * nt, nt);
    });
  }
}

void device_upward(int p, int ncomp, const TreeData& t, const core::Array<double>& strength,
                   core::Array<C>& multipoles) {
  constexpr core::Where dev = core::Where::device;
  const Tree& tree = t.tree;
  gpu::TreeView v;  // the passes read the cells alone
  v.cells = t.cells.read(dev);
  v.cell_count = static_cast<int>(tree.cells().size());
  gpu::p2m(v, p, ncomp, t.leaves.read(dev), static_cast<int>(tree.leaves().size()), t.n(), t.pos.read(dev),
           strength.read(dev), multipoles.write(dev));
  for (int level = tree.levels() - 2; level >= 0; --level)
    gpu::m2m_level(v, p, ncomp, tree.level_begin(level), tree.level_begin(level + 1) - tree.level_begin(level),
                   multipoles.read_write(dev));
}

void local_to_local(core::Backend backend, int p, int ncomp, const TreeData& t, core::Array<C>& locals) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
  const Cell* cells = t.cells.read(where);
  C* L = locals.read_write(where);
  for (int level = 1; level < t.tree.levels(); ++level) {
    const int first = t.tree.level_begin(level);
    core::parallel_for(backend, t.tree.level_begin(level + 1) - first, [=] LOOM_HOST_DEVICE(Index k) {
      const int c = first + static_cast<int>(k);
      const Cell cell = cells[c];
      l2l(p, ncomp, cell.center - cells[cell.parent].center, L + static_cast<Index>(cell.parent) * ncomp * nt,
          L + static_cast<Index>(c) * ncomp * nt, nt);
    });
  }
}

void local_to_bodies(LaplaceKernel, core::Backend backend, int p, const TreeData& t,
                     const core::Array<double>& strength, const core::Array<C>& locals, core::Array<double>& out) {
  l2p_at_bodies<LaplaceKernel>(backend, p, t.n(), t, strength, locals, out);
}

void local_to_bodies(BiotSavartKernel, core::Backend backend, int p, const TreeData& t,
                     const core::Array<double>& strength, const core::Array<C>& locals, core::Array<double>& out) {
  l2p_at_bodies<BiotSavartKernel>(backend, p, t.n(), t, strength, locals, out);
}

void add_rows(core::Backend backend, int rows, Index n, const core::Array<double>& src_a, Index stride,
              core::Array<double>& dst_a) {
  const double* src = src_a.read(core::where(backend));
  double* dst = dst_a.read_write(core::where(backend));
  core::parallel_for(backend, rows * n, [=] LOOM_HOST_DEVICE(Index k) { dst[k] += src[(k / n) * stride + k % n]; });
}

void add_to_cell_expansions(core::Backend backend, core::Array<C>& a, const std::vector<int>& cells,
                            const std::vector<C>& terms) {
  if (cells.empty()) return;
  const Index per_cell = static_cast<Index>(terms.size() / cells.size());
  auto small = core::Array<C>::from(std::span<const C>(terms));
  auto which = core::Array<int>::from(std::span<const int>(cells));
  const C* src = small.read(core::where(backend));
  const int* cell = which.read(core::where(backend));
  C* dst = a.read_write(core::where(backend));
  core::parallel_for(backend, static_cast<Index>(terms.size()), [=] LOOM_HOST_DEVICE(Index i) {
    dst[static_cast<Index>(cell[i / per_cell]) * per_cell + i % per_cell] += src[i];
  });
}

std::vector<C> cell_expansions(core::Backend backend, const core::Array<C>& a, const std::vector<int>& cells,
                               Index per_cell) {
  std::vector<C> out(cells.size() * static_cast<std::size_t>(per_cell));
  cell_expansions(backend, a, cells, per_cell, out.data());
  return out;
}

void cell_expansions(core::Backend backend, const core::Array<C>& a, const std::vector<int>& cells, Index per_cell,
                     C* out) {
  const auto size = static_cast<Index>(cells.size()) * per_cell;
  if (size == 0) return;
  auto which = core::Array<int>::from(std::span<const int>(cells));
  core::Array<C> gathered(static_cast<std::size_t>(size));
  const int* cell = which.read(core::where(backend));
  const C* src = a.read(core::where(backend));
  C* dst = gathered.write(core::where(backend));
  core::parallel_for(backend, size, [=] LOOM_HOST_DEVICE(Index i) {
    dst[i] = src[static_cast<Index>(cell[i / per_cell]) * per_cell + i % per_cell];
  });
  const C* host = gathered.read(core::Where::host);
  std::copy_n(host, size, out);
}

}  // namespace loom::fmm::detail
