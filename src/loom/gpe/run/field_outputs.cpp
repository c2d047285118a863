#include "loom/gpe/run/field_outputs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "loom/gpe/splitting.hpp"
#include "loom/io/fields.hpp"

namespace loom::gpe {

std::string z0_slice_csv(const Hamiltonian& host_h, const Complex* psi, double half_height) {
  std::string out = "x,y,z,density\n";
  const auto [z_first, z_last] = layers_within(host_h, half_height);
  const Index per_layer = Index(host_h.lattice.cells) * host_h.lattice.nx * host_h.lattice.ny;
  for (Index i = Index(z_first) * per_layer; i < Index(z_last + 1) * per_layer; ++i) {
    const dec::Vec3 r = host_h.position(i);
    if (std::abs(r.z) <= half_height) out += fmt::format("{},{},{},{}\n", r.x, r.y, r.z, core::norm2(psi[i]));
  }
  return out;
}

std::string field_snapshot(const io::RunDirectory& run, const Hamiltonian& host_h, const Complex* psi, double t,
                           int index) {
  const Index n = host_h.lattice.size();
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> xyz(3 * size), density(size), phase(size), re(size), im(size);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const dec::Vec3 r = host_h.position(i);
    xyz[3 * std::size_t(i)] = r.x;
    xyz[3 * std::size_t(i) + 1] = r.y;
    xyz[3 * std::size_t(i) + 2] = r.z;
    density[std::size_t(i)] = core::norm2(psi[i]);
    phase[std::size_t(i)] = std::atan2(psi[i].im, psi[i].re);
    re[std::size_t(i)] = psi[i].re;
    im[std::size_t(i)] = psi[i].im;
  }
  return io::write_point_fields(run.file(fmt::format("psi_{:04d}.h5", index)), xyz,
                                {{"density", density, 1}, {"phase", phase, 1}, {"re", re, 1}, {"im", im, 1}}, t);
}

}  // namespace loom::gpe
