// Checksums of checkpoint data: 64-bit FNV-1a (Fowler, Noll, Vo), written here rather than taken from a library.
// Large arrays are cut into blocks of checksum_block bytes hashed in parallel; the block hashes are then hashed
// in order, so the value is the same for any number of threads. Not cryptographic: it finds flipped bytes and
// truncated or mixed-up files, not deliberate forgeries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace loom::io {

inline constexpr std::uint64_t fnv1a64_offset = 14695981039346656037ull;  // the FNV-1a 64-bit offset basis
inline constexpr std::uint64_t fnv1a64_prime = 1099511628211ull;          // the FNV 64-bit prime
inline constexpr std::size_t checksum_block = std::size_t{1} << 20;

// FNV-1a over `bytes`, continuing from `hash` (the offset basis starts a new hash).
std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t hash = fnv1a64_offset);
std::uint64_t fnv1a64(std::string_view text, std::uint64_t hash = fnv1a64_offset);

// FNV-1a of each checksum_block of `bytes` (the last may be shorter), then FNV-1a over those hashes
// (8 little-endian bytes each). One block: fnv1a64 of the hash of the bytes.
std::uint64_t blocked_fnv1a64(std::span<const std::byte> bytes);

// blocked_fnv1a64 of bytes handed over in pieces (of their concatenation), without holding them all: a piece's
// whole blocks are hashed in parallel, a block a piece cuts is continued by the next.
class BlockedFnv1a64 {
 public:
  void add(std::span<const std::byte> bytes);
  std::uint64_t value() const;

 private:
  void end_block();
  std::uint64_t outer_ = fnv1a64_offset, block_ = fnv1a64_offset;
  std::size_t in_block_ = 0, blocks_ = 0;
};

// A running checksum over labelled items (a dataset's name and type, then its bytes).
class Checksum {
 public:
  void add(std::string_view label, std::span<const std::byte> bytes);
  // The same with the bytes' blocked_fnv1a64 computed by the caller (BlockedFnv1a64, reading in pieces).
  void add_hash(std::string_view label, std::uint64_t blocked_hash);
  std::uint64_t value() const { return hash_; }
  std::string hex() const;  // 16 lower-case hex digits

 private:
  std::uint64_t hash_ = fnv1a64_offset;
};

}  // namespace loom::io
