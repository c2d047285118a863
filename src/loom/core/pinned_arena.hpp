// The pinned arena (beside the device pool; AMReX's pinned arena): page-locked host buffers through which the
// caller's (pageable) arrays cross PCIe at full speed, where the driver's pageable bounce buffers are several
// times slower (docs/performance.md, "FMM: figures behind code comments"). Copies run in chunks so that the
// host's copy of one chunk (all cores) overlaps the DMA of the next; the buffers grow as needed and are kept between
// calls.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace loom::cuda {
class Event;
}

namespace loom::core {

// memcpy split over the OpenMP threads (one contiguous range each); plain memcpy below a megabyte.
void copy_parallel(void* dst, const void* src, std::size_t bytes);

// Chunk boundaries of a pipelined copy of `bytes`: enough chunks to overlap, few enough that the per-chunk
// cost (a copy call, an event, an OpenMP region: microseconds) stays small. Offsets, from 0 to bytes.
std::vector<std::size_t> chunk_offsets(std::size_t bytes);

struct UploadPiece {
  void* device;      // destination on the device
  const void* host;  // the caller's host memory
  std::size_t bytes;
};
struct DownloadPiece {
  void* host;          // the caller's host memory
  const void* device;  // source on the device
  std::size_t bytes;
};

class PinnedArena {
 public:
  PinnedArena();
  ~PinnedArena();
  PinnedArena(const PinnedArena&) = delete;
  PinnedArena& operator=(const PinnedArena&) = delete;

  // Queues the pieces' copies to the device on the default stream and returns once the host has staged the
  // last chunk (its DMA may still run; kernels queued later see the data).
  void upload(std::span<const UploadPiece> pieces);
  // Copies the pieces to the host after the default stream's queued work; returns when all are there.
  void download(std::span<const DownloadPiece> pieces);

 private:
  struct Buffer {
    void* p = nullptr;
    std::size_t bytes = 0;
    std::byte* at_least(std::size_t bytes);
    ~Buffer();
  };
  cuda::Event& event(std::size_t k);
  Buffer up_, down_;
  std::vector<std::unique_ptr<cuda::Event>> events_;  // per download chunk, kept
  std::unique_ptr<cuda::Event> uploaded_;             // the last upload's end: up_ is free again after it
  bool upload_pending_ = false;
};

}  // namespace loom::core
