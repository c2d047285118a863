// Where an evaluation runs: the passes of one FMM evaluation behind one interface, one implementation per
// backend (cpu_engine.cpp: OpenMP loops; gpu/cuda_engine.cpp: the tuned CUDA kernels, with a stub that throws
// in builds without CUDA). The pipeline (evaluate.hpp) calls, in order: stage, upward, m2l, local_to_local,
// local_to_bodies, p2p; it never asks which backend runs them. A kernel (kernels/kernel.hpp) adds one
// overload of local_to_bodies and p2p per engine; a backend adds one implementation and its make_ function.
#pragma once

#include <memory>
#include <span>

#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/gpu/device_lists.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/gaussian.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::detail {

// An engine's own copy of a set of interaction lists (the GPU's device arrays), kept with the lists it was made
// from for as long as the list cache keeps them (list_cache.hpp).
struct StagedLists {
  virtual ~StagedLists() = default;
};

// Components [first, first + ncomp) of the results (component-major, tree order) into a caller's host array
// (ncomp per body, the caller's order).
struct ResultPart {
  int first, ncomp;
  double* host;
};

class PassEngine {
 public:
  virtual ~PassEngine() = default;

  // After set_positions: whether the passes need TreeData's split coordinates, and the moment to move the tree
  // to the backend (part of the set-up's time).
  virtual bool wants_split_coordinates() const = 0;
  virtual void tree_changed() = 0;

  // ncomp of the `stride` values per body of the caller's host array, in tree order, component-major, on the
  // backend's side (on the GPU the array crosses PCIe as it is and the device permutes it).
  virtual core::Array<double> to_tree_order(std::span<const double> values, int stride, int ncomp) = 0;
  // The parts of `out`, times scale, into the caller's host arrays; returns when they are there.
  virtual void to_user_order(const core::Array<double>& out, std::span<const ResultPart> parts, double scale) = 0;

  // Readies one evaluation: the lists (made into `staged` unless it holds them already) and the strengths;
  // time spent sending lists counts as traversal, sending strengths as transfer. The passes below use them.
  virtual void stage(const InteractionLists& lists, std::unique_ptr<StagedLists>& staged,
                     const core::Array<double>& strength, const core::Array<double>& sigma, Timings& time) = 0;

  // The engine's copy made from lists traversed on the backend (gpu/device_lists.hpp, on this engine's side),
  // taking their arrays over, so that they never pass through the host; null from an engine that reads host
  // lists only (the CPU's).
  virtual std::unique_ptr<StagedLists> staged_lists(gpu::BackendLists /*lists*/) { return nullptr; }

  // P2M and M2M (writes every multipole).
  virtual void upward(int ncomp, const core::Array<double>& strength, core::Array<C>& multipoles) = 0;
  // Adds every M2L pair's contribution to the locals.
  virtual void m2l(int ncomp, const InteractionLists& lists, const core::Array<C>& multipoles,
                   core::Array<C>& locals) = 0;
  // L2L from the root down.
  virtual void local_to_local(int ncomp, core::Array<C>& locals) = 0;
  // L2P: writes (not adds) each body's far field into out.
  virtual void local_to_bodies(LaplaceKernel, const core::Array<double>& strength, const core::Array<C>& locals,
                               core::Array<double>& out) = 0;
  virtual void local_to_bodies(BiotSavartKernel, const core::Array<double>& strength, const core::Array<C>& locals,
                               core::Array<double>& out) = 0;
  // P2P: adds each body's near field into out.
  virtual void p2p(LaplaceKernel, const InteractionLists& lists, const core::Array<double>& strength,
                   const core::Array<double>& sigma, core::Array<double>& out) = 0;
  virtual void p2p(BiotSavartKernel, const InteractionLists& lists, const core::Array<double>& strength,
                   const core::Array<double>& sigma, core::Array<double>& out) = 0;
  virtual void p2p(GaussianKernel, const InteractionLists& lists, const core::Array<double>& strength,
                   const core::Array<double>& sigma, core::Array<double>& out) = 0;
};

// Engines over a State's options and tree (both outlive the engine; the options may change between calls).
std::unique_ptr<PassEngine> make_cpu_engine(const Options& options, TreeData& tree);
std::unique_ptr<PassEngine> make_cuda_engine(const Options& options, TreeData& tree);  // throws without CUDA

}  // namespace loom::fmm::detail
