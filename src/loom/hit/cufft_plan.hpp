// cuFFT plans as `loom hit` makes them (CUDA sources only): every call checked, the work area from loom's device
// pool rather than cuFFT's own allocation, so that the pool's high-water mark sees it.
#pragma once

#include <cufft.h>
#include <cufftXt.h>

#include <string>

#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/callbacks_unavailable.hpp"

namespace loom::hit {

inline void cufft_check(cufftResult result, const char* call, const char* file, int line) {
  if (result != CUFFT_SUCCESS)
    throw Error(std::string("cuFFT call ") + call + " failed with code " + std::to_string(int(result)) + " at " +
                file + ":" + std::to_string(line));
}
#define LOOM_CUFFT_CHECK(call) ::loom::hit::cufft_check((call), #call, __FILE__, __LINE__)

// An LTO callback for a plan (cufftXtSetJITCallback): the function's name in the LTO-IR fatbin, the fatbin, the
// callback's type and its argument (a device pointer).
struct CufftCallback {
  const char* name;
  const void* fatbin;
  std::size_t fatbin_bytes;
  cufftXtCallbackType type;
  void* info;
};

struct CufftPlan {
  cufftHandle handle = 0;
  void* work = nullptr;
};

// cufftMakePlanMany64's arguments (null embeds: the packed layout), with the work area taken from the pool; a
// callback is attached before planning, as cuFFT requires for LTO callbacks.
inline CufftPlan make_cufft_plan(int rank, long long* dims, long long* inembed, long long istride, long long idist,
                                 long long* onembed, long long ostride, long long odist, cufftType type,
                                 long long batch, const CufftCallback* callback = nullptr) {
  CufftPlan p;
  LOOM_CUFFT_CHECK(cufftCreate(&p.handle));
  LOOM_CUFFT_CHECK(cufftSetAutoAllocation(p.handle, 0));
  if (callback != nullptr) {
    void* info = callback->info;
    LOOM_CUFFT_CHECK(cufftXtSetJITCallback(p.handle, callback->name, callback->fatbin, callback->fatbin_bytes,
                                           callback->type, &info));
  }
  std::size_t work_bytes = 0;
  const cufftResult planned = cufftMakePlanMany64(p.handle, rank, dims, inembed, istride, idist, onembed, ostride,
                                                  odist, type, batch, &work_bytes);
  if (planned != CUFFT_SUCCESS && callback != nullptr) {
    cufftDestroy(p.handle);
    throw CallbacksUnavailable("fft.callbacks = on: cuFFT could not plan a transform with loom's LTO callback " +
                               std::string(callback->name) + " (code " + std::to_string(int(planned)) +
                               "); allowed here: fft.callbacks = off");
  }
  LOOM_CUFFT_CHECK(planned);
  if (work_bytes > 0) {
    p.work = core::device_pool().allocate(work_bytes);
    LOOM_CUFFT_CHECK(cufftSetWorkArea(p.handle, p.work));
  }
  return p;
}

inline void destroy_cufft_plan(CufftPlan& p) {
  cufftDestroy(p.handle);
  if (p.work != nullptr) core::device_pool().deallocate(p.work);
  p = {};
}

}  // namespace loom::hit
