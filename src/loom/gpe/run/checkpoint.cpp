#include "loom/gpe/run/checkpoint.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::gpe {
namespace {

const std::string checkpoint_format = "loom-gpe-checkpoint-1";

std::span<const double> as_doubles(const std::vector<core::Complex>& v) {
  return {reinterpret_cast<const double*>(v.data()), 2 * v.size()};
}

std::vector<core::Complex> as_complex(const std::vector<double>& d) {
  std::vector<core::Complex> v(d.size() / 2);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {d[2 * i], d[2 * i + 1]};
  return v;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  io::CheckpointWriter h5(path, checkpoint_format);
  h5.write("psi/previous", as_doubles(c.previous), {c.previous.size(), 2});
  h5.write("psi/current", as_doubles(c.current), {c.current.size(), 2});
  h5.write("psi/reference", as_doubles(c.reference), {c.reference.size(), 2});
  h5.attribute("grid", c.grid);
  h5.attribute("scale", c.scale);
  h5.attribute("nx", std::int64_t{c.nx});
  h5.attribute("ny", std::int64_t{c.ny});
  h5.attribute("nz", std::int64_t{c.nz});
  h5.attribute("lambda", c.lambda);
  h5.attribute("g", c.g);
  h5.attribute("kappa", c.kappa);
  h5.attribute("time", c.time);
  h5.attribute("dt", c.dt);
  h5.attribute("step", c.step);
  h5.attribute("mu_reference", c.mu_reference);
  h5.attribute("input", c.input);
  h5.commit();
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key) {
  Checkpoint c;
  io::read_checkpoint_file(path, key, checkpoint_format, "loom gpe", [&](const io::Hdf5Reader& h5) {
    c.grid = h5.attribute_string("/", "grid");
    c.scale = h5.attribute_double("/", "scale");
    c.nx = static_cast<int>(h5.attribute_int64("/", "nx"));
    c.ny = static_cast<int>(h5.attribute_int64("/", "ny"));
    c.nz = static_cast<int>(h5.attribute_int64("/", "nz"));
    c.lambda = h5.attribute_double("/", "lambda");
    c.g = h5.attribute_double("/", "g");
    c.kappa = h5.attribute_int64("/", "kappa");
    c.time = h5.attribute_double("/", "time");
    c.dt = h5.attribute_double("/", "dt");
    c.step = h5.attribute_int64("/", "step");
    c.mu_reference = h5.attribute_double("/", "mu_reference");
    c.input = h5.attribute_string("/", "input");
    c.previous = as_complex(h5.read_double("psi/previous"));
    c.current = as_complex(h5.read_double("psi/current"));
    c.reference = as_complex(h5.read_double("psi/reference"));
  });
  return c;
}

}  // namespace loom::gpe
