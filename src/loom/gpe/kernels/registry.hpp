// The leapfrog step's implementations, selectable at run time (`loom gpe --kernel`) and in `loom bench gpe`:
//   plain   core::parallel_for over vertices with the Hamiltonian's formula (both backends; CPU loops over
//           structures); plain.cpp
//   tuned   CUDA, after the paper's Algorithm 1: thread grid (structure x * m_s + local, y, z), m_s a compile-time
//           constant, per-entry flat neighbour offsets with a bounds mask, read-only loads of the stencil; tuned.cu
//   shared  tuned, plus psi(n) of the block's structures staged in shared memory (the paper's section 4.1); tuned.cu
//   soa     persistent blocks with the stencil in structure-of-arrays form staged in shared memory (soa_stencil.hpp,
//           soa.cu); on the CPU an OpenMP loop over structures with compile-time (m_s, F) (soa_cpu.cpp)
//   march   CUDA, 2.5D blocking: a block marches a tile of structures along z with psi(n) in a ring of
//           shared-memory layers (march_tiles.hpp, march.cu); steps psi with rows padded to whole lines
// Adding a variant: its file here with a make_<name>_kernel factory, one value below and one line in registry.cpp.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "loom/gpe/kernels/step_kernel.hpp"

namespace loom::gpe {

enum class LeapfrogKernel { plain, tuned, shared, soa, march };

std::string_view to_string(LeapfrogKernel k);
// Whether a variant has a CPU implementation (the others are CUDA kernels).
bool runs_on_cpu(LeapfrogKernel k);
// Throws UsageError naming `key` for an unknown name or a CUDA-only kernel in a build without CUDA.
LeapfrogKernel parse_leapfrog_kernel(std::string_view text, std::string_view key = "kernel");
// The variants that exist for `backend` in this build (those with a CPU implementation everywhere; all with CUDA).
std::vector<LeapfrogKernel> leapfrog_kernels(core::Backend backend);
// Every name, in the registry's order ("plain, tuned, ...").
std::vector<std::string> leapfrog_kernel_names();

// The fastest variant measured for a grid: on CUDA march for m_s <= 12 (cubic, FCC, BCC), soa for the larger
// structures, whose halos make the march tiles too large; soa on the CPU (docs/performance.md, "GPE: the measurements behind the kernel code's choices",
// "variant per grid").
LeapfrogKernel default_leapfrog_kernel(core::Backend backend, int cells_per_structure);

// The variant `kernel` made for `context`. Throws loom::Error for a CUDA-only variant on the CPU backend.
std::unique_ptr<StepKernel> make_step_kernel(LeapfrogKernel kernel, const KernelContext& context);

}  // namespace loom::gpe
