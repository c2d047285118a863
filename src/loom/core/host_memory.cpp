#include "loom/core/host_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace loom::core {

void* allocate_host(std::size_t bytes) {
  constexpr std::size_t alignment = 64;
  void* p = std::aligned_alloc(alignment, (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void free_host(void* p) { std::free(p); }

}  // namespace loom::core
