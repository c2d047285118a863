#include "loom/gpe/run/memory_need.hpp"

namespace loom::gpe {

core::MemoryNeed gpe_memory_need(double dof) {
  return {host_base_bytes + dof * (16 * host_complex_arrays + host_table_bytes),
          dof * (16 * device_complex_arrays + device_table_bytes)};
}

}  // namespace loom::gpe
