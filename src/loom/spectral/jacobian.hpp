// The Jacobian operations of the spectral-BH paper (section 3.3), each one kernel per tensor (not one per
// component; SpEC could not do this because its components were separate arrays):
//   DiffJac (eq. 8):           T_{ab..,i} = sum_j J_i^j T_{ab..,j}   (the derivative index changes frame)
//   SpatialCoordJac (eqs. 9-11): every spatial index of T contracted with J, time components left alone.
// J is given as 9 arrays [(3 i + j) N + x]. The derivative of a tensor with N_e components holds the 3
// derivative blocks [(j N_e + c) N + x]. The formulas are LOOM_HOST_DEVICE: one formula, OpenMP and CUDA.
#pragma once

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/tensor.hpp"

namespace loom::spectral {

// out = DiffJac(in); in and out hold 3 * components * points values.
void diff_jac(core::Backend backend, const core::Array<double>& jacobian, Index points, int components,
              const core::Array<double>& in, core::Array<double>& out);
// out = SpatialCoordJac(in), same shape.
void spatial_coord_jac(core::Backend backend, const core::Array<double>& jacobian, const Tensor& in, Tensor& out);

// The paper's models (d = 3, 8-byte words): DiffJac M = N_x (2 N_e + d) d words, F = N_x N_e (2d - 1) d.
perf::Work diff_jac_work(Index points, int components);
// SpatialCoordJac: each transformed component read and written once plus the d^2 Jacobian arrays
// (components with only time indices are not touched); F counts the kernel's products and sums.
perf::Work spatial_coord_jac_work(const TensorShape& shape, Index points);

}  // namespace loom::spectral
