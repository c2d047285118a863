#include "loom/gr/checkpoint.hpp"

#include <fmt/format.h>

#include <span>

#include "loom/core/error.hpp"
#include "loom/gr/indices.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::gr {

namespace {

const std::string format_name = "loom bh checkpoint 1";

// What must agree between a checkpoint and the run that reads it.
std::string identity(const BhConfig& c) {
  std::string radii;
  for (double r : c.geometry.radii) radii += fmt::format("{}{:.17g}", radii.empty() ? "" : ",", r);
  // The maps only when one is not linear: checkpoints written before grid.map existed stay readable.
  std::string maps;
  for (auto m : c.geometry.maps)
    if (m != spectral::RadialMap::linear) maps = ", maps " + map_names(c.geometry);
  return fmt::format("mass {:.17g}, spin {:.17g},{:.17g},{:.17g}, extents {},{},{}, radii {}{}", c.hole.mass,
                     c.hole.spin[0], c.hole.spin[1], c.hole.spin[2], c.geometry.extents[0], c.geometry.extents[1],
                     c.geometry.extents[2], radii, maps);
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const BhConfig& config, const State& state, double time,
                      double dt, Index step, const std::string& input) {
  io::CheckpointWriter h5(path, format_name);
  for (std::size_t s = 0; s < state.size(); ++s) {
    const double* u = state[s].read(core::Where::host);
    h5.write(fmt::format("shell_{}", s), std::span<const double>(u, state[s].size()),
             {std::size_t(state_size), state[s].size() / state_size});
  }
  h5.attribute("identity", identity(config));
  h5.attribute("time", time);
  h5.attribute("dt", dt);
  h5.attribute("step", std::int64_t(step));
  h5.attribute("input", input);
  h5.commit();
}

BhCheckpoint read_checkpoint(const std::filesystem::path& path, const BhConfig& config, const GhSystem& system) {
  const std::string key = "initial.file";
  auto refuse = [&](const std::string& why) {
    return UsageError(fmt::format("{} = \"{}\": {}", key, path.string(), why));
  };
  BhCheckpoint c;
  io::read_checkpoint_file(path, key, format_name, "loom bh", [&](const io::Hdf5Reader& h5) {
    const std::string id = h5.attribute_string("/", "identity");
    if (id != identity(config))
      throw refuse(fmt::format("expected a checkpoint of {} (the run's keys), found {}", identity(config), id));
    c.time = h5.attribute_double("/", "time");
    c.dt = h5.attribute_double("/", "dt");
    c.step = h5.attribute_int64("/", "step");
    for (int s = 0; s < system.shells(); ++s) {
      const std::vector<double> v = h5.read_double(fmt::format("shell_{}", s));
      if (v.size() != std::size_t(state_size * system.points(s))) throw refuse("a shell of the wrong size");
      c.state.push_back(core::Array<double>::from(v));
    }
  });
  return c;
}

}  // namespace loom::gr
