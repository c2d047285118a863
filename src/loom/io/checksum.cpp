#include "loom/io/checksum.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace loom::io {
namespace {

std::array<std::byte, 8> little_endian(std::uint64_t v) {
  std::array<std::byte, 8> out{};
  for (std::size_t i = 0; i < 8; ++i) out[i] = std::byte((v >> (8 * i)) & 0xff);
  return out;
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t hash) {
  for (const std::byte b : bytes) {
    hash ^= std::uint64_t(b);
    hash *= fnv1a64_prime;
  }
  return hash;
}

std::uint64_t fnv1a64(std::string_view text, std::uint64_t hash) {
  return fnv1a64(std::as_bytes(std::span(text.data(), text.size())), hash);
}

void BlockedFnv1a64::end_block() {
  outer_ = fnv1a64(little_endian(block_), outer_);
  ++blocks_;
  block_ = fnv1a64_offset;
  in_block_ = 0;
}

void BlockedFnv1a64::add(std::span<const std::byte> bytes) {
  std::size_t done = 0;
  if (in_block_ > 0) {  // finish the block the last piece began
    done = std::min(checksum_block - in_block_, bytes.size());
    block_ = fnv1a64(bytes.first(done), block_);
    in_block_ += done;
    if (in_block_ == checksum_block) end_block();
  }
  const std::size_t whole = (bytes.size() - done) / checksum_block;
  std::vector<std::uint64_t> hashes(whole);
  const auto count = static_cast<std::int64_t>(whole);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < count; ++b)
    hashes[std::size_t(b)] = fnv1a64(bytes.subspan(done + std::size_t(b) * checksum_block, checksum_block));
  for (const std::uint64_t h : hashes) {
    block_ = h;
    end_block();
  }
  done += whole * checksum_block;
  if (done < bytes.size()) {
    block_ = fnv1a64(bytes.subspan(done), block_);
    in_block_ = bytes.size() - done;
  }
}

// An unfinished block counts as it is; no bytes at all as one empty block.
std::uint64_t BlockedFnv1a64::value() const {
  return in_block_ > 0 || blocks_ == 0 ? fnv1a64(little_endian(block_), outer_) : outer_;
}

std::uint64_t blocked_fnv1a64(std::span<const std::byte> bytes) {
  BlockedFnv1a64 h;
  h.add(bytes);
  return h.value();
}

void Checksum::add(std::string_view label, std::span<const std::byte> bytes) {
  add_hash(label, blocked_fnv1a64(bytes));
}

void Checksum::add_hash(std::string_view label, std::uint64_t blocked_hash) {
  hash_ = fnv1a64(label, hash_);
  hash_ = fnv1a64(little_endian(blocked_hash), hash_);
}

std::string Checksum::hex() const { return fmt::format("{:016x}", hash_); }

}  // namespace loom::io
