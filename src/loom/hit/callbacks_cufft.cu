// cuFFT's LTO callbacks of `loom hit` (fft.callbacks = on): stage_modes.hpp's functions inside the transforms' own
// loads and stores. Not a source of loom_hit: compiled apart to LTO-IR (nvcc -dc -fatbin, code=lto_XX), embedded
// as bytes (CMakeLists.txt) and linked by cuFFT into its kernels when a plan is made (cufftXtSetJITCallback, which
// loads nvJitLink). C names: cuFFT finds the functions by name in the fatbin.
#include <cufftXt.h>

#include "loom/hit/stage_modes.hpp"

using loom::Index;
using loom::hit::Complex;
using loom::hit::ModeLoad;
using loom::hit::ModeUpdate;

// The inverse transform of the 6 components (u, omega) reads the stage's 3 input components.
extern "C" __device__ cufftDoubleComplex loom_hit_load_fields(void*, unsigned long long offset, void* info, void*) {
  const Complex v = loom::hit::load_element(*static_cast<const ModeLoad*>(info), Index(offset));
  return {v.re, v.im};
}

// The forward transform of (u x omega)_x and _y: raw, kept modes only.
extern "C" __device__ void loom_hit_store_kept(void* out, unsigned long long offset, cufftDoubleComplex value,
                                               void* info, void*) {
  loom::hit::store_kept(*static_cast<const ModeUpdate*>(info), static_cast<Complex*>(out), Index(offset),
                        {value.x, value.y});
}

// The forward transform of (u x omega)_z: the projection, integrating factor and stage update of the mode.
extern "C" __device__ void loom_hit_store_update(void*, unsigned long long offset, cufftDoubleComplex value, void* info,
                                                 void*) {
  loom::hit::store_update(*static_cast<const ModeUpdate*>(info), Index(offset), {value.x, value.y});
}
