// A rank's LETs for many receivers at once (let.hpp; every other rank, each periodic image): the selection
// walks and the writing run in parallel over the messages (OpenMP), each message written into its own slice
// of one buffer (its size known from its plan), packed in the messages' order. The ranks' FMM plans before
// its upward pass and writes after it (distributed.cpp); the model of many ranks times both (model.cpp).
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

// Every message written, in order (source: LetSource, its multipoles for the sent cells at least).
std::vector<double> write_lets(const LetSource& source, const std::vector<LetMessage>& messages);

}  // namespace loom::fmm::parallel
