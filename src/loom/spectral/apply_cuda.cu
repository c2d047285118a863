// The CUDA strategies of apply.hpp: cuBLAS strided-batched (the whole tensor in one call), cuBLAS per component
// over streams, and a fused kernel with the matrix in shared memory.
#include <cublas_v2.h>
#include <cusparse.h>

#include <algorithm>
#include <array>
#include <string>

#include "loom/core/cuda_check.cuh"
#include "loom/core/device_pool.hpp"
#include "loom/spectral/cublas_handle.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral::gpu {

namespace {

constexpr int stream_count = 4;
const std::array<cudaStream_t, stream_count>& streams() {
  static std::array<cudaStream_t, stream_count> s = [] {
    std::array<cudaStream_t, stream_count> created{};
    for (auto& one : created) LOOM_CUDA_CHECK(cudaStreamCreate(&one));  // blocking: joins the default stream
    return created;
  }();
  return s;
}

// One GEMM or one strided batch for `slabs` consecutive (inner x n_in) slabs, on the handle's current stream;
// with blocks > 1 (= shape.outer) the slabs of one component, each with its own matrix.
void gemm(const double* a, const AxisShape& s, Index blocks, Index slabs, const double* in, double* out) {
  const double one = 1, zero = 0;
  const auto n_in = static_cast<int>(s.n_in), n_out = static_cast<int>(s.n_out);
  if (s.inner == 1 && blocks == 1) {
    check(cublasDgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, n_out, static_cast<int>(slabs), n_in, &one, a, n_in,
                      in, n_in, &zero, out, n_out),
          "cublasDgemm");
    return;
  }
  const auto inner = static_cast<int>(s.inner);
  const long long stride_a = blocks == 1 ? 0 : s.n_in * s.n_out;
  check(cublasDgemmStridedBatched(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, inner, n_out, n_in, &one, in, inner,
                                  s.inner * s.n_in, a, n_in, stride_a, &zero, out, inner, s.inner * s.n_out,
                                  static_cast<int>(slabs)),
        "cublasDgemmStridedBatched");
}

// One thread per output value o = i + inner (r + n_out b): y_o = sum_k A_rk x_{i + inner (k + n_in b)}.
__global__ void fused_kernel(const double* a, AxisShape s, Index total, const double* in, double* out) {
  extern __shared__ double m[];
  for (Index t = threadIdx.x; t < s.n_in * s.n_out; t += blockDim.x) m[t] = a[t];
  __syncthreads();
  for (Index o = blockIdx.x * Index{blockDim.x} + threadIdx.x; o < total; o += Index{gridDim.x} * blockDim.x) {
    const Index i = o % s.inner, rb = o / s.inner, r = rb % s.n_out, b = rb / s.n_out;
    const double* x = in + b * s.inner * s.n_in + i;
    const double* row = m + r * s.n_in;
    double sum = 0;
    for (Index k = 0; k < s.n_in; ++k) sum += row[k] * x[s.inner * k];
    out[o] = sum;
  }
}

void check_sparse(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("spectral: ") + call + " failed: " + cusparseGetErrorString(status));
}

cusparseHandle_t sparse_handle() {
  static cusparseHandle_t h = [] {
    cusparseHandle_t created = nullptr;
    check_sparse(cusparseCreate(&created), "cusparseCreate");
    return created;
  }();
  return h;
}

// The same with a matrix per outer index (blocks = shape.outer), read through the cache rather than shared
// memory (the separable route's per-m theta matrices: N_phi of them, N_theta^2 each).
__global__ void fused_blocked_kernel(const double* a, AxisShape s, Index total, const double* in, double* out) {
  for (Index o = blockIdx.x * Index{blockDim.x} + threadIdx.x; o < total; o += Index{gridDim.x} * blockDim.x) {
    const Index i = o % s.inner, rb = o / s.inner, r = rb % s.n_out, b = rb / s.n_out;
    const double* x = in + b * s.inner * s.n_in + i;
    const double* row = a + ((b % s.outer) * s.n_out + r) * s.n_in;
    double sum = 0;
    for (Index k = 0; k < s.n_in; ++k) sum += __ldg(row + k) * x[s.inner * k];
    out[o] = sum;
  }
}

}  // namespace

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) throw Error(std::string("spectral: ") + call + " failed with cuBLAS status " +
                                                   std::to_string(static_cast<int>(status)));
}

cublasHandle_t cublas_handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created = nullptr;
    check(cublasCreate(&created), "cublasCreate");
    return created;
  }();
  return h;
}

// The workspace comes from the device pool; SpMM runs on the default stream, so returning the block to the pool
// right after the launch is safe for any later user on that stream.
void csr_spmm(Index rows, Index cols, Index nonzeros, const int* row_start, const int* column, const double* value,
              Index columns, const double* x, double* y) {
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnMatDescr_t b = nullptr, c = nullptr;
  check_sparse(cusparseCreateCsr(&a, rows, cols, nonzeros, const_cast<int*>(row_start), const_cast<int*>(column),
                                 const_cast<double*>(value), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
               "cusparseCreateCsr");
  check_sparse(cusparseCreateDnMat(&b, cols, columns, columns, const_cast<double*>(x), CUDA_R_64F, CUSPARSE_ORDER_ROW),
               "cusparseCreateDnMat");
  check_sparse(cusparseCreateDnMat(&c, rows, columns, columns, y, CUDA_R_64F, CUSPARSE_ORDER_ROW),
               "cusparseCreateDnMat");
  const double one = 1, zero = 0;
  std::size_t bytes = 0;
  check_sparse(cusparseSpMM_bufferSize(sparse_handle(), CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, b, &zero, c, CUDA_R_64F,
                                       CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
               "cusparseSpMM_bufferSize");
  void* buffer = bytes > 0 ? core::device_pool().allocate(bytes) : nullptr;
  check_sparse(cusparseSpMM(sparse_handle(), CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                            a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, buffer),
               "cusparseSpMM");
  if (buffer) core::device_pool().deallocate(buffer);
  cusparseDestroySpMat(a);
  cusparseDestroyDnMat(b);
  cusparseDestroyDnMat(c);
}

// With one matrix the whole tensor is one call; with a matrix per outer index, one call per component.
void gemm_batched(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
                  double* out) {
  check(cublasSetStream(cublas_handle(), nullptr), "cublasSetStream");
  if (blocks == 1) return gemm(matrix, shape, 1, shape.outer * components, in, out);
  for (Index c = 0; c < components; ++c)
    gemm(matrix, shape, blocks, shape.outer, in + c * shape.input_size(), out + c * shape.output_size());
}

void gemm_streamed(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
                   double* out) {
  const auto& s = streams();
  for (Index c = 0; c < components; ++c) {
    check(cublasSetStream(cublas_handle(), s[c % stream_count]), "cublasSetStream");
    gemm(matrix, shape, blocks, shape.outer, in + c * shape.input_size(), out + c * shape.output_size());
  }
  for (auto one : s) LOOM_CUDA_CHECK(cudaStreamSynchronize(one));
  check(cublasSetStream(cublas_handle(), nullptr), "cublasSetStream");
}

void fused(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
           double* out) {
  const Index total = shape.output_size() * components;
  const int threads = 256;
  const auto grid = static_cast<unsigned>(std::min<Index>((total + threads - 1) / threads, 4096));
  if (blocks > 1) {
    fused_blocked_kernel<<<grid, threads>>>(matrix, shape, total, in, out);
  } else {
    const auto shared = static_cast<std::size_t>(shape.n_in * shape.n_out) * sizeof(double);
    fused_kernel<<<grid, threads, shared>>>(matrix, shape, total, in, out);
  }
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::gpu
