// The CPU engine (pass_engine.hpp): the passes of passes.hpp on Backend::cpu, and M2L and P2P as OpenMP loops
// over target cells, M2L eight sources at a time in the SIMD lanes of M2lBatch (m2l_batch.hpp), P2P through
// each kernel's vector loop K::p2p_cpu over the split coordinates.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "loom/fmm/engine/pass_engine.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/expansions/m2l_batch.hpp"
#include "loom/fmm/tree/reorder.hpp"

namespace loom::fmm::detail {
namespace {

constexpr core::Backend cpu = core::Backend::cpu;

class CpuEngine final : public PassEngine {
 public:
  CpuEngine(const Options& o, TreeData& t) : o_(o), t_(t) {}

  bool wants_split_coordinates() const override { return true; }
  void tree_changed() override {}

  core::Array<double> to_tree_order(std::span<const double> values, int stride, int ncomp) override {
    const Index n = t_.n();
    core::Array<double> a(static_cast<std::size_t>(ncomp * n));
    if (n == 0) return a;
    gather_to_tree_order(cpu, n, t_.order.read(core::Where::host), values.data(), stride, ncomp,
                         a.write(core::Where::host));
    return a;
  }
  void to_user_order(const core::Array<double>& out, std::span<const ResultPart> parts, double scale) override {
    const Index n = t_.n();
    if (n == 0) return;
    for (const auto& part : parts)
      scatter_to_user_order(cpu, n, t_.order.read(core::Where::host), out.read(core::Where::host), part.first,
                            part.ncomp, scale, part.host);
  }

  void stage(const InteractionLists&, std::unique_ptr<StagedLists>&, const core::Array<double>&,
             const core::Array<double>&, Timings&) override {}
  void upward(int ncomp, const core::Array<double>& strength, core::Array<C>& multipoles) override {
    detail::upward(cpu, o_.order, ncomp, t_, strength, multipoles);
  }
  void m2l(int ncomp, const InteractionLists& lists, const core::Array<C>& multipoles,
           core::Array<C>& locals) override {
    m2l_cells(ncomp, lists, multipoles.read(core::Where::host), locals.read_write(core::Where::host));
  }
  void local_to_local(int ncomp, core::Array<C>& locals) override {
    detail::local_to_local(cpu, o_.order, ncomp, t_, locals);
  }
  void local_to_bodies(LaplaceKernel k, const core::Array<double>& strength, const core::Array<C>& locals,
                       core::Array<double>& out) override {
    detail::local_to_bodies(k, cpu, o_.order, t_, strength, locals, out);
  }
  void local_to_bodies(BiotSavartKernel k, const core::Array<double>& strength, const core::Array<C>& locals,
                       core::Array<double>& out) override {
    detail::local_to_bodies(k, cpu, o_.order, t_, strength, locals, out);
  }
  void p2p(LaplaceKernel, const InteractionLists& lists, const core::Array<double>& strength,
           const core::Array<double>&, core::Array<double>& out) override {
    p2p_cells<LaplaceKernel>(lists, strength, nullptr, out);
  }
  void p2p(BiotSavartKernel, const InteractionLists& lists, const core::Array<double>& strength,
           const core::Array<double>& sigma, core::Array<double>& out) override {
    p2p_cells<BiotSavartKernel>(lists, strength, &sigma, out);
  }
  void p2p(GaussianKernel, const InteractionLists& lists, const core::Array<double>& strength,
           const core::Array<double>& sigma, core::Array<double>& out) override {
    p2p_cells<GaussianKernel>(lists, strength, &sigma, out);
  }

 private:
  void m2l_cells(int ncomp, const InteractionLists& lists, const C* M, C* L) const;
  template <class K>
  void p2p_cells(const InteractionLists& lists, const core::Array<double>& strength, const core::Array<double>* sigma,
                 core::Array<double>& out) const;

  const Options& o_;
  TreeData& t_;
};

// Per target cell, its sources eight at a time in the SIMD lanes of M2lBatch.
void CpuEngine::m2l_cells(int ncomp, const InteractionLists& lists, const C* M, C* L) const {
  const int p = o_.order, nt = term_count(p);
  const auto& cs = t_.tree.cells();
  const int ncells = static_cast<int>(cs.size());
#pragma omp parallel
  {
    M2lBatch<8> batch(p);
    constexpr int lanes = decltype(batch)::lanes;
#pragma omp for schedule(dynamic, 4)
    for (int c = 0; c < ncells; ++c) {
      const Cell& a = cs[static_cast<std::size_t>(c)];
      const Index first = lists.m2l_offset[static_cast<std::size_t>(c)];
      const Index last = lists.m2l_offset[static_cast<std::size_t>(c) + 1];
      for (Index k0 = first; k0 < last; k0 += lanes) {
        const int count = static_cast<int>(std::min<Index>(lanes, last - k0));
        Vec3d D[lanes];
        for (int s = 0; s < count; ++s) {
          const auto k = static_cast<std::size_t>(k0 + s);
          Vec3d center = cs[static_cast<std::size_t>(lists.m2l_source[k])].center;
          if (o_.periodic) center += shift_vector(lists.m2l_shift[k], o_.period);
          D[s] = a.center - center;
        }
        for (int comp = 0; comp < ncomp; ++comp) {
          const C* sources[lanes];
          for (int s = 0; s < count; ++s)
            sources[s] =
                M + (static_cast<Index>(lists.m2l_source[static_cast<std::size_t>(k0 + s)]) * ncomp + comp) * nt;
          batch.apply(count, D, sources, L + (static_cast<Index>(c) * ncomp + comp) * nt);
        }
      }
    }
  }
}

template <class K>
void CpuEngine::p2p_cells(const InteractionLists& lists, const core::Array<double>& strength,
                          const core::Array<double>* sigma, core::Array<double>& out) const {
  const auto& cs = t_.tree.cells();
  const Index n = t_.n();
  const int ncells = static_cast<int>(cs.size());
  P2pRows rows;
  rows.n = n;
  rows.x = t_.px.data();
  rows.y = t_.py.data();
  rows.z = t_.pz.data();
  rows.strength = strength.read(core::Where::host);
  rows.sigma = sigma ? sigma->read(core::Where::host) : nullptr;
  rows.out = out.read_write(core::Where::host);
  std::vector<double> inv_sigma;
  if constexpr (std::is_same_v<K, BiotSavartKernel>) {
    inv_sigma.resize(static_cast<std::size_t>(n));
#pragma omp parallel for
    for (Index j = 0; j < n; ++j) inv_sigma[static_cast<std::size_t>(j)] = 1 / rows.sigma[j];
    rows.inv_sigma = inv_sigma.data();
  }
#pragma omp parallel for schedule(dynamic, 2)
  for (int c = 0; c < ncells; ++c) {
    const Cell& a = cs[static_cast<std::size_t>(c)];
    for (Index k = lists.p2p_offset[static_cast<std::size_t>(c)]; k < lists.p2p_offset[static_cast<std::size_t>(c) + 1];
         ++k) {
      const Cell& b = cs[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])];
      const Vec3d shift = o_.periodic ? shift_vector(lists.p2p_shift[static_cast<std::size_t>(k)], o_.period) : Vec3d{};
      for (Index i = a.begin; i < a.begin + a.count; ++i)  // x_i - (x_j + shift)
        K::p2p_cpu(rows, i, rows.x[i] - shift.x, rows.y[i] - shift.y, rows.z[i] - shift.z, b.begin, b.begin + b.count);
    }
  }
}

}  // namespace

std::unique_ptr<PassEngine> make_cpu_engine(const Options& options, TreeData& tree) {
  return std::make_unique<CpuEngine>(options, tree);
}

}  // namespace loom::fmm::detail
