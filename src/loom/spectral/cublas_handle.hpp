// The spectral module's cuBLAS handle, shared by its CUDA files (created on first use; on the default stream
// between calls: the streamed strategy sets its streams and resets it), and the status check.
#pragma once

#include <cublas_v2.h>

namespace loom::spectral::gpu {

cublasHandle_t cublas_handle();
// Throws Error naming the call unless status is CUBLAS_STATUS_SUCCESS.
void check(cublasStatus_t status, const char* call);

}  // namespace loom::spectral::gpu
