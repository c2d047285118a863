#include "loom/io/checksum.hpp"

#include <fmt/format.h>

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

std::uint64_t blocked_fnv1a64(std::span<const std::byte> bytes) {
  const std::size_t blocks = bytes.empty() ? 1 : (bytes.size() + checksum_block - 1) / checksum_block;
  std::vector<std::uint64_t> hashes(blocks);
  const auto count = static_cast<std::int64_t>(blocks);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < count; ++b) {
    const std::size_t first = std::size_t(b) * checksum_block;
    hashes[std::size_t(b)] = fnv1a64(bytes.subspan(first, std::min(checksum_block, bytes.size() - first)));
  }
  std::uint64_t hash = fnv1a64_offset;
  for (const std::uint64_t h : hashes) hash = fnv1a64(little_endian(h), hash);
  return hash;
}

void Checksum::add(std::string_view label, std::span<const std::byte> bytes) {
  hash_ = fnv1a64(label, hash_);
  hash_ = fnv1a64(little_endian(blocked_fnv1a64(bytes)), hash_);
}

std::string Checksum::hex() const { return fmt::format("{:016x}", hash_); }

}  // namespace loom::io
