// The received field's pairs on the device (issue 22, with the CUDA backend): the received cells go to the
// device after the local tree's cells (one cell array, as the kernels index sources and targets in one), their
// bodies after the local bodies, and the CUDA engine's own kernels (gpu::m2l, gpu::p2p_*) evaluate the pairs of
// let_field.cpp's traversal into the local evaluation's locals and near field (received_sources.hpp). Only the
// received part crosses PCIe: the local cells, positions, strengths and core radii are copied on the device
// from the evaluation's arrays. The options' precision applies, as in the local FMM. The CPU path
// (let_kernels.hpp) is the reference.
#pragma once

#include "loom/core/array.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/let.hpp"
#include "loom/fmm/parallel/let_pairs.hpp"

namespace loom::fmm::parallel {

// locals (ncomp * term_count(p) per cell of t, on the device) += the M2L of the received cells of `pairs`.
void device_received_far(const Options& o, int ncomp, const detail::TreeData& t, const Let& let,
                         const LetPairs& pairs, core::Array<detail::C>& locals);

// out (K::nout rows of t's n bodies, tree order, on the device) += the P2P of the received leaves of `pairs`;
// strength (ncomp rows of n) and sigma (n, or empty) are t's bodies', on the device.
template <class K>
void device_received_near(const Options& o, const detail::TreeData& t, const Let& let, const LetPairs& pairs,
                          const core::Array<double>& strength, const core::Array<double>& sigma,
                          core::Array<double>& out);

}  // namespace loom::fmm::parallel
