// The received cells and bodies as extra sources of a rank's local evaluation (engine/extra_sources.hpp; issue
// 22): the local FMM runs its upward pass (after which the rank's writer fills in its LETs' multipoles and sends
// them), its M2L and its P2P (near_first) while the LETs are written and travel, then asks for the received
// field's far part (the writer and the exchange are waited for here, the received tree walked against the
// local one, let_pairs.hpp, and its M2L pairs added into the local locals, with the periodic far images), runs
// its one L2L and L2P (added to the near field), and asks for the near part (the received leaves' P2P into its
// near field). The pairs run on the evaluation's backend (CPU: let_pairs.hpp; CUDA:
// let_field_device.hpp) and land in its arrays, so the received field shares the local FMM's downward pass and
// transfers instead of paying its own.
#pragma once

#include <functional>

#include "loom/fmm/engine/extra_sources.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/parallel/let_field.hpp"
#include "loom/fmm/parallel/let_pairs.hpp"

namespace loom::fmm::parallel {

// Wall seconds of the received field's parts (the device's work synchronised at the end of each part).
struct ReceivedTimes {
  double wait = 0;  // for the writer and the exchange, once the local M2L and P2P are done
  double walk = 0;  // the dual traversal, on the host
  double far = 0;   // the received M2L and far images (with the transfers of their cells)
  double near = 0;  // the received P2P (with the transfers of their bodies)
  double total() const { return walk + far + near; }
};

template <class K>
class ReceivedSources final : public detail::ExtraSources {
 public:
  using Receive = std::function<const Let&()>;  // waits for the exchange, returns the parsed LET
  // What the rank does with its multipoles once the upward pass made them (distributed.cpp: its LETs sent).
  using Upward = std::function<void(const detail::TreeData&, const InteractionLists&, const core::Array<detail::C>&)>;
  ReceivedSources(const Options& o, Receive receive, const detail::BoxMoments* far_images, Upward upward = {})
      : o_(o), receive_(std::move(receive)), far_images_(far_images), upward_(std::move(upward)) {}

  void after_upward(const detail::TreeData& t, const InteractionLists& lists,
                    const core::Array<detail::C>& multipoles) override {
    if (upward_) upward_(t, lists, multipoles);
  }
  // What the rank does when the evaluation ends (distributed.cpp: its writer, which may read the evaluation's
  // multipoles, stopped); must not throw.
  void on_evaluation_end(std::function<void()> ends) { ends_ = std::move(ends); }
  void evaluation_ends() noexcept override {
    if (ends_) ends_();
  }

  bool near_first() const override { return true; }  // the LETs arrive while the local P2P runs
  // The scratch of near_first kept by the caller (grown by 1/16 over the need when short); null: fresh.
  void keep_far_scratch(core::Array<double>* kept) { kept_scratch_ = kept; }
  core::Array<double>& far_scratch(std::size_t size, core::Array<double>& fresh) override;
  void add_far(const detail::TreeData& t, core::Array<detail::C>& locals) override;
  void add_near(const detail::TreeData& t, const core::Array<double>& strength, const core::Array<double>& sigma,
                core::Array<double>& out) override;

  // The received LET (waited for here when no evaluation asked, e.g. on a rank without bodies).
  const Let& let();
  const LetFieldCounts& counts() const { return counts_; }
  const ReceivedTimes& times() const { return times_; }

 private:
  const LetLists& lists(const Tree& tree);  // the dual traversal, once

  Options o_;
  Receive receive_;
  const detail::BoxMoments* far_images_;
  Upward upward_;
  core::Array<double>* kept_scratch_ = nullptr;
  std::function<void()> ends_;
  const Let* let_ = nullptr;
  LetLists lists_;
  bool walked_ = false;
  LetFieldCounts counts_;
  ReceivedTimes times_;
};

}  // namespace loom::fmm::parallel
