#include "loom/fmm/parallel/let_field_device.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "loom/core/cuda_api.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"

namespace loom::fmm::parallel {
namespace {

constexpr core::Backend cuda = core::Backend::cuda;
constexpr core::Where dev = core::Where::device;

// A device array of `local.size() + more.size()` values: the local ones copied on the device, then `more` from
// the host.
template <class T>
core::Array<T> joined(const core::Array<T>& local, const std::vector<T>& more) {
  core::Array<T> a(local.size() + more.size());
  T* d = a.write(dev);
  if (!local.empty()) cuda::copy_device_to_device(d, local.read(dev), local.bytes());
  if (!more.empty()) cuda::copy_host_to_device(d + local.size(), more.data(), more.size() * sizeof(T));
  return a;
}

// The received cells as the kernels' cells: their bodies after the n local ones.
std::vector<Cell> received_cells(const Let& let, Index n) {
  std::vector<Cell> cells;
  cells.reserve(let.cells.size());
  for (const LetCell& b : let.cells) {
    Cell c;
    c.center = b.center;
    c.radius = b.radius;
    c.begin = n + b.body_begin;
    c.count = b.body_count;
    cells.push_back(c);
  }
  return cells;
}

// One list of pairs as the kernels see it: offsets over every cell of the joined set (the received cells have
// none), sources as joined indices, the local cells with pairs.
struct DeviceList {
  core::Array<Index> offset;
  core::Array<int> source, targets;
  int target_count = 0;
};

DeviceList device_list(const LetPairs& pairs, std::size_t local_cells, std::size_t received_cells) {
  std::vector<Index> offset = pairs.offset;
  offset.resize(local_cells + received_cells + 1, pairs.offset.back());
  std::vector<int> source, targets;
  source.reserve(pairs.source.size());
  for (int s : pairs.source) source.push_back(static_cast<int>(local_cells) + s);
  for (std::size_t c = 0; c < local_cells; ++c)
    if (pairs.offset[c + 1] > pairs.offset[c]) targets.push_back(static_cast<int>(c));
  return {core::Array<Index>::from(std::span<const Index>(offset)), core::Array<int>::from(std::span<const int>(source)),
          core::Array<int>::from(std::span<const int>(targets)), static_cast<int>(targets.size())};
}

int largest_leaf(const Tree& tree) {
  int most = 0;
  for (int c : tree.leaves()) most = std::max(most, static_cast<int>(tree.cells()[static_cast<std::size_t>(c)].count));
  return most;
}

// The joined cells and one list (M2L or P2P) as a TreeView; period 0: the received cells are the senders'
// images already (let.hpp's shift).
gpu::TreeView view(const core::Array<Cell>& cells, const DeviceList& list, bool m2l, int max_leaf) {
  gpu::TreeView v;
  v.cells = cells.read(dev);
  v.cell_count = static_cast<int>(cells.size());
  const Index* offset = list.offset.read(dev);
  const int* source = list.source.size() ? list.source.read(dev) : nullptr;
  const int* targets = list.targets.size() ? list.targets.read(dev) : nullptr;
  (m2l ? v.m2l_offset : v.p2p_offset) = offset;
  (m2l ? v.m2l_source : v.p2p_source) = source;
  (m2l ? v.m2l_targets : v.p2p_targets) = targets;
  (m2l ? v.m2l_target_count : v.p2p_target_count) = list.target_count;
  v.max_leaf = max_leaf;
  v.period = 0;
  return v;
}

// The received bodies' strengths as ncomp rows after the local rows: component-major rows of n + m.
core::Array<double> joined_strength(const core::Array<double>& local, Index n, const Let& let, int ncomp) {
  const auto m = static_cast<Index>(let.x.size()), all = n + m;
  core::Array<double> a(static_cast<std::size_t>(ncomp * all));
  double* d = a.write(dev);
  std::vector<double> row(static_cast<std::size_t>(m));
  for (int k = 0; k < ncomp; ++k) {
    if (n > 0) cuda::copy_device_to_device(d + k * all, local.read(dev) + k * n, static_cast<std::size_t>(n) * sizeof(double));
    for (Index j = 0; j < m; ++j) row[static_cast<std::size_t>(j)] = let.strength[static_cast<std::size_t>(j * ncomp + k)];
    if (m > 0) cuda::copy_host_to_device(d + k * all + n, row.data(), row.size() * sizeof(double));
  }
  return a;
}

}  // namespace

void device_received_far(const Options& o, int ncomp, const detail::TreeData& t, const Let& let,
                         const LetPairs& pairs, core::Array<detail::C>& locals) {
  if (pairs.size() == 0) return;
  const int p = o.order, nt = term_count(p);
  const std::size_t local_cells = t.tree.cells().size(), per_cell = static_cast<std::size_t>(ncomp * nt);
  const core::Array<Cell> cells = joined(t.cells, received_cells(let, t.n()));
  // the kernels read a source's multipoles at its joined index: the local cells' part is never read
  core::Array<detail::C> M((local_cells + let.cells.size()) * per_cell);
  cuda::copy_host_to_device(M.write(dev) + local_cells * per_cell, let.multipoles.data(),
                            let.multipoles.size() * sizeof(detail::C));
  const DeviceList list = device_list(pairs, local_cells, let.cells.size());
  gpu::m2l(view(cells, list, true, 0), p, ncomp, M.read(dev), locals.read_write(dev),
           o.precision != Precision::double_, o.m2l_block > 0 ? o.m2l_block : default_m2l_block(p, ncomp));
}

template <class K>
void device_received_near(const Options& o, const detail::TreeData& t, const Let& let, const LetPairs& pairs,
                          const core::Array<double>& strength, const core::Array<double>& sigma,
                          core::Array<double>& out) {
  if (pairs.size() == 0) return;
  const Index n = t.n(), all = n + static_cast<Index>(let.x.size());
  const core::Array<Cell> cells = joined(t.cells, received_cells(let, n));
  const core::Array<Vec3d> x = joined(t.pos, let.x);
  const core::Array<double> q = joined_strength(strength, n, let, K::ncomp);
  const DeviceList list = device_list(pairs, t.tree.cells().size(), let.cells.size());
  const gpu::TreeView v = view(cells, list, false, largest_leaf(t.tree));
  core::Array<double> near(static_cast<std::size_t>(K::nout * all));
  detail::fill_zero(cuda, near);
  if constexpr (std::is_same_v<K, LaplaceKernel>) {
    gpu::p2p_laplace(v, all, x.read(dev), q.read(dev), near.read_write(dev), o.precision);
  } else {
    core::Array<double> none(static_cast<std::size_t>(n), 0.0);  // unguarded: no local core radii
    const core::Array<double> sg = joined(sigma.empty() ? none : sigma, let.sigma);
    gpu::p2p_biot_savart(v, all, x.read(dev), q.read(dev), sg.read(dev), near.read_write(dev), o.precision);
  }
  detail::add_rows(cuda, K::nout, n, near, all, out);
}

template void device_received_near<LaplaceKernel>(const Options&, const detail::TreeData&, const Let&,
                                                  const LetPairs&, const core::Array<double>&,
                                                  const core::Array<double>&, core::Array<double>&);
template void device_received_near<BiotSavartKernel>(const Options&, const detail::TreeData&, const Let&,
                                                     const LetPairs&, const core::Array<double>&,
                                                     const core::Array<double>&, core::Array<double>&);

}  // namespace loom::fmm::parallel
