#include "loom/vortex/snapshot.hpp"

#include <cmath>

#include "loom/io/fields.hpp"

namespace loom::vortex {

std::string write_particle_snapshot(const std::filesystem::path& h5_path, const Particles& p, double t) {
  const std::size_t n = p.x.size();
  std::vector<double> magnitude(n);
  for (std::size_t i = 0; i < n; ++i) magnitude[i] = std::sqrt(fmm::norm2(p.alpha[i]));
  auto flat = [](const std::vector<Vec3d>& v) { return std::span<const double>(v.empty() ? nullptr : &v[0].x, 3 * v.size()); };
  return io::write_point_fields(h5_path, flat(p.x),
                                {{"alpha", flat(p.alpha), 3},
                                 {"alpha_magnitude", std::span<const double>(magnitude), 1},
                                 {"sigma", std::span<const double>(p.sigma), 1}},
                                t);
}

}  // namespace loom::vortex
