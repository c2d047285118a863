// The tuned and shared CUDA leapfrog steps (registry.hpp). One thread per dual vertex as in Algorithm 1 of the
// DEC-GPE paper: threadIdx/blockIdx.x run over (structure x, local index) of one row of structures, blockIdx.y and
// blockIdx.z are the structure's y and z, so consecutive threads touch consecutive vertices (coalesced 16-byte
// accesses) and the division by m_s is by a compile-time constant. No fmt here (nvcc cannot compile it).
#include <cuda_runtime.h>

#include <string>

#include "loom/core/cuda_check.cuh"
#include "loom/gpe/kernels/launches.hpp"

namespace loom::gpe {
namespace {

constexpr int block_threads = 256;

struct Vertex {
  Index i;
  int local;
  dec::StructureInstance s;
  bool active;
};

// blockIdx.z counts layers from z_first (a slab's edge or interior layers, section 4.2).
template <int M>
__device__ inline Vertex vertex_of_thread(const dec::StructureLattice& lattice, int z_first) {
  const int tx = blockIdx.x * blockDim.x + threadIdx.x;
  const int sx = tx / M;  // M is a compile-time constant: a multiply and a shift
  Vertex v;
  v.local = tx - sx * M;
  v.s = {sx, static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z) + z_first};
  v.active = sx < lattice.nx;
  v.i = Index(M) * ((Index(v.s.sz) * lattice.ny + v.s.sy) * lattice.nx + sx) + v.local;
  return v;
}

// psi at neighbour j of entry e, or 0 when that structure lies outside the domain (the paper's boundary condition).
__device__ inline bool inside(const dec::StructureLattice& lattice, const dec::StructureInstance& s,
                              const dec::StencilEntry& e) {
  return unsigned(s.sx + e.dx) < unsigned(lattice.nx) && unsigned(s.sy + e.dy) < unsigned(lattice.ny) &&
         unsigned(s.sz + e.dz) < unsigned(lattice.nz);
}

__device__ inline void update(const Hamiltonian& h, const Vertex& v, Complex center, Complex sum, Complex* other,
                              double dt) {
  const Complex laplacian = __ldg(h.stencil.inverse_volume + v.local) * sum;
  const Complex m_psi = gross_pitaevskii_row(laplacian, h.potential(v.local, v.s), h.physics.g, center);
  other[v.i] -= (2 * dt) * core::times_i(m_psi);  // eq. (7)
}

__device__ inline Complex load(const Complex* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}

template <int M>
__global__ void __launch_bounds__(block_threads) tuned_step(Hamiltonian h, const std::int32_t* __restrict__ offsets,
                                                            const Complex* __restrict__ now,
                                                            Complex* __restrict__ other, double dt, int z_first) {
  const Vertex v = vertex_of_thread<M>(h.lattice, z_first);
  if (!v.active) return;
  const Complex center = load(now + v.i);
  Complex sum{};
  const int first = __ldg(h.stencil.first + v.local), last = __ldg(h.stencil.first + v.local + 1);
  for (int f = first; f < last; ++f) {
    const dec::StencilEntry e = h.stencil.entries[f];
    const Complex other_value = inside(h.lattice, v.s, e) ? load(now + v.i + __ldg(offsets + f)) : Complex{};
    sum += e.weight * (other_value - center);
  }
  update(h, v, center, sum, other, dt);
}

// psi(n) of the block's vertices (a contiguous range, one row of structures) staged in shared memory; neighbours
// inside the range are read from there, the others from global memory.
template <int M>
__global__ void __launch_bounds__(block_threads) shared_step(Hamiltonian h, const std::int32_t* __restrict__ offsets,
                                                             const Complex* __restrict__ now,
                                                             Complex* __restrict__ other, double dt, int z_first) {
  __shared__ double2 tile[block_threads];
  const Vertex v = vertex_of_thread<M>(h.lattice, z_first);
  const Index row_start = Index(M) * ((Index(v.s.sz) * h.lattice.ny + blockIdx.y) * h.lattice.nx);
  const Index tile_start = row_start + Index(blockIdx.x) * blockDim.x;
  const Index row_end = row_start + Index(M) * h.lattice.nx;
  if (v.active) tile[threadIdx.x] = __ldg(reinterpret_cast<const double2*>(now + v.i));
  __syncthreads();
  if (!v.active) return;
  const Index tile_end = min(tile_start + Index(blockDim.x), row_end);
  const double2 c2 = tile[threadIdx.x];
  const Complex center{c2.x, c2.y};
  Complex sum{};
  const int first = __ldg(h.stencil.first + v.local), last = __ldg(h.stencil.first + v.local + 1);
  for (int f = first; f < last; ++f) {
    const dec::StencilEntry e = h.stencil.entries[f];
    Complex value{};
    if (inside(h.lattice, v.s, e)) {
      const Index j = v.i + __ldg(offsets + f);
      if (j >= tile_start && j < tile_end) {
        const double2 t = tile[j - tile_start];
        value = {t.x, t.y};
      } else {
        value = load(now + j);
      }
    }
    sum += e.weight * (value - center);
  }
  update(h, v, center, sum, other, dt);
}

template <int M>
void launch(bool shared, const Hamiltonian& h, const std::int32_t* offsets, const Complex* now, Complex* other,
            double dt, LayerRange layers, cudaStream_t stream) {
  const dim3 grid((h.lattice.nx * M + block_threads - 1) / block_threads, h.lattice.ny, layers.count);
  if (shared)
    shared_step<M><<<grid, block_threads, 0, stream>>>(h, offsets, now, other, dt, layers.first);
  else
    tuned_step<M><<<grid, block_threads, 0, stream>>>(h, offsets, now, other, dt, layers.first);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace

void leapfrog_step_cuda_tuned(bool shared, const Hamiltonian& h, const std::int32_t* offsets, const Complex* now,
                              Complex* other, double dt, LayerRange layers, void* stream_handle) {
  LOOM_REQUIRE(h.lattice.ny <= 65535 && h.lattice.nz <= 65535, "leapfrog_step_cuda: at most 65535 structures in y, z");
  require_layers_inside(h.lattice, layers);
  if (layers.empty()) return;
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  switch (h.lattice.cells) {  // m_s of the six grids: cubic 1, FCC and BCC 12, A15 46, Z 80, C15 136
    case 1: return launch<1>(shared, h, offsets, now, other, dt, layers, stream);
    case 12: return launch<12>(shared, h, offsets, now, other, dt, layers, stream);
    case 46: return launch<46>(shared, h, offsets, now, other, dt, layers, stream);
    case 80: return launch<80>(shared, h, offsets, now, other, dt, layers, stream);
    case 136: return launch<136>(shared, h, offsets, now, other, dt, layers, stream);
    default: throw Error("leapfrog_step_cuda: no tuned kernel for m_s = " + std::to_string(h.lattice.cells));
  }
}

}  // namespace loom::gpe
