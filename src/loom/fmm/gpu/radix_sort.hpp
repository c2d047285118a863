// A stable sort of (key, value) pairs by keys whose bits at and above `bits` are zero, where the arrays are: CUB's
// radix sort over bits [0, bits) on the device (fewer passes than a sort of all 64 bits, its temporary storage
// from the device pool), thrust's stable sort on the host. Both give the one stable order. CUDA builds only.
#pragma once

#include <cstdint>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm::gpu {

void stable_sort_pairs(core::Backend backend, core::Array<std::uint64_t>& key, core::Array<Index>& value, Index n,
                       int bits);
// The same with 32-bit values (a quarter less to move per radix pass than with 64-bit ones).
void stable_sort_pairs(core::Backend backend, core::Array<std::uint64_t>& key, core::Array<std::uint32_t>& value,
                       Index n, int bits);

}  // namespace loom::fmm::gpu
