#include "loom/vortex/checkpoint.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::vortex {
namespace {

const std::string checkpoint_format = "loom vortex checkpoint 1";

std::span<const double> flat(const std::vector<Vec3d>& v) { return {v.empty() ? nullptr : &v[0].x, 3 * v.size()}; }

std::vector<Vec3d> vectors(const std::vector<double>& flat) {
  std::vector<Vec3d> v(flat.size() / 3);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
  return v;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  const std::size_t n = c.particles.x.size();
  io::CheckpointWriter h5(path, checkpoint_format);
  h5.write("x", flat(c.particles.x), {n, 3});
  h5.write("alpha", flat(c.particles.alpha), {n, 3});
  h5.write("sigma", std::span<const double>(c.particles.sigma), {n});
  if (c.previous.velocity.size() == n && n > 0) {
    h5.write("previous/velocity", flat(c.previous.velocity), {n, 3});
    h5.write("previous/stretching", flat(c.previous.stretching), {n, 3});
  }
  h5.attribute("time", c.time);
  h5.attribute("dt", c.dt);
  h5.attribute("step", std::int64_t(c.step));
  h5.attribute("periodic", std::int64_t(c.periodic ? 1 : 0));
  h5.attribute("lattice_n", std::int64_t(c.lattice_n));
  h5.attribute("grid_n", std::int64_t(c.grid_n));
  h5.attribute("interval_open", std::int64_t(c.interval.open ? 1 : 0));
  h5.attribute("interval_start_time", c.interval.start_time);
  h5.attribute("interval_spread", c.interval.spread);
  h5.attribute("input", c.input);
  h5.commit();
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  Checkpoint c;
  io::read_checkpoint_file(path, key, checkpoint_format, "loom vortex", [&](const io::Hdf5Reader& h5) {
    c.particles.x = vectors(h5.read_double("x"));
    c.particles.alpha = vectors(h5.read_double("alpha"));
    c.particles.sigma = h5.read_double("sigma");
    if (h5.has("previous/velocity")) {
      c.previous.velocity = vectors(h5.read_double("previous/velocity"));
      c.previous.stretching = vectors(h5.read_double("previous/stretching"));
    }
    c.time = h5.attribute_double("/", "time");
    c.dt = h5.has_attribute("/", "dt") ? h5.attribute_double("/", "dt") : 0.0;
    c.step = h5.attribute_int64("/", "step");
    c.periodic = h5.attribute_int64("/", "periodic") != 0;
    c.lattice_n = h5.attribute_int64("/", "lattice_n");
    c.grid_n = h5.has_attribute("/", "grid_n") ? h5.attribute_int64("/", "grid_n") : c.lattice_n;
    c.input = h5.attribute_string("/", "input");
    if (h5.has_attribute("/", "interval_open")) {
      c.interval.open = h5.attribute_int64("/", "interval_open") != 0;
      c.interval.start_time = h5.attribute_double("/", "interval_start_time");
      c.interval.spread = h5.attribute_double("/", "interval_spread");
    }
    if (c.particles.alpha.size() != c.particles.x.size() || c.particles.sigma.size() != c.particles.x.size())
      throw UsageError(fmt::format("{} = \"{}\": particle arrays of different lengths", key, path.string()));
  });
  return c;
}

}  // namespace loom::vortex
