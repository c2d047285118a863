// A rank's LETs for many receivers at once (let.hpp; every other rank, each periodic image): the selection
// walks and the writing run in parallel over the messages (OpenMP), each message written into its own slice
// of one buffer (its size known from its plan), packed in the messages' order. The ranks' FMM plans before
// its local FMM and writes on a thread of its own meanwhile (let_writer.hpp); the model of many ranks times
// the same functions (model.cpp).
#pragma once

#include <span>
#include <vector>

#include "loom/fmm/parallel/let.hpp"

namespace loom::fmm::parallel {

struct LetMessage {
  int rank = 0;                              // the receiver's (the caller's numbering)
  std::span<const Patch> receiver;           // its patches
  Vec3d shift;                               // the image of the sender's tree it gets
  std::vector<LetEntry> plan;                // filled by plan_lets
  LetCount count;
};

// Every message's plan and count (the tree and its cell sigmas only).
void plan_lets(const Tree& tree, std::span<const double> cell_sigma, const LetCriterion& criterion,
               std::vector<LetMessage>& messages);

// The distinct cells the messages send, in first-use order, and each cell's slot among them (-1: not sent).
std::vector<int> sent_cells(const std::vector<LetMessage>& messages, std::size_t ncells, std::vector<int>& slot);

// Where each message goes in one buffer, packed in order: at[k] its first double, at.back() the total.
std::vector<std::size_t> message_offsets(const std::vector<LetMessage>& messages, int order, int ncomp);

// `v` at least n long: kept when it is, else replaced by one n + n/16 long (the old freed first), so that a
// rank's buffers grow seldom as its LETs fluctuate from step to step and are never shrunk; returns v.data().
template <class T>
T* grow_to(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) {
    std::vector<T>().swap(v);
    v.resize(n + n / 16);
  }
  return v.data();
}

// The messages' `part` (let.hpp LetPart) written at their offsets `at` (message_offsets) in `buffer`, in
// `threads` threads over the messages; false when one differs from its plan's size.
bool write_messages(const LetSource& source, const std::vector<LetMessage>& messages, std::span<const std::size_t> at,
                    double* buffer, LetPart part, int threads);

// Every message written, in order (source: LetSource, its multipoles for the sent cells at least), into `out`
// (grown by grow_to: a caller's kept buffer reuses its pages), in `threads` threads over the messages; returns
// the doubles written.
std::size_t write_lets(const LetSource& source, const std::vector<LetMessage>& messages, std::vector<double>& out,
                       int threads);

}  // namespace loom::fmm::parallel
