// One MPI rank per GPU (DESIGN.md; the DEC-GPE paper, section 4.2): the ranks of a node take the node's visible
// devices in turn, by local rank, so two ranks may share one GPU when there are fewer devices than ranks.
#pragma once

#include "loom/comm/communicator.hpp"

namespace loom::comm {

// Makes device (local rank mod device count) current and returns it; -1 (and nothing done) without a CUDA
// device. Call before anything is allocated on a device: the device pools belong to the current device.
int select_rank_device(const Communicator& comm);

}  // namespace loom::comm
