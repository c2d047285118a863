#include "loom/vortex/checkpoint.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::vortex {
namespace {

constexpr const char* format_name = "loom vortex checkpoint 1";

std::span<const double> flat(const std::vector<Vec3d>& v) { return {v.empty() ? nullptr : &v[0].x, 3 * v.size()}; }

std::vector<Vec3d> vectors(const std::vector<double>& flat) {
  std::vector<Vec3d> v(flat.size() / 3);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
  return v;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  const std::size_t n = c.particles.x.size();
  io::Hdf5Writer h5(path);
  h5.write("x", flat(c.particles.x), {n, 3});
  h5.write("alpha", flat(c.particles.alpha), {n, 3});
  h5.write("sigma", std::span<const double>(c.particles.sigma), {n});
  if (c.previous.velocity.size() == n && n > 0) {
    h5.write("previous/velocity", flat(c.previous.velocity), {n, 3});
    h5.write("previous/stretching", flat(c.previous.stretching), {n, 3});
  }
  h5.attribute("/", "format", std::string(format_name));
  h5.attribute("/", "time", c.time);
  h5.attribute("/", "step", std::int64_t(c.step));
  h5.attribute("/", "periodic", std::int64_t(c.periodic ? 1 : 0));
  h5.attribute("/", "lattice_n", std::int64_t(c.lattice_n));
  h5.attribute("/", "input", c.input);
  h5.commit();
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  if (!std::filesystem::exists(path)) throw UsageError(fmt::format("{} = \"{}\": no such file", key, path.string()));
  auto refuse = [&](const std::string& why) { return UsageError(fmt::format("{} = \"{}\": {}", key, path.string(), why)); };
  try {
    const io::Hdf5Reader h5(path);
    if (!h5.has("x") || h5.attribute_string("/", "format") != format_name) throw refuse("not a checkpoint of loom vortex");
    Checkpoint c;
    c.particles.x = vectors(h5.read_double("x"));
    c.particles.alpha = vectors(h5.read_double("alpha"));
    c.particles.sigma = h5.read_double("sigma");
    if (h5.has("previous/velocity")) {
      c.previous.velocity = vectors(h5.read_double("previous/velocity"));
      c.previous.stretching = vectors(h5.read_double("previous/stretching"));
    }
    c.time = h5.attribute_double("/", "time");
    c.step = h5.attribute_int64("/", "step");
    c.periodic = h5.attribute_int64("/", "periodic") != 0;
    c.lattice_n = h5.attribute_int64("/", "lattice_n");
    c.input = h5.attribute_string("/", "input");
    if (c.particles.alpha.size() != c.particles.x.size() || c.particles.sigma.size() != c.particles.x.size())
      throw refuse("particle arrays of different lengths");
    return c;
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    throw refuse(std::string("not a checkpoint of loom vortex (") + e.what() + ")");
  }
}

}  // namespace loom::vortex
