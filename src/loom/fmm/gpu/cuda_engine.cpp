// The CUDA engine (pass_engine.hpp; compiled only with CUDA, cuda_engine_none.cpp stands in otherwise): the
// tuned kernels of gpu/kernels.hpp for P2M, M2M, M2L, L2L, the Laplace L2P and every P2P, the passes of
// passes.hpp on Backend::cuda for the rest. The interaction lists go to the device once per set of lists
// (StagedLists, kept by the list cache); the caller's arrays cross PCIe through the pinned arena and are
// permuted on the device.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "loom/core/cuda_api.hpp"
#include "loom/core/pinned_arena.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/engine/pass_engine.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/tree/reorder.hpp"

namespace loom::fmm::detail {
namespace {

constexpr core::Backend cuda_backend = core::Backend::cuda;
constexpr core::Where dev = core::Where::device;

// The interaction lists on the device, as the kernels see them.
struct DeviceLists final : StagedLists {
  core::Array<Index> m2l_offset, p2p_offset;
  core::Array<int> m2l_source, p2p_source, m2l_targets, p2p_targets;
  core::Array<std::uint8_t> m2l_shift, p2p_shift;
  gpu::TreeView view;
};

// Straight from a host vector to the device (no host copy in between: the lists are large).
template <class T>
const T* upload(core::Array<T>& array, const std::vector<T>& host) {
  array = core::Array<T>(host.size());
  if (host.empty()) return nullptr;
  T* d = array.write(dev);
  cuda::copy_host_to_device(d, host.data(), host.size() * sizeof(T));
  return d;
}

class CudaEngine final : public PassEngine {
 public:
  CudaEngine(const Options& o, TreeData& t) : o_(o), t_(t) {}

  bool wants_split_coordinates() const override { return false; }
  void tree_changed() override {  // the tree goes to the device now, as part of the set-up
    t_.cells.read(dev);
    t_.leaves.read(dev);
    t_.leaf_of_body.read(dev);
    t_.order.read(dev);
    t_.pos.read(dev);
  }

  core::Array<double> to_tree_order(std::span<const double> values, int stride, int ncomp) override;
  void to_user_order(const core::Array<double>& out, std::span<const ResultPart> parts, double scale) override;
  void stage(const InteractionLists& lists, std::unique_ptr<StagedLists>& staged, const core::Array<double>& strength,
             const core::Array<double>& sigma, Timings& time) override;

  std::unique_ptr<StagedLists> staged_lists(gpu::BackendLists lists) override;

  void upward(int ncomp, const core::Array<double>& strength, core::Array<C>& multipoles) override {
    detail::device_upward(o_.order, ncomp, t_, strength, multipoles);
  }
  void m2l(int ncomp, const InteractionLists&, const core::Array<C>& multipoles, core::Array<C>& locals) override {
    const int p = o_.order;
    gpu::m2l(view_, p, ncomp, multipoles.read(dev), locals.read_write(dev), o_.precision != Precision::double_,
             o_.m2l_block > 0 ? o_.m2l_block : default_m2l_block(p, ncomp));
  }
  void local_to_local(int ncomp, core::Array<C>& locals) override {
    const Tree& tree = t_.tree;
    for (int level = 1; level < tree.levels(); ++level)
      gpu::l2l_level(view_, o_.order, ncomp, tree.level_begin(level),
                     tree.level_begin(level + 1) - tree.level_begin(level), locals.read_write(dev));
  }
  void local_to_bodies(LaplaceKernel, const core::Array<double>&, const core::Array<C>& locals,
                       core::Array<double>& out) override {
    gpu::l2p_laplace(view_, o_.order, t_.leaves.read(dev), static_cast<int>(t_.leaves.size()), t_.n(), t_.pos.read(dev),
                     locals.read(dev), out.write(dev));
  }
  void local_to_bodies(BiotSavartKernel k, const core::Array<double>& strength, const core::Array<C>& locals,
                       core::Array<double>& out) override {
    detail::local_to_bodies(k, cuda_backend, o_.order, t_, strength, locals, out);
  }
  void p2p(LaplaceKernel, const InteractionLists&, const core::Array<double>& strength, const core::Array<double>&,
           core::Array<double>& out) override {
    gpu::p2p_laplace(view_, t_.n(), t_.pos.read(dev), strength.read(dev), out.read_write(dev), o_.precision);
  }
  void p2p(BiotSavartKernel, const InteractionLists&, const core::Array<double>& strength,
           const core::Array<double>& sigma, core::Array<double>& out) override {
    gpu::p2p_biot_savart(view_, t_.n(), t_.pos.read(dev), strength.read(dev), sigma.read(dev), out.read_write(dev),
                         o_.precision);
  }
  void p2p(GaussianKernel, const InteractionLists&, const core::Array<double>& strength,
           const core::Array<double>& sigma, core::Array<double>& out) override {
    gpu::p2p_gaussian(view_, t_.n(), t_.pos.read(dev), strength.read(dev), sigma.read(dev), out.read_write(dev),
                      o_.precision);
  }

 private:
  std::unique_ptr<DeviceLists> device_lists(const InteractionLists& lists) const;
  void finish_view(gpu::TreeView& v) const;

  const Options& o_;
  TreeData& t_;
  core::PinnedArena staging_;  // the host side of transfers
  gpu::TreeView view_;         // the staged lists of the evaluation under way
  core::Stopwatch watch_{cuda_backend};
};

core::Array<double> CudaEngine::to_tree_order(std::span<const double> values, int stride, int ncomp) {
  const Index n = t_.n();
  core::Array<double> a(static_cast<std::size_t>(ncomp * n));
  if (n == 0) return a;
  core::Array<double> raw(values.size());
  double* d = raw.write(dev);
  const core::UploadPiece piece{d, values.data(), raw.bytes()};
  staging_.upload({&piece, 1});
  gather_to_tree_order(cuda_backend, n, t_.order.read(dev), d, stride, ncomp, a.write(dev));
  return a;  // raw goes back to the pool: later device work is queued after the gather
}

void CudaEngine::to_user_order(const core::Array<double>& out, std::span<const ResultPart> parts, double scale) {
  const Index n = t_.n();
  if (n == 0) return;
  const Index* ord = t_.order.read(dev);
  const double* tree_out = out.read(dev);
  Index total = 0;
  for (const auto& part : parts) total += part.ncomp * n;
  core::Array<double> user(static_cast<std::size_t>(total));
  double* d = user.write(dev);
  std::vector<core::DownloadPiece> pieces;
  for (const auto& part : parts) {
    scatter_to_user_order(cuda_backend, n, ord, tree_out, part.first, part.ncomp, scale, d);
    pieces.push_back({part.host, d, static_cast<std::size_t>(part.ncomp * n) * sizeof(double)});
    d += part.ncomp * n;
  }
  staging_.download(pieces);
}

void CudaEngine::stage(const InteractionLists& lists, std::unique_ptr<StagedLists>& staged,
                       const core::Array<double>& strength, const core::Array<double>& sigma, Timings& time) {
  core::Stopwatch& watch = watch_;
  watch.start();
  if (!staged) staged = device_lists(lists);
  view_ = static_cast<const DeviceLists&>(*staged).view;
  time.traversal += watch.stop();
  // the strengths go up before the kernels, so that no phase's time includes a transfer
  watch.start();
  strength.read(dev);
  if (!sigma.empty()) sigma.read(dev);
  time.transfer += watch.stop();
}

std::unique_ptr<DeviceLists> CudaEngine::device_lists(const InteractionLists& lists) const {
  auto d = std::make_unique<DeviceLists>();
  gpu::TreeView& v = d->view;
  v.cells = t_.cells.read(dev);
  v.cell_count = static_cast<int>(t_.tree.cells().size());
  std::vector<int> m2l_targets, p2p_targets;
  for (int c = 0; c < v.cell_count; ++c) {
    if (lists.m2l_offset[static_cast<std::size_t>(c) + 1] > lists.m2l_offset[static_cast<std::size_t>(c)])
      m2l_targets.push_back(c);
    if (lists.p2p_offset[static_cast<std::size_t>(c) + 1] > lists.p2p_offset[static_cast<std::size_t>(c)])
      p2p_targets.push_back(c);
  }
  v.m2l_offset = upload(d->m2l_offset, lists.m2l_offset);
  v.m2l_source = upload(d->m2l_source, lists.m2l_source);
  v.m2l_shift = upload(d->m2l_shift, lists.m2l_shift);
  v.m2l_targets = upload(d->m2l_targets, m2l_targets);
  v.m2l_target_count = static_cast<int>(m2l_targets.size());
  v.p2p_offset = upload(d->p2p_offset, lists.p2p_offset);
  v.p2p_source = upload(d->p2p_source, lists.p2p_source);
  v.p2p_shift = upload(d->p2p_shift, lists.p2p_shift);
  v.p2p_targets = upload(d->p2p_targets, p2p_targets);
  v.p2p_target_count = static_cast<int>(p2p_targets.size());
  finish_view(v);
  return d;
}

// The view's tree-wide fields: the largest leaf, the period.
void CudaEngine::finish_view(gpu::TreeView& v) const {
  v.max_leaf = 0;
  for (int c : t_.tree.leaves())
    v.max_leaf = std::max(v.max_leaf, static_cast<int>(t_.tree.cells()[static_cast<std::size_t>(c)].count));
  v.period = o_.periodic ? o_.period : 0.0;
}

std::unique_ptr<StagedLists> CudaEngine::staged_lists(gpu::BackendLists lists) {
  auto d = std::make_unique<DeviceLists>();
  gpu::TreeView& v = d->view;
  v.cells = t_.cells.read(dev);
  v.cell_count = static_cast<int>(t_.tree.cells().size());
  d->m2l_offset = std::move(lists.m2l_offset);
  d->m2l_source = std::move(lists.m2l_source);
  d->m2l_shift = std::move(lists.m2l_shift);
  d->p2p_offset = std::move(lists.p2p_offset);
  d->p2p_source = std::move(lists.p2p_source);
  d->p2p_shift = std::move(lists.p2p_shift);
  gpu::PairTargets m2l = gpu::pair_targets(cuda_backend, d->m2l_offset, v.cell_count);
  gpu::PairTargets p2p = gpu::pair_targets(cuda_backend, d->p2p_offset, v.cell_count);
  d->m2l_targets = std::move(m2l.cells);
  d->p2p_targets = std::move(p2p.cells);
  v.m2l_offset = d->m2l_offset.read(dev);
  v.m2l_source = d->m2l_source.read(dev);
  v.m2l_shift = d->m2l_shift.read(dev);
  v.m2l_targets = d->m2l_targets.read(dev);
  v.m2l_target_count = m2l.count;
  v.p2p_offset = d->p2p_offset.read(dev);
  v.p2p_source = d->p2p_source.read(dev);
  v.p2p_shift = d->p2p_shift.read(dev);
  v.p2p_targets = d->p2p_targets.read(dev);
  v.p2p_target_count = p2p.count;
  finish_view(v);
  return d;
}

}  // namespace

std::unique_ptr<PassEngine> make_cuda_engine(const Options& options, TreeData& tree) {
  return std::make_unique<CudaEngine>(options, tree);
}

}  // namespace loom::fmm::detail
