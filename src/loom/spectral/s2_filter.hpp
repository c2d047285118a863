// S2 filtering of a tensor as the spectral-BH paper does it: PhysToSpec of every component into one contiguous
// spectral array, a sparse coupling matrix on it (CSR; cuSPARSE SpMM on the GPU), SpecToPhys. The coupling here
// is the scalar Heaviside filter per component: block-diagonal, a 1 for each kept (component, l, m). A
// tensor-consistent filter (one that filters the tensor's Cartesian components as a geometric object) would
// couple components of equal l through Clebsch-Gordan factors: the same CSR matrix with off-diagonal blocks.
#pragma once

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

struct CsrMatrix {
  Index rows = 0, cols = 0, nonzeros = 0;
  core::Array<int> row_start, column;
  core::Array<double> value;
};

// Rows and columns (component, l^2 + l + m); entry 1 on the diagonal where l <= l_keep.
CsrMatrix heaviside_coupling(const SphereBasis& sphere, int l_keep, Index components);

// y = C x for x with `columns` columns, row-major ([row * columns + j]); pointers on the backend's side. The CPU
// loops over rows; the GPU calls cuSPARSE SpMM.
void spmm(core::Backend backend, const CsrMatrix& c, Index columns, const double* x, double* y);

// The shell's filter through the coupling: radial exponential filter, angular PhysToSpec, the Heaviside coupling,
// SpecToPhys; every matrix traced and cached, applied with strategy s (not fused: the transforms are large).
void filter_csr(const Shell& shell, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field);

// The same with the coupling and the operators built once for tensors of `components` components (the coupling's
// device copy is made on the first GPU call and kept).
class CsrFilter {
 public:
  CsrFilter(const Shell& shell, const FilterSpec& spec, Index components);
  void apply(Strategy s, OperatorCache& cache, Tensor& field) const;

 private:
  const Shell& shell_;
  Index components_;
  CsrMatrix coupling_;
  AxisOperator radial_, to_spectral_, to_physical_;
};
// Its model: the three matrices plus the coupling (each nonzero reads and writes N_r values).
perf::Work filter_csr_work(const Shell& shell, const FilterSpec& spec, Index components);

}  // namespace loom::spectral
