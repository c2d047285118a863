// The soa CUDA leapfrog step (registry.hpp, soa_stencil.hpp): persistent blocks that stage the SoA tables in shared
// memory and walk tiles of vertices. No fmt here (nvcc cannot compile it).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "loom/core/cuda_check.cuh"
#include "loom/gpe/kernels/column_tiles.hpp"
#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/soa_tables_shared.cuh"

namespace loom::gpe {
namespace {

constexpr int block_threads = 256;

// Persistent blocks: each stages the SoA tables once, then walks tiles. The lattice is cut into chunks, each
// `band_rows` rows of structures (y) of one layer (z): a chunk is contiguous in memory, and chunks are ordered band by
// band (all z of one band of rows, then the next band), so the blocks in flight sweep z within one band and a
// vertex's +-z neighbours come back from L2 after one chunk instead of a whole slice (in slice order they fell out
// of L2 on large lattices: docs/performance.md, "GPE: the measurements behind the kernel code's choices", "soa bands").
// A tile is V * block_threads consecutive vertices of a chunk (only a chunk's last tile is partly idle), or with
// row_tiles of one row of structures (every row's last tile partly idle; a warp never spans two rows); each
// thread updates V vertices block_threads apart, all loads issued before the stores (more bytes in flight).
// 32-bit tile arithmetic (tiles < 2^31).
struct SoaTiles {
  int band_rows, tiles_per_chunk, tiles_per_row, tiles;
  LayerRange layers;
};

template <int M, int F, int V>
__device__ inline void soa_tile(const SoaStencilView& s, const dec::StructureLattice& lattice, dec::Vec3 origin,
                                Physics physics, int z_offset, const Complex* __restrict__ now,
                                Complex* __restrict__ other, double dt, const SoaTiles& p, int tile) {
  const int row_vertices = M * lattice.nx;
  const int chunk = tile / p.tiles_per_chunk, in_chunk = tile - chunk * p.tiles_per_chunk;
  const int band = chunk / p.layers.count, sz = p.layers.first + (chunk - band * p.layers.count);
  const int sy0 = band * p.band_rows;
  const int chunk_vertices = min(p.band_rows, lattice.ny - sy0) * row_vertices;
  const Index chunk_start = (Index(sz) * lattice.ny + sy0) * row_vertices;
  Index index[V];
  Complex m_psi[V], previous[V];
  bool active[V];
  // tiles_per_row > 0: tiles of one row (row_tiles), else of the whole chunk.
  const int tile_row = p.tiles_per_row > 0 ? in_chunk / p.tiles_per_row : 0;
  const int in_row_tile = p.tiles_per_row > 0 ? in_chunk - tile_row * p.tiles_per_row : in_chunk;
  const int tile_start = tile_row * row_vertices + in_row_tile * V * block_threads;
  const int tile_end = p.tiles_per_row > 0 ? min((tile_row + 1) * row_vertices, chunk_vertices) : chunk_vertices;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int v = tile_start + k * block_threads + threadIdx.x;
    active[k] = v < tile_end;
    if (!active[k]) continue;
    const int row = v / row_vertices, in_row = v - row * row_vertices;
    const int sx = in_row / M, c = in_row - sx * M;
    index[k] = chunk_start + v;
    previous[k] = other[index[k]];
    m_psi[k] = soa_apply<F>(s, lattice, origin, physics, now, index[k], c, {sx, sy0 + row, sz}, z_offset);
  }
#pragma unroll
  for (int k = 0; k < V; ++k)
    if (active[k]) other[index[k]] = previous[k] - (2 * dt) * core::times_i(m_psi[k]);  // eq. (7)
}

// One row segment of a column (column_tiles.hpp): vertices [tile.begin, tile.end) of row (tile.sz, tile.sy), V per
// thread block_threads apart, loads before stores as in soa_tile.
template <int M, int F, int V>
__device__ inline void soa_row_tile(const SoaStencilView& s, const dec::StructureLattice& lattice, dec::Vec3 origin,
                                    Physics physics, int z_offset, const Complex* __restrict__ now,
                                    Complex* __restrict__ other, double dt, const ColumnTiles::Tile& tile) {
  Index index[V];
  Complex m_psi[V], previous[V];
  bool active[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int v = tile.begin + k * block_threads + threadIdx.x;
    active[k] = v < tile.end;
    if (!active[k]) continue;
    const RowVertex at = row_vertex(tile, v, M, lattice.nx, lattice.ny);
    index[k] = at.index;
    previous[k] = other[index[k]];
    m_psi[k] = soa_apply<F>(s, lattice, origin, physics, now, at.index, at.cell, at.structure, z_offset);
  }
#pragma unroll
  for (int k = 0; k < V; ++k)
    if (active[k]) other[index[k]] = previous[k] - (2 * dt) * core::times_i(m_psi[k]);  // eq. (7)
}

// Tiles are handed out either by a grid stride (tile = block, block + grid, ...) or, with a counter, in order by an
// atomic counter: then the tiles in flight stay a compact window however unevenly the blocks progress. With a grid
// stride nothing keeps the blocks together over a long sweep, and the window grows past the L2 on large lattices;
// in order costs a little on small ones, so default_soa_tuning picks by size (docs/performance.md, "GPE: the measurements behind the kernel code's choices",
// "soa tiles in order").
// COLUMNS: the column order (a separate instantiation, so that the other orders keep their register count).
template <int M, int F, int V, bool COLUMNS>
__global__ void __launch_bounds__(block_threads) soa_step(SoaStencilView t, dec::StructureLattice lattice,
                                                          dec::Vec3 origin, Physics physics, int z_offset,
                                                          const Complex* __restrict__ now, Complex* __restrict__ other,
                                                          double dt, SoaTiles p, ColumnTiles columns,
                                                          unsigned* __restrict__ counter) {
  __shared__ SharedCellTables<M, F> tables;
  __shared__ std::int32_t offset[M * F], shift[M * F];
  __shared__ int next_tile[2];
  tables.stage(t);
  for (int k = threadIdx.x; k < M * F; k += blockDim.x) {
    offset[k] = t.offset[k];
    shift[k] = t.shift[k];
  }
  if (counter && threadIdx.x == 0) next_tile[0] = static_cast<int>(atomicAdd(counter, 1u));
  __syncthreads();
  const SoaStencilView s = tables.view(t, offset, shift);
  // Column order: p.tiles counts columns; a block updates a whole column.
  auto work = [&](int item) {
    if constexpr (COLUMNS) {
      for (int k = 0; k < columns.tiles_per_column(); ++k) {
        const ColumnTiles::Tile tile = columns.tile(item, k);
        if (tile.active) soa_row_tile<M, F, V>(s, lattice, origin, physics, z_offset, now, other, dt, tile);
      }
    } else {
      soa_tile<M, F, V>(s, lattice, origin, physics, z_offset, now, other, dt, p, item);
    }
  };
  if (!counter) {
    for (int item = blockIdx.x; item < p.tiles; item += gridDim.x) work(item);
    return;
  }
  // The next tile is fetched while this one is updated; one barrier per tile. A slot is rewritten only after the
  // barrier that follows every thread's read of it.
  int slot = 0;
  for (int item = next_tile[0]; item < p.tiles; item = next_tile[slot]) {
    if (threadIdx.x == 0) next_tile[slot ^ 1] = static_cast<int>(atomicAdd(counter, 1u));
    work(item);
    __syncthreads();
    slot ^= 1;
  }
}

// Persistent blocks: as many as fit on the device at once (per kernel instantiation).
template <int M, int F, int V, bool COLUMNS>
int resident_blocks() {
  static const int blocks = [] {
    int device = 0, sms = 0, per_sm = 0;
    LOOM_CUDA_CHECK(cudaGetDevice(&device));
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    LOOM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, soa_step<M, F, V, COLUMNS>, block_threads, 0));
    return sms * std::max(per_sm, 1);
  }();
  return blocks;
}

template <int M, int F, int V>
void launch_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other, double dt,
                LayerRange layers, SoaTuning tuning, unsigned* counter, cudaStream_t stream) {
  const int band_rows = tuning.band_rows > 0 ? std::min(tuning.band_rows, h.lattice.ny) : h.lattice.ny;
  const int bands = (h.lattice.ny + band_rows - 1) / band_rows;
  const long long chunk_vertices = (long long)band_rows * h.lattice.nx * M;
  LOOM_REQUIRE(chunk_vertices < (1ll << 31), "leapfrog_step_cuda_soa: a band of rows too large for 32-bit indices");
  const long long tile_vertices = (long long)V * block_threads;
  const long long tiles_per_row = tuning.row_tiles ? (M * (long long)h.lattice.nx + tile_vertices - 1) / tile_vertices : 0;
  const long long tiles_per_chunk =
      tuning.row_tiles ? tiles_per_row * band_rows : (chunk_vertices + tile_vertices - 1) / tile_vertices;
  const long long tiles = tiles_per_chunk * layers.count * bands;
  LOOM_REQUIRE(tiles < (1ll << 31), "leapfrog_step_cuda_soa: lattice too large for 32-bit tiles");
  SoaTiles p{band_rows, static_cast<int>(tiles_per_chunk), static_cast<int>(tiles_per_row), static_cast<int>(tiles),
             layers};
  const bool column_order = tuning.column_layers > 0;
  ColumnTiles columns;  // used only with column_order
  if (column_order) {
    columns = {M * h.lattice.nx,
               h.lattice.ny,
               layers.first,
               layers.count,
               band_rows,
               std::min(tuning.column_layers, layers.count),
               static_cast<int>(tile_vertices)};
    LOOM_REQUIRE(columns.columns() < (1ll << 31), "leapfrog_step_cuda_soa: lattice too large for 32-bit columns");
    p.tiles = static_cast<int>(columns.columns());
  }
  if (!tuning.ordered_tiles) counter = nullptr;
  if (counter) LOOM_CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(unsigned), stream));
  if (column_order) {
    const int blocks = std::min(resident_blocks<M, F, V, true>(), p.tiles);
    soa_step<M, F, V, true><<<blocks, block_threads, 0, stream>>>(t, h.lattice, h.origin, h.physics, h.z_offset,
                                                                   now, other, dt, p, columns, counter);
  } else {
    const int blocks = std::min(resident_blocks<M, F, V, false>(), p.tiles);
    soa_step<M, F, V, false><<<blocks, block_threads, 0, stream>>>(t, h.lattice, h.origin, h.physics, h.z_offset,
                                                                    now, other, dt, p, columns, counter);
  }
  LOOM_CUDA_CHECK_LAUNCH();
}

template <int M, int F>
void launch_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other, double dt,
                LayerRange layers, SoaTuning tuning, unsigned* counter, cudaStream_t stream) {
  if (tuning.vertices_per_thread == 2)
    return launch_soa<M, F, 2>(t, h, now, other, dt, layers, tuning, counter, stream);
  launch_soa<M, F, 1>(t, h, now, other, dt, layers, tuning, counter, stream);
}

}  // namespace

void leapfrog_step_cuda_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other,
                            double dt, LayerRange layers, void* stream_handle, SoaTuning tuning,
                            unsigned* counter) {
  LOOM_REQUIRE(t.cells == h.lattice.cells, "leapfrog_step_cuda_soa: tables of another grid");
  LOOM_REQUIRE(tuning.vertices_per_thread == 1 || tuning.vertices_per_thread == 2,
               "leapfrog_step_cuda_soa: 1 or 2 vertices per thread");
  require_layers_inside(h.lattice, layers);
  if (layers.empty()) return;
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  dispatch_grid_shape(t, "leapfrog_step_cuda_soa", [&](auto m, auto f) {
    launch_soa<decltype(m)::value, decltype(f)::value>(t, h, now, other, dt, layers, tuning, counter, stream);
  });
}

}  // namespace loom::gpe
