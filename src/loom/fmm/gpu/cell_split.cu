// cell_split.hpp's block-per-cell multisection. Each round is the level-wide path's round restricted to one cell:
// the parts of the cell (at most 8, contiguous, in order) get run ids 2k + 1 when they split and 2k when they stay,
// the same keys (segments.hpp's sort_key) are sorted stably, so the bodies of the staying parts keep their order
// and the splitting parts are ordered along their axes as the device-wide sort orders them.
#include "loom/fmm/gpu/cell_split.hpp"

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "loom/core/cuda_check.cuh"
#include "loom/core/error.hpp"
#include "loom/core/host_device.hpp"
#include "loom/fmm/gpu/segments.hpp"

namespace loom::fmm::gpu {
namespace {

struct Larger {
  LOOM_HOST_DEVICE double operator()(double a, double b) const { return a > b ? a : b; }
};

// A body's place in its cell (cells of at most 65536 bodies): 16 bits, so that a block of 4096 bodies keeps its
// places and the sort's storage within the 48 KB of static shared memory.
using Place = std::uint16_t;

// A cell's bodies in their current order: the j-th is the body sidx[j] of the cell's order before the kernel.
struct CellBodies {
  const Vec3d* pos;
  Index begin;
  const Place* sidx;
  LOOM_HOST_DEVICE Vec3d operator[](Index j) const { return pos[begin + sidx[j]]; }
};

constexpr int max_parts = 8;  // three rounds of bisection
// A key above every body's: the run id 16 exceeds the largest, 2 * 7 + 1.
constexpr std::uint64_t padding_key = std::uint64_t(16) << sort_coordinate_bits;
constexpr int key_bits = sort_coordinate_bits + 5;

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    split_kernel(const Cell* level, int ncrit, Vec3d* pos, Index* order, Cell* kids8, Index* kid_count) {
  using Sort = cub::BlockRadixSort<std::uint64_t, Threads, Items, int>;
  using BoxReduce = cub::BlockReduce<Box, Threads>;
  using MaxReduce = cub::BlockReduce<double, Threads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename BoxReduce::TempStorage box;
    typename MaxReduce::TempStorage max;
  } temp;
  __shared__ Place sidx[Threads * Items];
  __shared__ Range parts[max_parts];
  __shared__ Index lower[max_parts];
  __shared__ int part_count;
  // Box and Vec3d have default member initialisers, which __shared__ variables may not run: raw storage
  __shared__ alignas(Box) unsigned char box_bytes[max_parts * sizeof(Box)];
  __shared__ alignas(Vec3d) unsigned char centre_bytes[sizeof(Vec3d)];
  Box* boxes = reinterpret_cast<Box*>(box_bytes);
  Vec3d& centre = *reinterpret_cast<Vec3d*>(centre_bytes);
  const Cell cell = level[blockIdx.x];
  const int m = static_cast<int>(cell.count);
  if (m <= ncrit) {  // the whole block leaves: a leaf
    if (threadIdx.x == 0) kid_count[blockIdx.x] = 0;
    return;
  }
  const CellBodies x{pos, cell.begin, sidx};
  for (int j = threadIdx.x; j < m; j += Threads) sidx[j] = static_cast<Place>(j);
  if (threadIdx.x == 0) {
    parts[0] = Range{0, m};
    part_count = 1;
  }
  __syncthreads();
  for (int round = 0; round < 3; ++round) {
    const int np = part_count;
    bool any = false;
    for (int k = 0; k < np; ++k) any = any || parts[k].count > ncrit;
    if (!any) break;
    for (int k = 0; k < np; ++k) {  // the splitting parts' bounding boxes
      const Range r = parts[k];
      if (r.count <= ncrit) continue;
      Box b;
      for (Index j = r.begin + threadIdx.x; j < r.begin + r.count; j += Threads) b = MergeBoxes{}(b, point_box(x[j]));
      const Box total = BoxReduce(temp.box).Reduce(b, MergeBoxes{});
      if (threadIdx.x == 0) boxes[k] = total;
      __syncthreads();
    }
    std::uint64_t key[Items];
    int value[Items];
    for (int i = 0; i < Items; ++i) {  // blocked: thread t holds places t * Items ..
      const int j = static_cast<int>(threadIdx.x) * Items + i;
      key[i] = padding_key;
      value[i] = j;
      if (j >= m) continue;
      int k = 0;
      while (k + 1 < np && parts[k + 1].begin <= j) ++k;
      key[i] = sort_key(parts[k].count > ncrit ? 2 * k + 1 : 2 * k, boxes, x[j], sort_coordinate_bits);
      value[i] = sidx[j];
    }
    __syncthreads();  // every place read before sidx is rewritten
    Sort(temp.sort).Sort(key, value, 0, key_bits);
    for (int i = 0; i < Items; ++i) {
      const int j = static_cast<int>(threadIdx.x) * Items + i;
      if (j < m) sidx[j] = static_cast<Place>(value[i]);
    }
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < np && parts[threadIdx.x].count > ncrit)
      lower[threadIdx.x] = lower_count(parts[threadIdx.x], boxes[threadIdx.x], x);
    __syncthreads();
    if (threadIdx.x == 0) {  // each splitting part becomes its two halves, in order
      Range next[max_parts];
      int count = 0;
      for (int k = 0; k < np; ++k) {
        const Range r = parts[k];
        if (r.count > ncrit) {
          next[count++] = Range{r.begin, lower[k]};
          next[count++] = Range{r.begin + lower[k], r.count - lower[k]};
        } else {
          next[count++] = r;
        }
      }
      for (int k = 0; k < count; ++k) parts[k] = next[k];
      part_count = count;
    }
    __syncthreads();
  }
  const int children = part_count;
  for (int k = 0; k < children; ++k) {  // centre (of the bounding box) and radius (largest distance from it)
    const Range r = parts[k];
    Box b;
    for (Index j = r.begin + threadIdx.x; j < r.begin + r.count; j += Threads) b = MergeBoxes{}(b, point_box(x[j]));
    const Box total = BoxReduce(temp.box).Reduce(b, MergeBoxes{});
    if (threadIdx.x == 0) centre = total.center();
    __syncthreads();
    const Vec3d c = centre;
    double d = 0;
    for (Index j = r.begin + threadIdx.x; j < r.begin + r.count; j += Threads) d = Larger{}(d, norm2(x[j] - c));
    const double r2 = MaxReduce(temp.max).Reduce(d, Larger{});
    if (threadIdx.x == 0) {
      Cell child;
      child.begin = cell.begin + r.begin;
      child.count = r.count;
      child.center = c;
      child.radius = sqrt(r2);
      kids8[max_parts * static_cast<Index>(blockIdx.x) + k] = child;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) kid_count[blockIdx.x] = children;
  Vec3d p[Items];  // the bodies in their new order: all read before any is written
  Index o[Items];
  for (int i = 0; i < Items; ++i) {
    const int j = static_cast<int>(threadIdx.x) + i * Threads;
    if (j >= m) continue;
    p[i] = pos[cell.begin + sidx[j]];
    o[i] = order[cell.begin + sidx[j]];
  }
  __syncthreads();
  for (int i = 0; i < Items; ++i) {
    const int j = static_cast<int>(threadIdx.x) + i * Threads;
    if (j >= m) continue;
    pos[cell.begin + j] = p[i];
    order[cell.begin + j] = o[i];
  }
}

template <int Threads, int Items>
void launch(const Cell* level, Index count, int ncrit, Vec3d* pos, Index* order, Cell* kids8, Index* kid_count) {
  split_kernel<Threads, Items><<<static_cast<unsigned>(count), Threads>>>(level, ncrit, pos, order, kids8, kid_count);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace

void split_cells_in_blocks(const Cell* level, Index count, Index largest, int ncrit, Vec3d* pos, Index* order,
                           Cell* kids8, Index* kid_count) {
  LOOM_REQUIRE(largest <= block_split_capacity, "fmm::gpu::split_cells_in_blocks: a cell exceeds the capacity");
  if (count == 0) return;
  if (largest <= 256)
    launch<64, 4>(level, count, ncrit, pos, order, kids8, kid_count);
  else if (largest <= 512)
    launch<128, 4>(level, count, ncrit, pos, order, kids8, kid_count);
  else if (largest <= 1024)
    launch<128, 8>(level, count, ncrit, pos, order, kids8, kid_count);
  else if (largest <= 2048)
    launch<256, 8>(level, count, ncrit, pos, order, kids8, kid_count);
  else
    launch<512, 8>(level, count, ncrit, pos, order, kids8, kid_count);
}

}  // namespace loom::fmm::gpu
