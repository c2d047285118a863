// The march leapfrog kernel (march_tiles.hpp): a block per (tile, segment of layers), psi(n) of the tile and its
// halo staged layer by layer in a ring of shared-memory slots (five, or six when two layers are copied ahead) by
// asynchronous copies (cp.async, Ampere and later), so that layers z + 2 (.. z + 3) arrive while layer z is updated
// from z - 1, z and z + 1, with one barrier per layer. Copies of cells outside the lattice write zeros (psi = 0 outside
// the cuboid, the paper's boundary condition), so the update itself needs no bounds masks. psi(n-1) is read one layer
// ahead into registers, and psi(n+1) written over it, eq. (7). The arithmetic per vertex is the soa kernel's (soa_row
// of soa_stencil.hpp, faces in the same order), so the two agree to rounding. No fmt here (nvcc cannot compile it).
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "loom/core/cuda_check.cuh"
#include "loom/core/error.hpp"
#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/march_tiles.hpp"
#include "loom/gpe/kernels/soa_tables_shared.cuh"

namespace loom::gpe {
namespace {

// 16 bytes from global to shared memory without passing through registers; valid = false writes 16 zeros
// (src-size 0: nothing is read).
__device__ inline void copy_async_16(double2* shared_destination, const Complex* source, bool valid) {
  const auto destination = static_cast<unsigned>(__cvta_generic_to_shared(shared_destination));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(destination), "l"(source), "r"(valid ? 16 : 0)
               : "memory");
}
__device__ inline void copy_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most `pending` of this thread's most recent groups are still in flight.
template <int pending>
__device__ inline void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
}

// M: m_s; F: the padded face count; V: the most tile vertices a thread updates (tile_vertices <= V Threads);
// Ahead: layers copied ahead (MarchTiling::ahead).
template <int M, int F, int V, int Threads, int Ahead>
__global__ void __launch_bounds__(Threads)
    march_step(SoaStencilView t, MarchPlan::View plan, MarchGeometry geo, dec::Vec3 origin, Physics physics,
               int z_offset, const Complex* __restrict__ now, Complex* __restrict__ other, double dt) {
  constexpr int slots = march_slots(Ahead);
  extern __shared__ double2 ring[];  // slots x slot_vertices()
  __shared__ SharedCellTables<M, F> tables;
  __shared__ std::int32_t code[M * F];
  tables.stage(t);
  for (int k = threadIdx.x; k < M * F; k += blockDim.x) code[k] = plan.neighbour_code[k];
  const SoaStencilView s = tables.view(t);
  const double* weight = tables.weight;
  const MarchGeometry::Item it = geo.item(blockIdx.x);
  const Index layer_vertices = geo.layer_cells();         // in memory: rows geo.row_pitch apart
  const Index tile_start = geo.tile_start(it.x0, it.y0);  // the tile's first vertex within a layer
  const int slot_vertices = geo.slot_vertices();

  // This thread's vertices k = threadIdx.x + j Threads of the tile (the same for every layer).
  int slot_at[V], offset[V], cell[V], sx[V], sy[V];
  bool in_tile[V], active[V];
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int k = threadIdx.x + j * Threads;
    in_tile[j] = k < geo.tile_vertices();
    const MarchGeometry::TileVertex v = geo.tile_vertex(in_tile[j] ? k : 0);
    sx[j] = it.x0 + v.lx;
    sy[j] = it.y0 + v.ly;
    cell[j] = v.c;
    active[j] = in_tile[j] && sx[j] < geo.nx && sy[j] < geo.ny;
    slot_at[j] = geo.slot_index(v.lx, v.ly, __ldg(plan.slot_cell + v.c));
    offset[j] = geo.lattice_offset(v.lx, v.ly, v.c);
  }

  // Layer z of the tile and its halo into its slot (zeros outside the lattice), as one group of copies.
  auto load_layer = [&](int z) {
    double2* slot = ring + geo.slot_of(z, it.z0) * slot_vertices;
    const bool layer_inside = z >= 0 && z < geo.nz;
    const Complex* base = now + (layer_inside ? Index(z) * layer_vertices + tile_start : 0);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const bool copy = active[j] && layer_inside;
      if (in_tile[j]) copy_async_16(slot + slot_at[j], copy ? base + offset[j] : now, copy);
    }
    for (int h = threadIdx.x; h < plan.halo_cells; h += Threads) {
      const HaloCell c = unpack_halo_cell(__ldg(plan.halo + h));
      const int x = it.x0 + c.hx, y = it.y0 + c.hy;
      const bool copy = layer_inside && unsigned(x) < unsigned(geo.nx) && unsigned(y) < unsigned(geo.ny);
      copy_async_16(slot + __ldg(plan.halo_slot + h), copy ? base + geo.lattice_offset(c.hx, c.hy, c.c) : now, copy);
    }
    copy_async_commit();
  };

  load_layer(it.z0 - 1);
  load_layer(it.z0);
  load_layer(it.z0 + 1);  // <= z1: the top halo when the segment has one layer
  if constexpr (Ahead == 2) {
    if (it.z0 + 2 <= it.z1)
      load_layer(it.z0 + 2);
    else
      copy_async_commit();  // every iteration below counts on Ahead groups after the one of layer z + 1
  }
  Complex previous[V], previous_next[V];
#pragma unroll
  for (int j = 0; j < V; ++j)
    if (active[j]) previous[j] = other[Index(it.z0) * layer_vertices + tile_start + offset[j]];
  __syncthreads();  // the tables

  int here = 1;  // the ring slot of layer z (layer z0 - 1 is in slot 0)
  for (int z = it.z0; z < it.z1; ++z) {
    if (z + 1 + Ahead <= it.z1)
      load_layer(z + 1 + Ahead);  // into the slot of layer z - 3, last read in iteration z - 2, before the last barrier
    else
      copy_async_commit();  // an empty group, so that "all but the newest Ahead" still means "up to layer z + 1"
    const bool more = z + 1 < it.z1;
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (active[j] && more) previous_next[j] = other[Index(z + 1) * layer_vertices + tile_start + offset[j]];
    copy_async_wait<Ahead>();
    __syncthreads();  // every thread's copies of layers up to z + 1 have landed, and nobody reads layer z - 2's
    const int below = (here == 0 ? slots - 1 : here - 1) * slot_vertices, at = here * slot_vertices,
              above = (here == slots - 1 ? 0 : here + 1) * slot_vertices;
    const Index layer_start = Index(z) * layer_vertices + tile_start;
#pragma unroll
    for (int j = 0; j < V; ++j) {
      if (!active[j]) continue;
      const double2 c2 = ring[at + slot_at[j]];
      const Complex center{c2.x, c2.y};
      Complex sum{};
#pragma unroll
      for (int f = 0; f < F; ++f) {
        const int k = f * M + cell[j];
        const std::int32_t nb = code[k];
        const int dz = march_dz(nb);
        const double2 v2 = ring[(dz < 0 ? below : dz > 0 ? above : at) + slot_at[j] + march_delta(nb)];
        sum += weight[k] * (Complex{v2.x, v2.y} - center);
      }
      const Complex m_psi = soa_row(s, origin, physics, center, sum, cell[j], {sx[j], sy[j], z}, z_offset);
      other[layer_start + offset[j]] = previous[j] - (2 * dt) * core::times_i(m_psi);  // eq. (7)
    }
#pragma unroll
    for (int j = 0; j < V; ++j) previous[j] = previous_next[j];
    here = here == slots - 1 ? 0 : here + 1;
  }
  copy_async_wait<0>();
}

// Dynamic shared memory above 48 KB must be allowed per kernel, once.
template <int M, int F, int V, int Threads, int Ahead>
void allow_shared(std::size_t bytes) {
  static std::size_t allowed = 0;
  if (bytes <= allowed) return;
  int device = 0, optin = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&device));
  LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  LOOM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, march_step<M, F, V, Threads, Ahead>));
  if (bytes + attributes.sharedSizeBytes > std::size_t(optin))
    throw UsageError("march tiling needs " + std::to_string((bytes + attributes.sharedSizeBytes) / 1024) +
                     " KiB of shared memory per block, the device allows " + std::to_string(optin / 1024) +
                     " KiB: choose a smaller tile");
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(march_step<M, F, V, Threads, Ahead>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

// Blocks of this kernel instance the device runs at once (SMs x blocks per SM at `shared_bytes`), what a
// balanced tiling's segments are cut for; once per instance and size.
template <int M, int F, int V, int Threads, int Ahead>
long long resident_blocks(std::size_t shared_bytes) {
  static std::size_t known_bytes = 0;
  static long long known = 0;
  if (known > 0 && known_bytes == shared_bytes) return known;
  int device = 0, sms = 0, per_sm = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&device));
  LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  LOOM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, march_step<M, F, V, Threads, Ahead>, Threads,
                                                                shared_bytes));
  known_bytes = shared_bytes;
  known = static_cast<long long>(sms) * per_sm;
  return known;
}

template <int M, int F, int V, int Threads, int Ahead>
void launch_march(const SoaStencilView& t, const MarchPlan& plan, LayerRange layers, const Hamiltonian& h,
                  const Complex* now, Complex* other, double dt, cudaStream_t stream) {
  const std::size_t shared_bytes = plan.shared_bytes();
  allow_shared<M, F, V, Threads, Ahead>(shared_bytes);
  const MarchGeometry geo =
      plan.geometry(layers.first, layers.count, resident_blocks<M, F, V, Threads, Ahead>(shared_bytes));
  LOOM_REQUIRE(geo.nx == h.lattice.nx && geo.ny == h.lattice.ny && geo.nz == h.lattice.nz,
               "leapfrog_step_cuda_march: a plan of another lattice");
  LOOM_REQUIRE(geo.slots == march_slots(Ahead), "leapfrog_step_cuda_march: a ring of another depth");
  const long long items = geo.items();
  LOOM_REQUIRE(items < (1ll << 31), "leapfrog_step_cuda_march: too many tiles for one launch");
  march_step<M, F, V, Threads, Ahead><<<static_cast<unsigned>(items), Threads, shared_bytes, stream>>>(
      t, plan.view(core::Where::device), geo, h.origin, h.physics, h.z_offset, now, other, dt);
  LOOM_CUDA_CHECK_LAUNCH();
}

template <int M, int F>
void launch_march(const SoaStencilView& t, const MarchPlan& plan, LayerRange layers, const Hamiltonian& h,
                  const Complex* now, Complex* other, double dt, cudaStream_t stream) {
  // 2 to 4 vertices per thread, blocks of 256 threads up to 768 vertices, of 512 above: more vertices per thread
  // cost registers and with them blocks per SM (docs/performance.md, "GPE: the measurements behind the kernel code's choices", "march block shape").
  const MarchGeometry shape = plan.geometry(0, 1);
  const int tile = shape.tile_vertices();
  auto run = [&](auto v, auto threads) {
    constexpr int vertices = decltype(v)::value, block = decltype(threads)::value;
    if (plan.tiling().ahead == 2)
      launch_march<M, F, vertices, block, 2>(t, plan, layers, h, now, other, dt, stream);
    else
      launch_march<M, F, vertices, block, 1>(t, plan, layers, h, now, other, dt, stream);
  };
  using V2 = std::integral_constant<int, 2>;
  using V3 = std::integral_constant<int, 3>;
  using V4 = std::integral_constant<int, 4>;
  using T256 = std::integral_constant<int, 256>;
  using T512 = std::integral_constant<int, 512>;
  if (tile <= 2 * 256) return run(V2{}, T256{});
  if (tile <= 3 * 256) return run(V3{}, T256{});
  if (tile <= 2 * 512) return run(V2{}, T512{});
  if (tile <= 3 * 512) return run(V3{}, T512{});
  if (tile <= 4 * 512) return run(V4{}, T512{});
  throw UsageError("march tiling " + std::to_string(shape.tile_x) + "x" + std::to_string(shape.tile_y) + ": " +
                   std::to_string(tile) + " vertices per tile, at most 2048 allowed");
}

}  // namespace

void leapfrog_step_cuda_march(const SoaStencilView& t, const MarchPlan& plan, const Hamiltonian& h, const Complex* now,
                              Complex* other, double dt, LayerRange layers, void* stream_handle) {
  LOOM_REQUIRE(t.cells == h.lattice.cells, "leapfrog_step_cuda_march: tables of another grid");
  require_layers_inside(h.lattice, layers);
  if (layers.empty()) return;
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  dispatch_grid_shape(t, "leapfrog_step_cuda_march", [&](auto m, auto f) {
    launch_march<decltype(m)::value, decltype(f)::value>(t, plan, layers, h, now, other, dt, stream);
  });
}

}  // namespace loom::gpe
