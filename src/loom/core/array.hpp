// core::Array<T>: one array with a host copy and a device copy, each with a validity flag, copied lazily
// (MFEM's Memory<T>; the spectral-BH paper's DataMesh). Ask for a pointer valid on one side:
//   read(where)        the data must be valid there; copies once from the other side if it is stale
//   write(where)       the caller overwrites everything; no copy, the other side becomes stale
//   read_write(where)  read(where), then the other side becomes stale
// An array that was never written has no valid side, and reading it throws: that catches uninitialised data.
// Not thread-safe: one owner at a time, as with std::vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include "loom/core/backend.hpp"
#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"
#include "loom/core/host_memory.hpp"

namespace loom::core {

struct TransferCounts {
  std::size_t host_to_device = 0;
  std::size_t device_to_host = 0;
};

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "core::Array holds trivially copyable elements only");

 public:
  Array() = default;
  // n elements, no valid side yet. `pool` gives device memory (default: the current CUDA device's pool).
  explicit Array(std::size_t n, DevicePool* pool = nullptr) : size_(n), pool_(pool) {}
  // n copies of value, valid on the host.
  Array(std::size_t n, const T& value, DevicePool* pool = nullptr) : Array(n, pool) {
    T* h = write(Where::host);
    for (std::size_t i = 0; i < n; ++i) h[i] = value;
  }
  static Array from(std::span<const T> values, DevicePool* pool = nullptr) {
    Array a(values.size(), pool);
    T* h = a.write(Where::host);
    for (std::size_t i = 0; i < values.size(); ++i) h[i] = values[i];
    return a;
  }

  Array(Array&& o) noexcept { swap(o); }
  Array& operator=(Array&& o) noexcept {
    Array tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  Array(const Array&) = delete;  // arrays are large: copies are explicit, with clone()
  Array& operator=(const Array&) = delete;
  ~Array() { free_all(); }

  // A deep copy, valid where this array is valid (device-to-device when only the device is valid).
  Array clone() const {
    Array c(size_, pool_);
    if (host_valid_) {
      std::copy_n(host_, size_, c.write(Where::host));
      if (device_valid_) c.read(Where::device);
    } else if (device_valid_) {
      device_pool_().resource().copy_on_device(c.write(Where::device), device_, bytes());
    }
    return c;
  }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  bool valid_on(Where w) const { return w == Where::host ? host_valid_ : device_valid_; }
  TransferCounts transfers() const { return transfers_; }

  const T* read(Where w) const {
    if (size_ == 0) return nullptr;
    if (!valid_on(w)) {
      LOOM_REQUIRE(valid_on(other(w)), "core::Array: read of an array that was never written");
      copy_to(w);
    }
    return side(w);
  }
  T* write(Where w) {
    if (size_ == 0) return nullptr;
    allocate(w);
    set_valid(w, true);
    set_valid(other(w), false);
    return side(w);
  }
  T* read_write(Where w) {
    read(w);
    set_valid(other(w), false);
    return side(w);
  }

  // Host conveniences.
  std::span<const T> host() const { return {read(Where::host), size_}; }
  std::span<T> host_mut() { return {read_write(Where::host), size_}; }
  // Marks the host side stale, e.g. after a host buffer was handed to MPI for a device copy.
  void invalidate(Where w) { set_valid(w, false); }
  // Frees the device copy (after syncing it to the host if only the device was valid).
  void release_device() {
    if (device_valid_ && !host_valid_) read(Where::host);
    free_device();
  }

 private:
  void swap(Array& o) noexcept {
    std::swap(size_, o.size_);
    std::swap(pool_, o.pool_);
    std::swap(host_, o.host_);
    std::swap(device_, o.device_);
    std::swap(host_valid_, o.host_valid_);
    std::swap(device_valid_, o.device_valid_);
    std::swap(transfers_, o.transfers_);
  }
  DevicePool& device_pool_() const {
    if (pool_ == nullptr) pool_ = &device_pool();
    return *pool_;
  }
  T* side(Where w) const { return w == Where::host ? host_ : device_; }
  void set_valid(Where w, bool v) const { (w == Where::host ? host_valid_ : device_valid_) = v; }
  void allocate(Where w) const {
    if (w == Where::host && host_ == nullptr) host_ = static_cast<T*>(allocate_host(bytes()));
    if (w == Where::device && device_ == nullptr) device_ = static_cast<T*>(device_pool_().allocate(bytes()));
  }
  void copy_to(Where w) const {
    allocate(w);
    auto& resource = device_pool_().resource();
    if (w == Where::device) {
      resource.copy_to_device(device_, host_, bytes());
      ++transfers_.host_to_device;
    } else {
      resource.copy_to_host(host_, device_, bytes());
      ++transfers_.device_to_host;
    }
    set_valid(w, true);
  }
  void free_device() {
    if (device_ != nullptr) device_pool_().deallocate(device_);
    device_ = nullptr;
    device_valid_ = false;
  }
  void free_all() {
    free_device();
    if (host_ != nullptr) free_host(host_);
    host_ = nullptr;
    host_valid_ = false;
  }

  std::size_t size_ = 0;
  mutable DevicePool* pool_ = nullptr;
  mutable T* host_ = nullptr;
  mutable T* device_ = nullptr;
  mutable bool host_valid_ = false;
  mutable bool device_valid_ = false;
  mutable TransferCounts transfers_;
};

}  // namespace loom::core
