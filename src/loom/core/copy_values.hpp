// n values from one array to another on the same side (host or device): std::copy_n, or a device-to-device copy
// through the pool's memory resource. One place for what filters and workloads do when a result lands in scratch.
#pragma once

#include <algorithm>
#include <cstddef>

#include "loom/core/backend.hpp"
#include "loom/core/device_pool.hpp"

namespace loom::core {

template <class T>
void copy_values(Where w, const T* from, T* to, std::size_t n) {
  if (w == Where::host)
    std::copy_n(from, n, to);
  else
    device_pool().resource().copy_on_device(to, from, n * sizeof(T));
}

}  // namespace loom::core
