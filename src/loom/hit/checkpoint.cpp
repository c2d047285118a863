#include "loom/hit/checkpoint.hpp"

#include <fmt/format.h>

#include <span>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::hit {

void write_checkpoint(const std::filesystem::path& path, const Solver& solver, const std::string& input) {
  const SpectralGrid g = solver.grid();
  const std::vector<Complex> whole = gather_modes(solver);
  if (solver.distributed() && !solver.communicator()->is_root()) return;
  const std::span<const double> values(reinterpret_cast<const double*>(whole.data()), 6 * std::size_t(g.modes()));
  io::Hdf5Writer h5(path);
  h5.write("modes", values, {3, std::size_t(g.n), std::size_t(g.n), std::size_t(g.half()), 2});
  h5.attribute("/", "format", std::string("loom hit checkpoint 1"));
  h5.attribute("/", "n", std::int64_t(g.n));
  h5.attribute("/", "nu", solver.options().nu);
  h5.attribute("/", "time", solver.time());
  h5.attribute("/", "step", std::int64_t(solver.steps()));
  h5.attribute("/", "input", input);
  h5.commit();
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  if (!std::filesystem::exists(path)) throw UsageError(fmt::format("{} = \"{}\": no such file", key, path.string()));
  auto refuse = [&](const std::string& why) {
    return UsageError(fmt::format("{} = \"{}\": {}", key, path.string(), why));
  };
  try {
    const io::Hdf5Reader h5(path);
    if (!h5.has("modes") || h5.attribute_string("/", "format") != "loom hit checkpoint 1")
      throw refuse("not a checkpoint of loom hit");
    Checkpoint c;
    c.n = h5.attribute_int64("/", "n");
    c.nu = h5.attribute_double("/", "nu");
    c.time = h5.attribute_double("/", "time");
    c.step = h5.attribute_int64("/", "step");
    c.input = h5.attribute_string("/", "input");
    const std::vector<double> values = h5.read_double("modes");
    const SpectralGrid g{c.n};
    if (values.size() != 6 * std::size_t(g.modes())) throw refuse("modes of the wrong size");
    c.modes = core::Array<Complex>(3 * std::size_t(g.modes()));
    Complex* out = c.modes.write(core::Where::host);
    for (std::size_t i = 0; i < values.size() / 2; ++i) out[i] = {values[2 * i], values[2 * i + 1]};
    return c;
  } catch (const std::exception& e) {
    if (std::string(e.what()).rfind(key + " = ", 0) == 0) throw;
    throw refuse(std::string("not a checkpoint of loom hit (") + e.what() + ")");
  }
}

}  // namespace loom::hit
