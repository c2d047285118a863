#include "loom/comm/rank_device.hpp"

#include "loom/core/cuda_api.hpp"

namespace loom::comm {

int select_rank_device(const Communicator& comm) {
  const int local = comm.local_rank();  // collective: every rank calls it, with or without a device
  if (!cuda::built() || cuda::device_count() == 0) return -1;
  const int device = local % cuda::device_count();
  cuda::set_device(device);
  return device;
}

}  // namespace loom::comm
