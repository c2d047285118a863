#include "loom/hit/initial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/hit/solver.hpp"
#include "loom/hit/transforms.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::hit {

core::Array<double> taylor_green(SpectralGrid g, double amplitude) {
  const Index n = g.n, N = g.points();
  core::Array<double> u(3 * std::size_t(N));
  double* v = u.write(core::Where::host);
  const double h = g.spacing();
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < N; ++i) {
    const double x = h * double(i % n), y = h * double((i / n) % n), z = h * double(i / (n * n));
    v[i] = amplitude * std::sin(x) * std::cos(y) * std::cos(z);
    v[N + i] = -amplitude * std::cos(x) * std::sin(y) * std::cos(z);
    v[2 * N + i] = 0;
  }
  return u;
}

double spectrum_shape(SpectrumShape shape, double k, double k_peak) {
  const double q = k / k_peak;
  if (shape == SpectrumShape::von_karman) return std::pow(q, 4) / std::pow(1 + q * q, 17.0 / 6);
  return std::pow(q, 4) * std::exp(-2 * q * q);
}

namespace {

// Standard normal numbers [first, first + count) of the raw 64-bit stream from `seed` (Box-Muller on pairs of
// draws, value i from draw i), so that every standard library draws the same field and a rank can draw the
// values of its own planes alone; `first` is even (pairs are not split).
std::vector<double> gaussian_noise(std::uint64_t seed, std::size_t first, std::size_t count) {
  LOOM_REQUIRE(first % 2 == 0, "hit: noise ranges start on a pair");
  std::mt19937_64 engine(seed);
  engine.discard(first);
  auto uniform = [&] { return (double(engine() >> 11) + 0.5) * 0x1.0p-53; };  // in (0, 1)
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; i += 2) {
    const double r = std::sqrt(-2 * std::log(uniform())), phi = 2 * M_PI * uniform();
    out[i] = r * std::cos(phi);
    if (i + 1 < count) out[i + 1] = r * std::sin(phi);
  }
  return out;
}

Index shell_of(Wavevector k) { return Index(std::floor(std::sqrt(k.norm2()) + 0.5)); }

// The transformed noise `u` (3 components of the layout's modes) projected onto divergence-free modes, truncated
// to the kept ones and rescaled shell by shell to E(s) = C shape(s) of total `energy`; the shells' energies are
// summed over `ranks` in rank order when given (the same bits on every rank).
void shape_spectrum(const SlabLayout& L, Complex* u, Dealiasing dealiasing, SpectrumShape shape, double k_peak,
                    double energy, const comm::Communicator* ranks) {
  const SpectralGrid g = L.grid;
  const Index M = L.mode_stride;
  const Index shells = g.n;  // |k| < sqrt(3) n / 2 < n
  std::vector<double> have(std::size_t(shells), 0.0);
  for (Index m = 0; m < L.modes(); ++m) {
    const Wavevector k = L.wavevector(m);
    ModeVector v{};
    if (k.norm2() > 0 && retained(dealiasing, g.n, k)) v = project(k, {u[m], u[M + m], u[2 * M + m]});
    u[m] = v.x, u[M + m] = v.y, u[2 * M + m] = v.z;
    have[std::size_t(shell_of(k))] += g.hermitian_weight(m) * 0.5 * (norm2(v.x) + norm2(v.y) + norm2(v.z));
  }
  if (ranks != nullptr) ranks->sum_in_rank_order(have);
  std::vector<double> want(std::size_t(shells), 0.0);
  double total = 0;
  for (Index s = 1; s < shells; ++s)
    if (have[std::size_t(s)] > 0) total += want[std::size_t(s)] = spectrum_shape(shape, double(s), k_peak);
  LOOM_REQUIRE(total > 0, "hit: the random field's spectrum has no energy on the kept modes");
  for (Index m = 0; m < L.modes(); ++m) {
    const std::size_t s = std::size_t(shell_of(L.wavevector(m)));
    const double scale = have[s] > 0 ? std::sqrt(energy * want[s] / total / have[s]) : 0.0;
    for (int c = 0; c < 3; ++c) u[c * M + m] = scale * u[c * M + m];
  }
}

}  // namespace

core::Array<Complex> random_solenoidal(SpectralGrid g, Dealiasing dealiasing, SpectrumShape shape, double k_peak,
                                       double energy, std::uint64_t seed) {
  std::vector<double> noise = gaussian_noise(seed, 0, 3 * std::size_t(g.points()));
  core::Array<Complex> modes(3 * std::size_t(g.modes()));
  Complex* u = modes.write(core::Where::host);
  make_fftw_transforms(g, FftPlanning::estimate)->forward(noise.data(), u, 3);
  shape_spectrum(SlabLayout::whole(g), u, dealiasing, shape, k_peak, energy, nullptr);
  return modes;
}

core::Array<double> taylor_green_slab(const SlabLayout& L, double amplitude) {
  const Index n = L.grid.n, P = L.point_stride;
  core::Array<double> u(3 * std::size_t(P), 0.0);
  double* v = u.write(core::Where::host);
  const double h = L.grid.spacing();
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < L.points(); ++i) {
    if (!L.is_point(i)) continue;
    const Index p = L.global_point(i);
    const double x = h * double(p % n), y = h * double((p / n) % n), z = h * double(p / (n * n));
    v[i] = amplitude * std::sin(x) * std::cos(y) * std::cos(z);
    v[P + i] = -amplitude * std::cos(x) * std::sin(y) * std::cos(z);
  }
  return u;
}

core::Array<Complex> random_solenoidal(Solver& solver, SpectrumShape shape, double k_peak, double energy,
                                       std::uint64_t seed) {
  const SlabLayout& L = solver.layout();
  const Index N = L.grid.points(), plane = L.grid.n * L.grid.n, P = L.point_stride;
  core::Array<double> noise(3 * std::size_t(P), 0.0);
  double* v = noise.write(core::Where::host);
  for (Index c = 0; c < 3; ++c) {  // the rank's planes of each component, rows spread to the layout's pitch
    const std::vector<double> mine = gaussian_noise(seed, std::size_t(c * N + L.z0 * plane), std::size_t(L.nz * plane));
    for (Index i = 0; i < L.points(); ++i)
      if (L.is_point(i)) v[c * P + i] = mine[std::size_t(L.global_point(i) - L.z0 * plane)];
  }
  const auto where = core::where(solver.backend());
  core::Array<Complex> modes(3 * std::size_t(L.mode_stride));
  solver.transforms().forward(noise.read_write(where), modes.write(where), 3);
  Complex* u = modes.read_write(core::Where::host);
  shape_spectrum(L, u, solver.options().dealiasing, shape, k_peak, energy,
                 solver.distributed() ? &*solver.communicator() : nullptr);
  return modes;
}

std::vector<std::size_t> velocity_dims(const std::filesystem::path& path, const std::string& key) {
  try {
    const io::Hdf5Reader h5(path);
    return h5.has("fields/velocity") ? h5.dims("fields/velocity") : std::vector<std::size_t>{};
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{} = \"{}\": not a readable HDF5 file ({})", key, path.string(), e.what()));
  }
}

Index velocity_file_grid(const std::filesystem::path& path, const std::string& key) {
  if (!std::filesystem::exists(path)) throw UsageError(fmt::format("{} = \"{}\": no such file", key, path.string()));
  if (std::filesystem::is_directory(path))
    throw UsageError(fmt::format("{} = \"{}\": a folder, not a file", key, path.string()));
  const auto d = velocity_dims(path, key);
  if (d.size() != 4 || d[3] != 3 || d[0] != d[1] || d[1] != d[2] || d[0] % 2 != 0 || d[0] < 8)
    throw UsageError(fmt::format("{} = \"{}\": expected a dataset fields/velocity of shape n x n x n x 3 with an even "
                                 "n >= 8",
                                 key, path.string()));
  return Index(d[0]);
}

core::Array<double> read_velocity_file(const std::filesystem::path& path, SpectralGrid g) {
  const std::vector<double> interleaved = io::Hdf5Reader(path).read_double("fields/velocity");
  const Index N = g.points();
  LOOM_REQUIRE(interleaved.size() == 3 * std::size_t(N), "hit: fields/velocity has the wrong size");
  core::Array<double> u(3 * std::size_t(N));
  double* v = u.write(core::Where::host);
  for (Index i = 0; i < N; ++i)
    for (Index c = 0; c < 3; ++c) v[c * N + i] = interleaved[std::size_t(3 * i + c)];
  return u;
}

core::Array<double> read_velocity_slab(const std::filesystem::path& path, const SlabLayout& L) {
  const Index n = L.grid.n, P = L.point_stride;
  const std::vector<double> interleaved = io::Hdf5Reader(path).read_double_block(
      "fields/velocity", {std::size_t(L.z0), 0, 0, 0}, {std::size_t(L.nz), std::size_t(n), std::size_t(n), 3});
  core::Array<double> u(3 * std::size_t(P));
  double* v = u.write(core::Where::host);
  std::fill(v, v + u.size(), 0.0);
  for (Index i = 0; i < L.points(); ++i) {
    if (!L.is_point(i)) continue;
    const Index local = L.global_point(i) - L.z0 * n * n;  // the point's place in the slab's planes
    for (Index c = 0; c < 3; ++c) v[c * P + i] = interleaved[std::size_t(3 * local + c)];
  }
  return u;
}

}  // namespace loom::hit
