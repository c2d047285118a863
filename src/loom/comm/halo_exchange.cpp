#include "loom/comm/halo_exchange.hpp"

#include <climits>

#include "loom/core/error.hpp"

#if defined(LOOM_HAVE_MPI)
#include "loom/comm/mpi_detail.hpp"
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

namespace loom::comm {

#if defined(LOOM_HAVE_MPI)

struct HaloExchange::Requests {
  MPI_Request r[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int count = 0;
};

namespace {
// Tags by direction: a message travelling upwards carries my top layers into the lower halo of the rank above.
constexpr int tag_upwards = 11, tag_downwards = 12;
}  // namespace

HaloExchange::HaloExchange(Communicator comm, const Slab& slab, std::size_t halo_bytes)
    : comm_(std::move(comm)), slab_(slab), bytes_(halo_bytes), requests_(std::make_unique<Requests>()) {
  LOOM_REQUIRE(halo_bytes <= std::size_t(INT_MAX), "HaloExchange: a halo above 2 GiB");
}

HaloExchange::~HaloExchange() {
  if (in_flight() && mpi_active()) MPI_Waitall(requests_->count, requests_->r, MPI_STATUSES_IGNORE);
}

bool HaloExchange::in_flight() const { return requests_->count > 0; }

void HaloExchange::start(const HaloBuffers& b) {
  LOOM_REQUIRE(!in_flight(), "HaloExchange::start: the previous exchange is still in flight");
  const MPI_Comm c = detail::native(comm_);
  const int n = static_cast<int>(bytes_);
  Requests& q = *requests_;
  q.count = 0;
  // Receives first, so that a message finds its buffer posted.
  if (slab_.below >= 0)
    detail::check(MPI_Irecv(b.receive_below, n, MPI_BYTE, slab_.below, tag_upwards, c, &q.r[q.count++]), "MPI_Irecv");
  if (slab_.above >= 0)
    detail::check(MPI_Irecv(b.receive_above, n, MPI_BYTE, slab_.above, tag_downwards, c, &q.r[q.count++]), "MPI_Irecv");
  if (slab_.above >= 0)
    detail::check(MPI_Isend(b.send_above, n, MPI_BYTE, slab_.above, tag_upwards, c, &q.r[q.count++]), "MPI_Isend");
  if (slab_.below >= 0)
    detail::check(MPI_Isend(b.send_below, n, MPI_BYTE, slab_.below, tag_downwards, c, &q.r[q.count++]), "MPI_Isend");
}

void HaloExchange::wait() {
  if (!in_flight()) return;
  Requests& q = *requests_;
  const int count = q.count;
  q.count = 0;
  detail::check(MPI_Waitall(count, q.r, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

bool cuda_aware_mpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return mpi_active() && MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

#else  // no MPI: one rank, no neighbours, nothing to exchange

struct HaloExchange::Requests {};
HaloExchange::HaloExchange(Communicator comm, const Slab& slab, std::size_t halo_bytes)
    : comm_(std::move(comm)), slab_(slab), bytes_(halo_bytes), requests_(std::make_unique<Requests>()) {
  LOOM_REQUIRE(slab.below < 0 && slab.above < 0, "HaloExchange: neighbouring ranks in a build without MPI");
}
HaloExchange::~HaloExchange() = default;
bool HaloExchange::in_flight() const { return false; }
void HaloExchange::start(const HaloBuffers&) {}
void HaloExchange::wait() {}
bool cuda_aware_mpi() { return false; }

#endif

}  // namespace loom::comm
