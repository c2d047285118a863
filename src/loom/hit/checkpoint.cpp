#include "loom/hit/checkpoint.hpp"

#include <fmt/format.h>

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

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  Checkpoint c;
  io::read_checkpoint_file(path, key, checkpoint_format, "loom hit", [&](const io::Hdf5Reader& h5) {
    c.n = h5.attribute_int64("/", "n");
    c.nu = h5.attribute_double("/", "nu");
    c.time = h5.attribute_double("/", "time");
    c.step = h5.attribute_int64("/", "step");
    c.input = h5.attribute_string("/", "input");
    const std::vector<double> values = h5.read_double("modes");
    const SpectralGrid g{c.n};
    if (values.size() != 6 * std::size_t(g.modes()))
      throw UsageError(fmt::format("{} = \"{}\": modes of the wrong size", key, path.string()));
    c.modes = core::Array<Complex>(3 * std::size_t(g.modes()));
    Complex* out = c.modes.write(core::Where::host);
    for (std::size_t i = 0; i < values.size() / 2; ++i) out[i] = {values[2 * i], values[2 * i + 1]};
  });
  return c;
}

}  // namespace loom::hit
