// The pinned arena and pipelined copies (pinned_arena.hpp).
#include "loom/core/pinned_arena.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "loom/core/cuda_api.hpp"

namespace loom::core {

void copy_parallel(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t serial_below = std::size_t{1} << 20;
  if (bytes < serial_below || omp_get_max_threads() == 1) {
    if (bytes > 0) std::memcpy(dst, src, bytes);
    return;
  }
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
#pragma omp parallel
  {
    const auto threads = static_cast<std::size_t>(omp_get_num_threads());
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    // ranges of whole cache lines, so that no two threads write one line; per * threads >= bytes
    const std::size_t per = ((bytes + threads - 1) / threads + 63) / 64 * 64;
    const std::size_t begin = std::min(bytes, t * per), end = std::min(bytes, begin + per);
    if (end > begin) std::memcpy(d + begin, s + begin, end - begin);
  }
}

std::vector<std::size_t> chunk_offsets(std::size_t bytes) {
  constexpr std::size_t smallest = std::size_t{1} << 20, largest = std::size_t{16} << 20;
  const std::size_t chunk = std::clamp((bytes / 16 + 4095) / 4096 * 4096, smallest, largest);
  std::vector<std::size_t> at;
  for (std::size_t o = 0; o < bytes; o += chunk) at.push_back(o);
  at.push_back(bytes);
  return at;
}

PinnedArena::PinnedArena() = default;
PinnedArena::~PinnedArena() = default;

std::byte* PinnedArena::Buffer::at_least(std::size_t count) {
  if (count > bytes) {
    if (p != nullptr) cuda::free_pinned(p);
    p = nullptr;
    bytes = 0;
    p = cuda::allocate_pinned(count);
    bytes = count;
  }
  return static_cast<std::byte*>(p);
}

PinnedArena::Buffer::~Buffer() {
  if (p != nullptr) cuda::free_pinned(p);
}

cuda::Event& PinnedArena::event(std::size_t k) {
  while (events_.size() <= k) events_.push_back(std::make_unique<cuda::Event>());
  return *events_[k];
}

void PinnedArena::upload(std::span<const UploadPiece> pieces) {
  std::size_t total = 0;
  for (const auto& piece : pieces) total += piece.bytes;
  if (total == 0) return;
  if (upload_pending_) uploaded_->synchronize();  // the previous upload's DMA still reads up_
  std::byte* staged = up_.at_least(total);
  for (const auto& piece : pieces) {
    const auto at = chunk_offsets(piece.bytes);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      const std::size_t len = at[k + 1] - at[k];
      copy_parallel(staged + at[k], static_cast<const std::byte*>(piece.host) + at[k], len);
      cuda::copy_host_to_device_async(static_cast<std::byte*>(piece.device) + at[k], staged + at[k], len);
    }
    staged += piece.bytes;
  }
  if (!uploaded_) uploaded_ = std::make_unique<cuda::Event>();
  uploaded_->record();
  upload_pending_ = true;
}

void PinnedArena::download(std::span<const DownloadPiece> pieces) {
  std::size_t total = 0;
  for (const auto& piece : pieces) total += piece.bytes;
  if (total == 0) return;
  std::byte* staged = down_.at_least(total);
  // queue every chunk's DMA first, then copy each chunk out as soon as it has arrived
  struct Chunk {
    std::byte* host;
    const std::byte* staged;
    std::size_t bytes;
  };
  std::vector<Chunk> chunks;
  for (const auto& piece : pieces) {
    const auto at = chunk_offsets(piece.bytes);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      const std::size_t len = at[k + 1] - at[k];
      cuda::copy_device_to_host_async(staged + at[k], static_cast<const std::byte*>(piece.device) + at[k], len);
      event(chunks.size()).record();
      chunks.push_back({static_cast<std::byte*>(piece.host) + at[k], staged + at[k], len});
    }
    staged += piece.bytes;
  }
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    event(k).synchronize();
    copy_parallel(chunks[k].host, chunks[k].staged, chunks[k].bytes);
  }
}

}  // namespace loom::core
