// The received field alone (let_field.hpp): the received sources (received_sources.hpp) added to zero locals
// and a zero near field, with the downward pass between them.
#include "loom/fmm/parallel/let_field.hpp"

#include <algorithm>

#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/parallel/received_sources.hpp"

namespace loom::fmm::parallel {

template <class K>
std::vector<double> let_field(const Options& o, const detail::TreeData& t, const core::Array<double>& strength,
                              std::span<const double> sigma, const Let& let, LetFieldCounts* counts,
                              const detail::BoxMoments* far_images) {
  const Index n = t.n();
  std::vector<double> out(static_cast<std::size_t>(K::nout * n), 0.0);
  if (n == 0 || (let.cells.empty() && !far_images)) return out;
  ReceivedSources<K> received(o, [&]() -> const Let& { return let; }, far_images);
  const core::Backend b = o.backend;
  core::Array<detail::C> locals(t.tree.cells().size() * static_cast<std::size_t>(K::ncomp * term_count(o.order)));
  detail::fill_zero(b, locals);
  received.add_far(t, locals);
  detail::local_to_local(b, o.order, K::ncomp, t, locals);
  core::Array<double> field(out.size());
  detail::local_to_bodies(K{}, b, o.order, t, strength, locals, field);
  const core::Array<double> sg = core::Array<double>::from(sigma);
  received.add_near(t, strength, sg, field);
  std::copy_n(field.read(core::Where::host), out.size(), out.begin());
  if (counts) *counts = received.counts();
  return out;
}

template std::vector<double> let_field<LaplaceKernel>(const Options&, const detail::TreeData&,
                                                      const core::Array<double>&, std::span<const double>,
                                                      const Let&, LetFieldCounts*, const detail::BoxMoments*);
template std::vector<double> let_field<BiotSavartKernel>(const Options&, const detail::TreeData&,
                                                         const core::Array<double>&, std::span<const double>,
                                                         const Let&, LetFieldCounts*, const detail::BoxMoments*);

}  // namespace loom::fmm::parallel
