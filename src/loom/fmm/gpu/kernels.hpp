// The tuned CUDA kernels of the FMM (gpu/p2p.cu, gpu/m2l.cu, gpu/passes.cu, gpu/direct.cu; compiled only when
// CUDA is found): P2P and M2L batched as in the paper's GPU section, a thread block per target cell with the
// sources staged through shared memory, in float (split positions, normalised coefficients, sums from high to
// low order) or double; P2M, M2M, L2L and the Laplace L2P with a block per cell. Plain C++ declarations; every
// pointer is a device pointer; every launch goes to the default stream, in order, without synchronising. The
// CPU engine (engine/cpu_engine.cpp) is the reference they are tested against.
#pragma once

#include <cstdint>

#include "loom/core/host_device.hpp"
#include "loom/fmm/precision.hpp"
#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::gpu {

// The tree and interaction lists as the kernels see them (device pointers).
struct TreeView {
  const Cell* cells = nullptr;
  int cell_count = 0;
  const Index* m2l_offset = nullptr;  // by target cell, as in InteractionLists
  const int* m2l_source = nullptr;
  const std::uint8_t* m2l_shift = nullptr;
  const int* m2l_targets = nullptr;  // target cells with at least one M2L pair
  int m2l_target_count = 0;
  const Index* p2p_offset = nullptr;
  const int* p2p_source = nullptr;
  const std::uint8_t* p2p_shift = nullptr;
  const int* p2p_targets = nullptr;  // target leaves with at least one P2P pair
  int p2p_target_count = 0;
  int max_leaf = 0;   // most bodies in a leaf
  double period = 0;  // 0: not periodic
};

// L += M2L(M) over every pair, ncomp expansions per cell (stride term_count(p)). single: float kernels; block:
// the orders m of a degree n each thread sums (1, 2 or 4).
void m2l(const TreeView& tree, int p, int ncomp, const Complex<double>* M, Complex<double>* L, bool single, int block);

// out (component-major, n bodies in tree order) += the P2P sums:
//   Laplace (4 outputs): potential, gradient;  Biot-Savart (6): 4 pi velocity, 4 pi stretching;
//   Gaussian (3): the RBF sum.  strength: component-major (1 or 3 components); sigma: per body.
void p2p_laplace(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, double* out,
                 Precision precision);
void p2p_biot_savart(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                     double* out, Precision precision);
void p2p_gaussian(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                  double* out, Precision precision);

// The passes, in double. P2M writes the multipoles of the leaves `leaves[0 .. leaf_count)`; M2M writes those of
// the non-leaf cells [first, first + count) of one level from their children; L2L adds the parents' locals to
// the cells [first, first + count) of one level >= 1; the Laplace L2P writes potential and gradient
// (component-major, tree order) of the leaves' bodies. ncomp expansions per cell (1 to 3).
void p2m(const TreeView& tree, int p, int ncomp, const int* leaves, int leaf_count, Index n, const Vec3d* positions,
         const double* strength, Complex<double>* M);
void m2m_level(const TreeView& tree, int p, int ncomp, int first, int count, Complex<double>* M);
void l2l_level(const TreeView& tree, int p, int ncomp, int first, int count, Complex<double>* L);
void l2p_laplace(const TreeView& tree, int p, const int* leaves, int leaf_count, Index n, const Vec3d* positions,
                 const Complex<double>* L, double* out);

// A plain all-pairs Laplace kernel in float (tiles of sources in shared memory; the classic N-body kernel),
// the benchmark's yardstick for P2P interactions per second. positions/charges: n bodies; out: 4n.
void direct_laplace(Index n, const Vec3d* positions, const double* charges, double* out);

}  // namespace loom::fmm::gpu
