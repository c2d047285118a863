// What rank 0 needs to write the outputs of a run on several ranks (section 4.2 of the DEC-GPE paper), so that
// they are the outputs of a one-rank run: the run directory, made by rank 0 for all, and the global psi assembled
// from the slabs in rank order. On one rank both are what a one-rank run does, with no copy.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::gpe {

// Rank 0 creates the run directory `dir` ("": runs/gpe-<date>-<time>; an existing non-empty one only with
// `overwrite`) and writes input.toml from `effective_input`; every rank learns whether it could, so that all stop
// together when not (rank 0 with its exception, the others with a UsageError). Collective. Empty on ranks other
// than 0.
// `inputs`: files the run read, which overwriting must not delete (io::RunDirectory::create).
std::optional<io::RunDirectory> create_run_directory(const std::string& dir, bool overwrite,
                                                     const std::string& effective_input,
                                                     const comm::Communicator& world,
                                                     const std::vector<io::NamedPath>& inputs = {});

// The global field assembled on rank 0. Every call is collective.
class RootView {
 public:
  explicit RootView(const SlabDomain& slab) : slab_(slab) {}
  // The global field on rank 0 (nullptr on the others).
  const Complex* all(const core::Array<Complex>& local);
  // Only the global layers [first, last] of the result are valid (the z = 0 cross-sections, the splitting
  // detector's annulus: a few layers, not the whole field).
  const Complex* layers(const core::Array<Complex>& local, std::pair<int, int> range);
  // A copy of the global field on rank 0 ({} on the others): checkpoints.
  std::vector<Complex> vector(const core::Array<Complex>& local) const;

 private:
  const SlabDomain& slab_;
  std::vector<Complex> buffer_;
};

}  // namespace loom::gpe
