// `loom hit`'s initial fields: Taylor-Green, a random solenoidal field with a prescribed spectrum (reproducible
// from a seed, on every backend and machine alike, so that `loom vortex` can start from the same field), and a
// velocity read from an HDF5 file.
#pragma once

#include <cstdint>
#include <filesystem>

#include "loom/core/array.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/model.hpp"
#include "loom/hit/slab_layout.hpp"

namespace loom::hit {

class Solver;

// u = A (sin x cos y cos z, -cos x sin y cos z, 0) on the grid (3 components, valid on the host).
core::Array<double> taylor_green(SpectralGrid grid, double amplitude);

// The target spectrum's shape at wavenumber k (unnormalised).
double spectrum_shape(SpectrumShape shape, double k, double k_peak);

// The Rogallo-style random field: Gaussian white noise on the grid (a 64-bit Mersenne twister from `seed`,
// Box-Muller), transformed by FFTW, projected onto divergence-free modes, truncated to the modes `dealiasing`
// keeps, and rescaled shell by shell (shells |k| in [s - 1/2, s + 1/2)) to E(s) = C shape(s) with the total
// `energy`. Returns the modes (3 components, valid on the host).
core::Array<Complex> random_solenoidal(SpectralGrid grid, Dealiasing dealiasing, SpectrumShape shape, double k_peak,
                                       double energy, std::uint64_t seed);

// The same fields built by each rank on its own slab only (runs on several ranks, so that no rank holds the whole
// grid): Taylor-Green on the layout's points (3 components point_stride apart, valid on the host); the random
// field from the same noise stream (each rank draws the values of its planes), transformed by the solver's
// transforms and rescaled by the shells' energies of all ranks, in the solver's layout: equal to the whole field
// to rounding. Collective over the solver's ranks.
core::Array<double> taylor_green_slab(const SlabLayout& layout, double amplitude);
core::Array<Complex> random_solenoidal(Solver& solver, SpectrumShape shape, double k_peak, double energy,
                                       std::uint64_t seed);

// The grid size of an HDF5 velocity (dataset fields/velocity of shape n x n x n x 3); throws UsageError naming
// `key` if the file or its shape is unusable.
Index velocity_file_grid(const std::filesystem::path& path, const std::string& key);
// Its values as 3 components of n^3 points (valid on the host).
core::Array<double> read_velocity_file(const std::filesystem::path& path, SpectralGrid grid);
// The values of the layout's z planes only (an HDF5 hyperslab: a rank reads its slab and nothing else), as the
// layout stores them (3 components point_stride apart, rows padded; valid on the host).
core::Array<double> read_velocity_slab(const std::filesystem::path& path, const SlabLayout& layout);

}  // namespace loom::hit
