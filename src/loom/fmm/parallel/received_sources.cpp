#include "loom/fmm/parallel/received_sources.hpp"

#include "loom/core/cuda_api.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/parallel/let_field_device.hpp"

namespace loom::fmm::parallel {
namespace {

// Wall seconds since `timer`, after the device's queued work on the CUDA backend.
double finished(core::Backend backend, const core::WallTimer& timer) {
  if (backend == core::Backend::cuda) cuda::synchronize();
  return timer.seconds();
}

}  // namespace

template <class K>
const Let& ReceivedSources<K>::let() {
  if (!let_) {
    core::WallTimer wait;
    let_ = &receive_();
    times_.wait = wait.seconds();
  }
  return *let_;
}

template <class K>
core::Array<double>& ReceivedSources<K>::far_scratch(std::size_t size, core::Array<double>& fresh) {
  if (!kept_scratch_) return ExtraSources::far_scratch(size, fresh);
  if (kept_scratch_->size() < size) *kept_scratch_ = core::Array<double>(size + size / 16);
  return *kept_scratch_;
}

template <class K>
const LetLists& ReceivedSources<K>::lists(const Tree& tree) {
  if (!walked_) {
    const Let& received = let();
    core::WallTimer walk;
    lists_ = let_lists(o_, tree, received);
    counts_.m2l = lists_.m2l.size();
    counts_.p2p = lists_.p2p.size();
    counts_.work = received_work(tree, received, lists_, counts_.p2p_interactions);
    times_.walk = walk.seconds();
    walked_ = true;
  }
  return lists_;
}

template <class K>
void ReceivedSources<K>::add_far(const detail::TreeData& t, core::Array<detail::C>& locals) {
  const LetLists& pairs = lists(t.tree);
  const Let& received = let();
  core::WallTimer far;
  if (o_.backend == core::Backend::cuda) {
    device_received_far(o_, K::ncomp, t, received, pairs.m2l, locals);
  } else {
    host_received_far(o_, K::ncomp, t.tree, received, pairs.m2l, locals.read_write(core::Where::host));
  }
  if (far_images_) detail::add_far_images(o_, t, K::ncomp, *far_images_, locals);
  times_.far = finished(o_.backend, far);
}

template <class K>
void ReceivedSources<K>::add_near(const detail::TreeData& t, const core::Array<double>& strength,
                                  const core::Array<double>& sigma, core::Array<double>& out) {
  const LetLists& pairs = lists(t.tree);
  core::WallTimer near;
  if (o_.backend == core::Backend::cuda) {
    device_received_near<K>(o_, t, let(), pairs.p2p, strength, sigma, out);
  } else if (pairs.p2p.size() > 0) {
    const std::span<const double> sg = sigma.empty() ? std::span<const double>() : sigma.host();
    host_received_near<K>(t, strength.read(core::Where::host), sg, let(), pairs.p2p,
                          out.read_write(core::Where::host));
  }
  times_.near = finished(o_.backend, near);
}

template class ReceivedSources<LaplaceKernel>;
template class ReceivedSources<BiotSavartKernel>;

}  // namespace loom::fmm::parallel
