#include "loom/hit/checkpoint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::hit {

namespace {
const std::string checkpoint_format = "loom hit checkpoint 1";
}

void write_checkpoint(const std::filesystem::path& path, const Solver& solver, const std::string& input) {
  const SpectralGrid g = solver.grid();
  const std::vector<Complex> whole = gather_modes(solver);
  if (solver.distributed() && !solver.communicator()->is_root()) return;
  const std::span<const double> values(reinterpret_cast<const double*>(whole.data()), 6 * std::size_t(g.modes()));
  io::CheckpointWriter h5(path, checkpoint_format);
  h5.write("modes", values, {3, std::size_t(g.n), std::size_t(g.n), std::size_t(g.half()), 2});
  h5.attribute("n", std::int64_t(g.n));
  h5.attribute("nu", solver.options().nu);
  h5.attribute("time", solver.time());
  h5.attribute("step", std::int64_t(solver.steps()));
  h5.attribute("input", input);
  h5.commit();
}

CheckpointHeader read_checkpoint_header(const std::filesystem::path& path, const std::string& key) {
  CheckpointHeader c;
  io::read_checkpoint_file(path, key, checkpoint_format, "loom hit", [&](const io::Hdf5Reader& h5) {
    c.n = h5.attribute_int64("/", "n");
    c.nu = h5.attribute_double("/", "nu");
    c.time = h5.attribute_double("/", "time");
    c.step = h5.attribute_int64("/", "step");
    c.input = h5.attribute_string("/", "input");
    const SpectralGrid g{c.n};
    const std::vector<std::size_t> expected{3, std::size_t(g.n), std::size_t(g.n), std::size_t(g.half()), 2};
    if (c.n < 4 || c.n % 2 != 0 || h5.dims("modes") != expected)
      throw UsageError(fmt::format("{} = \"{}\": modes of the wrong size", key, path.string()));
  });
  return c;
}

// The slab's modes are one hyperslab of the file's [component][jz][jy][kx][re, im]: planes z0.. of jz, or (the
// transposed modes) rows y0.. of jy for every jz, in the order the layout stores them.
core::Array<Complex> read_checkpoint_modes(const std::filesystem::path& path, const SlabLayout& L,
                                           const std::string& key) {
  const auto n = std::size_t(L.grid.n), half = std::size_t(L.grid.half());
  std::vector<std::size_t> start{0, std::size_t(L.z0), 0, 0, 0}, count{3, std::size_t(L.nz), n, half, 2};
  if (L.transposed()) start = {0, 0, std::size_t(L.y0), 0, 0}, count = {3, n, std::size_t(L.ny), half, 2};
  std::vector<double> values;
  try {
    values = io::Hdf5Reader(path).read_double_block("modes", start, count);
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{} = \"{}\": cannot be read ({})", key, path.string(), e.what()));
  }
  core::Array<Complex> modes(3 * std::size_t(L.mode_stride));
  Complex* out = modes.write(core::Where::host);
  std::fill(out, out + modes.size(), Complex{});
  const Index M = L.modes();
  for (Index c = 0; c < 3; ++c)
    for (Index m = 0; m < M; ++m) {
      const std::size_t from = 2 * std::size_t(c * M + m);
      out[c * L.mode_stride + m] = {values[from], values[from + 1]};
    }
  return modes;
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  Checkpoint c;
  static_cast<CheckpointHeader&>(c) = read_checkpoint_header(path, key);
  c.modes = read_checkpoint_modes(path, SlabLayout::whole({c.n}), key);
  return c;
}

}  // namespace loom::hit
