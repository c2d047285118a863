#include "loom/fmm/parallel/let_field_device.hpp"

#include <algorithm>
#include <type_traits>

#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"

namespace loom::fmm::parallel {
namespace {

constexpr core::Backend cuda = core::Backend::cuda;
constexpr core::Where dev = core::Where::device;

// The local and the received bodies as one set on the device: cells (the received ones' bodies after the n
// local ones), positions, strengths (component-major rows of n + m) and core radii.
struct Joined {
  core::Array<Cell> cells;
  core::Array<Vec3d> x;
  core::Array<double> strength, sigma;
  core::Array<detail::C> multipoles;  // zero for the local cells (never a source here), then the received
};

Joined join(const detail::TreeData& t, int ncomp, int nt, const core::Array<double>& strength,
            std::span<const double> sigma, const Let& let) {
  const Index n = t.n(), m = static_cast<Index>(let.x.size()), all = n + m;
  std::vector<Cell> cells = t.tree.cells();
  for (const LetCell& b : let.cells) {
    Cell c;
    c.center = b.center;
    c.radius = b.radius;
    c.begin = n + b.body_begin;
    c.count = b.body_count;
    cells.push_back(c);
  }
  std::vector<Vec3d> x = t.tree.positions();
  x.insert(x.end(), let.x.begin(), let.x.end());
  std::vector<double> q(static_cast<std::size_t>(ncomp * all)), sg(static_cast<std::size_t>(all), 0.0);
  const double* local = strength.read(core::Where::host);
  for (int d = 0; d < ncomp; ++d) {
    std::copy_n(local + d * n, n, q.begin() + d * all);
    for (Index j = 0; j < m; ++j)
      q[static_cast<std::size_t>(d * all + n + j)] = let.strength[static_cast<std::size_t>(j * ncomp + d)];
  }
  std::copy(sigma.begin(), sigma.end(), sg.begin());
  std::copy(let.sigma.begin(), let.sigma.end(), sg.begin() + n);
  std::vector<detail::C> M(t.tree.cells().size() * static_cast<std::size_t>(ncomp * nt), detail::C{});
  M.insert(M.end(), let.multipoles.begin(), let.multipoles.end());
  return {core::Array<Cell>::from(std::span<const Cell>(cells)), core::Array<Vec3d>::from(std::span<const Vec3d>(x)),
          core::Array<double>::from(std::span<const double>(q)), core::Array<double>::from(std::span<const double>(sg)),
          core::Array<detail::C>::from(std::span<const detail::C>(M))};
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
  for (int s : pairs.source) source.push_back(static_cast<int>(local_cells) + s);
  for (std::size_t c = 0; c < local_cells; ++c)
    if (pairs.offset[c + 1] > pairs.offset[c]) targets.push_back(static_cast<int>(c));
  DeviceList d{core::Array<Index>::from(std::span<const Index>(offset)),
               core::Array<int>::from(std::span<const int>(source)), core::Array<int>::from(std::span<const int>(targets)),
               static_cast<int>(targets.size())};
  return d;
}

gpu::TreeView view(const Joined& j, std::size_t cells, const DeviceList& m2l, const DeviceList& p2p, int max_leaf) {
  gpu::TreeView v;
  v.cells = j.cells.read(dev);
  v.cell_count = static_cast<int>(cells);
  v.m2l_offset = m2l.offset.read(dev);
  v.m2l_source = m2l.source.size() ? m2l.source.read(dev) : nullptr;
  v.m2l_targets = m2l.targets.size() ? m2l.targets.read(dev) : nullptr;
  v.m2l_target_count = m2l.target_count;
  v.p2p_offset = p2p.offset.read(dev);
  v.p2p_source = p2p.source.size() ? p2p.source.read(dev) : nullptr;
  v.p2p_targets = p2p.targets.size() ? p2p.targets.read(dev) : nullptr;
  v.p2p_target_count = p2p.target_count;
  v.max_leaf = max_leaf;
  v.period = 0;  // the received cells are the senders' images already (let.hpp's shift)
  return v;
}

}  // namespace

template <class K>
std::vector<double> device_let_field(const Options& o, const detail::TreeData& t, const core::Array<double>& strength,
                                     std::span<const double> sigma, const Let& let, const LetLists& lists,
                                     const detail::BoxMoments* far_images) {
  Options on_device = o;
  on_device.backend = cuda;
  const int p = o.order, nt = term_count(p), ncomp = K::ncomp;
  const Index n = t.n(), all = n + static_cast<Index>(let.x.size());
  const std::size_t local_cells = t.tree.cells().size(), cells = local_cells + let.cells.size();
  const Joined j = join(t, ncomp, nt, strength, sigma, let);
  const DeviceList m2l = device_list(lists.m2l, local_cells, let.cells.size());
  const DeviceList p2p = device_list(lists.p2p, local_cells, let.cells.size());
  int max_leaf = 0;
  for (int c : t.tree.leaves()) max_leaf = std::max(max_leaf, static_cast<int>(t.tree.cells()[static_cast<std::size_t>(c)].count));
  const gpu::TreeView v = view(j, cells, m2l, p2p, max_leaf);
  std::vector<double> out(static_cast<std::size_t>(K::nout * n), 0.0);
  if (m2l.target_count > 0 || far_images) {
    core::Array<detail::C> locals(local_cells * static_cast<std::size_t>(ncomp * nt));
    detail::fill_zero(cuda, locals);
    gpu::m2l(v, p, ncomp, j.multipoles.read(dev), locals.read_write(dev), o.precision != Precision::double_,
             o.m2l_block > 0 ? o.m2l_block : default_m2l_block(p, ncomp));
    if (far_images) detail::add_far_images(on_device, t, ncomp, *far_images, locals);
    detail::local_to_local(cuda, p, ncomp, t, locals);
    core::Array<double> far(out.size());
    detail::local_to_bodies(K{}, cuda, p, t, strength, locals, far);
    std::copy_n(far.read(core::Where::host), out.size(), out.begin());
  }
  if (p2p.target_count > 0) {
    core::Array<double> near(static_cast<std::size_t>(K::nout * all));
    detail::fill_zero(cuda, near);
    if constexpr (std::is_same_v<K, LaplaceKernel>) {
      gpu::p2p_laplace(v, all, j.x.read(dev), j.strength.read(dev), near.read_write(dev), o.precision);
    } else {
      gpu::p2p_biot_savart(v, all, j.x.read(dev), j.strength.read(dev), j.sigma.read(dev), near.read_write(dev),
                           o.precision);
    }
    const double* h = near.read(core::Where::host);
    for (int d = 0; d < K::nout; ++d)
      for (Index i = 0; i < n; ++i) out[static_cast<std::size_t>(d * n + i)] += h[d * all + i];
  }
  return out;
}

template std::vector<double> device_let_field<LaplaceKernel>(const Options&, const detail::TreeData&,
                                                             const core::Array<double>&, std::span<const double>,
                                                             const Let&, const LetLists&, const detail::BoxMoments*);
template std::vector<double> device_let_field<BiotSavartKernel>(const Options&, const detail::TreeData&,
                                                                const core::Array<double>&, std::span<const double>,
                                                                const Let&, const LetLists&,
                                                                const detail::BoxMoments*);

}  // namespace loom::fmm::parallel
