// Aligned host allocations for arrays (64-byte alignment: whole cache lines, full-width SIMD loads).
#pragma once

#include <cstddef>

namespace loom::core {

void* allocate_host(std::size_t bytes);  // throws std::bad_alloc; 64-byte aligned
void free_host(void* p);

}  // namespace loom::core
