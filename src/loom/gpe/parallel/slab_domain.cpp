#include "loom/gpe/parallel/slab_domain.hpp"

#include <algorithm>

#include "loom/core/error.hpp"

namespace loom::gpe {

SlabDomain::SlabDomain(const LatticeDomain& global, comm::Communicator comm)
    : comm_(std::move(comm)),
      slab_(comm::slab_of(global.lattice.nz, comm_.size(), comm_.rank(), false)),
      global_(&global) {
  if (!distributed()) return;
  const dec::StructureLattice& g = global.lattice;
  const int layers = static_cast<int>(slab_.layers()) + halo_below() + halo_above();
  local_ = std::make_unique<LatticeDomain>(make_lattice_domain(global.grid, global.scale, g.nx, g.ny, layers));
  local_->origin = global.origin;  // positions stay global: z_offset shifts the layer index, not the origin
  local_->z_offset = static_cast<int>(slab_.begin) - halo_below();
}

Index SlabDomain::layer_size() const {
  const dec::StructureLattice& g = global_->lattice;
  return Index(g.cells) * g.nx * g.ny;
}

core::Array<Complex> SlabDomain::restrict_to_slab(core::Array<Complex> global) const {
  if (!distributed()) return global;
  LOOM_REQUIRE(global.size() == std::size_t(global_->dof()), "restrict_to_slab: not a field of the global lattice");
  const auto first = static_cast<std::size_t>(layer_size() * (slab_.begin - halo_below()));
  const std::size_t n = static_cast<std::size_t>(local().dof());
  const auto h = global.host();
  core::Array<Complex> out(n);
  std::copy_n(h.begin() + static_cast<std::ptrdiff_t>(first), n, out.write(core::Where::host));
  return out;
}

namespace {
std::span<const double> as_doubles(const Complex* p, Index n) {
  return {reinterpret_cast<const double*>(p), 2 * static_cast<std::size_t>(n)};
}
}  // namespace

void SlabDomain::gather(const core::Array<Complex>& local, std::span<Complex> out) const {
  gather_layers(local, 0, global_->lattice.nz, out);
}

void SlabDomain::gather_layers(const core::Array<Complex>& local, int first, int last, std::span<Complex> out) const {
  LOOM_REQUIRE(local.size() == std::size_t(this->local().dof()), "SlabDomain::gather: not a field of this slab");
  LOOM_REQUIRE(!comm_.is_root() || out.size() == std::size_t(global_->dof()),
               "SlabDomain::gather: the output is not the size of the global lattice");
  const Index per_layer = layer_size();
  first = std::max(first, 0);
  last = std::min(last, global_->lattice.nz);
  if (last <= first) return;
  // My owned layers inside [first, last); ranks own consecutive layers in rank order, so the concatenation in
  // rank order is the global layout of [first, last).
  const auto mine_first = std::max<std::int64_t>(first, slab_.begin),
             mine_last = std::min<std::int64_t>(last, slab_.end);
  const Complex* p = local.read(core::Where::host);
  const Index from = per_layer * (mine_first - slab_.begin + halo_below());
  const Index count = mine_last > mine_first ? per_layer * (mine_last - mine_first) : 0;
  std::span<double> destination;
  if (comm_.is_root())
    destination = {reinterpret_cast<double*>(out.data() + per_layer * first),
                   2 * std::size_t(per_layer * (last - first))};
  comm_.gather_into(as_doubles(p + from, count), destination, 0);
}

}  // namespace loom::gpe
