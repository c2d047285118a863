#include "loom/fmm/parallel/local_tree.hpp"

#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/list_cache.hpp"
#include "loom/fmm/tree/reorder.hpp"

namespace loom::fmm::parallel {

LetSource LocalTree::source() const {
  LetSource s;
  s.tree = &t.tree;
  s.order = order;
  s.ncomp = ncomp;
  s.strength = strength.read(core::Where::host);
  s.multipoles = multipoles.read(core::Where::host);
  s.cell_sigma = cell_sigma;
  s.sigma = sigma;
  return s;
}

LocalTree local_tree(const Tree& tree, int order, int ncomp, std::span<const double> strength,
                     std::span<const double> sigma, core::Backend backend) {
  constexpr core::Backend cpu = core::Backend::cpu;
  LocalTree l;
  l.order = order;
  l.ncomp = ncomp;
  l.t.tree = tree;
  l.t.cells = core::Array<Cell>::from(std::span<const Cell>(tree.cells()));
  l.t.leaves = core::Array<int>::from(std::span<const int>(tree.leaves()));
  l.t.leaf_of_body = core::Array<int>::from(std::span<const int>(tree.leaf_of_body()));
  l.t.order = core::Array<Index>::from(std::span<const Index>(tree.order()));
  l.t.pos = core::Array<Vec3d>::from(std::span<const Vec3d>(tree.positions()));
  const Index n = tree.size();
  const Index* to_user = l.t.order.read(core::Where::host);
  l.strength = core::Array<double>(static_cast<std::size_t>(ncomp * n));
  double* tree_strength = l.strength.write(core::Where::host);  // written even when empty: a rank may hold none
  if (n > 0) gather_to_tree_order(cpu, n, to_user, strength.data(), ncomp, ncomp, tree_strength);
  if (!sigma.empty()) {
    l.sigma.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) l.sigma[static_cast<std::size_t>(i)] = sigma[static_cast<std::size_t>(to_user[i])];
    l.cell_sigma = detail::cell_max_sigma(tree, sigma);
  }
  l.multipoles = core::Array<detail::C>(tree.cells().size() * static_cast<std::size_t>(ncomp * term_count(order)));
  if (n > 0 && backend == core::Backend::cuda) {
    detail::device_upward(order, ncomp, l.t, l.strength, l.multipoles);
  } else if (n > 0) {
    detail::upward(cpu, order, ncomp, l.t, l.strength, l.multipoles);
  } else {
    detail::fill_zero(cpu, l.multipoles);
  }
  return l;
}

}  // namespace loom::fmm::parallel
