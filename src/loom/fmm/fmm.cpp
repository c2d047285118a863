// The FMM evaluator: one pipeline for both backends. P2M, M2M, L2L and L2P are core::parallel_for loops over
// cells or bodies (an OpenMP loop on the CPU, a CUDA kernel on the GPU: this file is a loom_backend_sources
// file); M2L and P2P are OpenMP loops over target cells on the CPU and the tuned kernels of gpu_kernels.cu on
// the GPU. The tree and the traversal run on the host.
#include "loom/fmm/fmm.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <type_traits>

#include "loom/core/array.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/gpu_kernels.hpp"
#include "loom/fmm/m2l_batch.hpp"
#include "loom/fmm/operators.hpp"
#include "loom/fmm/pair_kernels.hpp"
#include "loom/fmm/pinned_staging.hpp"
#include "loom/fmm/reorder.hpp"
#include "loom/fmm/rsqrt_cpu.hpp"

namespace loom::fmm {

std::string_view to_string(Kernel k) { return k == Kernel::laplace ? "laplace" : "biot-savart"; }

Precision parse_precision(std::string_view text) {
  if (text == "single") return Precision::single;
  if (text == "single-fast") return Precision::single_fast;
  if (text == "double") return Precision::double_;
  throw UsageError("precision = \"" + std::string(text) + "\": expected one of single, single-fast, double");
}

std::string_view to_string(Precision p) {
  return p == Precision::single ? "single" : (p == Precision::single_fast ? "single-fast" : "double");
}

int default_m2l_block(int order, int ncomp) {
  // H200, 2026-12-01 (docs/performance.md): Laplace at 1e6 fastest with runs of 4 at p 8 and 12; Biot-Savart at
  // 1.68e7 with 2 at p 8 (0.217 s against 0.258 with 4) and 4 at p 10 (0.438 against 0.471 with 2).
  return ncomp == 1 || order >= 10 ? 4 : 2;
}

void validate(const Options& o) {
  auto fail = [](const std::string& key, const std::string& value, const std::string& expected) {
    throw UsageError(key + " = " + value + ": expected " + expected);
  };
  if (o.order < 1 || o.order > max_order)
    fail("p", std::to_string(o.order), "an integer in [1, " + std::to_string(max_order) + "]");
  if (!(o.theta > 0 && o.theta < 1)) fail("theta", std::to_string(o.theta), "a number in (0, 1)");
  if (o.ncrit < 1) fail("ncrit", std::to_string(o.ncrit), "an integer >= 1");
  if (!(o.guard >= 0)) fail("guard", std::to_string(o.guard), "a number >= 0");
  if (o.periodic && !(o.period > 0)) fail("period", std::to_string(o.period), "a number > 0 when periodic");
  if (o.image_levels < 0) fail("image_levels", std::to_string(o.image_levels), "an integer >= 0");
  if (o.m2l_block != 0 && o.m2l_block != 1 && o.m2l_block != 2 && o.m2l_block != 4)
    fail("m2l_block", std::to_string(o.m2l_block), "1, 2 or 4 (0: the default)");
  if (o.backend == core::Backend::cuda && !core::backend_available(core::Backend::cuda))
    throw UsageError("backend = \"cuda\": no CUDA device is available");
}

namespace detail {

using C = Complex<double>;

// The problem an evaluation solves: which kernel, how many expansions and outputs per body, the strengths.
struct Problem {
  Kernel kernel = Kernel::laplace;
  bool gaussian = false;  // the RBF sum (P2P only)
  int ncomp = 1;          // strength components = expansions per cell
  int nout = 4;           // outputs per body
};

template <class T>
void fill_zero(core::Backend backend, core::Array<T>& a) {
  T* p = a.write(core::where(backend));
  core::parallel_for(backend, static_cast<Index>(a.size()), [=] LOOM_HOST_DEVICE(Index i) { p[i] = T{}; });
}

// P2M for every leaf, then M2M level by level from the leaves up (the GPU's tuned kernels on cuda).
void upward(core::Backend backend, int p, int ncomp, const Tree& tree, const core::Array<Cell>& cells_a,
            const core::Array<int>& leaves_a, const core::Array<Vec3d>& pos_a, const core::Array<double>& strength_a,
            core::Array<C>& multipoles, [[maybe_unused]] const gpu::TreeView& view) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
  const Index n = tree.size();
#if defined(LOOM_HAVE_CUDA)
  if (backend == core::Backend::cuda) {
    gpu::p2m(view, p, ncomp, leaves_a.read(where), static_cast<int>(tree.leaves().size()), n, pos_a.read(where),
             strength_a.read(where), multipoles.write(where));
    for (int level = tree.levels() - 2; level >= 0; --level)
      gpu::m2m_level(view, p, ncomp, tree.level_begin(level), tree.level_begin(level + 1) - tree.level_begin(level),
                     multipoles.read_write(where));
    return;
  }
#endif
  const Cell* cells = cells_a.read(where);
  const int* leaves = leaves_a.read(where);
  const Vec3d* pos = pos_a.read(where);
  const double* strength = strength_a.read(where);
  fill_zero(backend, multipoles);
  C* M = multipoles.read_write(where);
  core::parallel_for(backend, static_cast<Index>(tree.leaves().size()), [=] LOOM_HOST_DEVICE(Index k) {
    const int c = leaves[k];
    const Cell cell = cells[c];
    C* m = M + static_cast<Index>(c) * ncomp * nt;
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i) {
      double q[3];
      for (int d = 0; d < ncomp; ++d) q[d] = strength[d * n + i];
      p2m(p, ncomp, pos[i] - cell.center, q, m, nt);
    }
  });
  for (int level = tree.levels() - 2; level >= 0; --level) {
    const int first = tree.level_begin(level);
    core::parallel_for(backend, tree.level_begin(level + 1) - first, [=] LOOM_HOST_DEVICE(Index k) {
      const int c = first + static_cast<int>(k);
      const Cell cell = cells[c];
      for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch)
        m2m(p, ncomp, cells[ch].center - cell.center, M + static_cast<Index>(ch) * ncomp * nt,
            M + static_cast<Index>(c) * ncomp * nt, nt);
    });
  }
}

// L2L level by level from the root down (the locals must already hold every M2L).
void local_to_local(core::Backend backend, int p, int ncomp, const Tree& tree, const core::Array<Cell>& cells_a,
                    core::Array<C>& locals, [[maybe_unused]] const gpu::TreeView& view) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
#if defined(LOOM_HAVE_CUDA)
  if (backend == core::Backend::cuda) {
    for (int level = 1; level < tree.levels(); ++level)
      gpu::l2l_level(view, p, ncomp, tree.level_begin(level), tree.level_begin(level + 1) - tree.level_begin(level),
                     locals.read_write(where));
    return;
  }
#endif
  const Cell* cells = cells_a.read(where);
  C* L = locals.read_write(where);
  for (int level = 1; level < tree.levels(); ++level) {
    const int first = tree.level_begin(level);
    core::parallel_for(backend, tree.level_begin(level + 1) - first, [=] LOOM_HOST_DEVICE(Index k) {
      const int c = first + static_cast<int>(k);
      const Cell cell = cells[c];
      l2l(p, ncomp, cell.center - cells[cell.parent].center, L + static_cast<Index>(cell.parent) * ncomp * nt,
          L + static_cast<Index>(c) * ncomp * nt, nt);
    });
  }
}

// L2P for every body: writes (not adds) the far field into out.
void local_to_bodies(core::Backend backend, int p, const Problem& problem, Index n, const core::Array<Cell>& cells_a,
                     const core::Array<int>& leaf_a, const core::Array<Vec3d>& pos_a,
                     const core::Array<double>& strength_a, const core::Array<C>& locals, core::Array<double>& out_a,
                     [[maybe_unused]] const core::Array<int>& leaves_a, [[maybe_unused]] const gpu::TreeView& view) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
#if defined(LOOM_HAVE_CUDA)
  if (backend == core::Backend::cuda && problem.kernel == Kernel::laplace) {
    gpu::l2p_laplace(view, p, leaves_a.read(where), static_cast<int>(leaves_a.size()), n, pos_a.read(where),
                     locals.read(where), out_a.write(where));
    return;
  }
#endif
  const Cell* cells = cells_a.read(where);
  const int* leaf = leaf_a.read(where);
  const Vec3d* pos = pos_a.read(where);
  const double* strength = strength_a.read(where);
  const C* L = locals.read(where);
  double* out = out_a.write(where);
  if (problem.kernel == Kernel::laplace) {
    core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
      const int c = leaf[i];
      LocalField<double> f;
      l2p<1>(p, 1, pos[i] - cells[c].center, L + static_cast<Index>(c) * nt, nt, &f);
      out[i] = f.value;
      out[n + i] = f.gradient.x;
      out[2 * n + i] = f.gradient.y;
      out[3 * n + i] = f.gradient.z;
    });
    return;
  }
  // Biot-Savart: 4 pi u = curl psi; 4 pi (alpha.grad)u_a = alpha_k eps_abc d_k d_b psi_c (H_c: Hessian of psi_c).
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    const int c = leaf[i];
    LocalField<double> f[3];
    l2p<2>(p, 3, pos[i] - cells[c].center, L + static_cast<Index>(c) * 3 * nt, nt, f);
    const double ax = strength[i], ay = strength[n + i], az = strength[2 * n + i];
    out[i] = f[2].gradient.y - f[1].gradient.z;
    out[n + i] = f[0].gradient.z - f[2].gradient.x;
    out[2 * n + i] = f[1].gradient.x - f[0].gradient.y;
    // Hessian entries: 0 xx, 1 xy, 2 xz, 3 yy, 4 yz, 5 zz; h(c, k, b) = d_k d_b psi_c
    auto h = [&](int comp, int k, int b) {
      const int lo = k < b ? k : b, hi = k < b ? b : k;
      const int index = lo == 0 ? hi : (lo == 1 ? 2 + hi : 5);
      return f[comp].hessian[index];
    };
    const double a[3] = {ax, ay, az};
    double s[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      s[0] += a[k] * (h(2, k, 1) - h(1, k, 2));
      s[1] += a[k] * (h(0, k, 2) - h(2, k, 0));
      s[2] += a[k] * (h(1, k, 0) - h(0, k, 1));
    }
    out[3 * n + i] = s[0];
    out[4 * n + i] = s[1];
    out[5 * n + i] = s[2];
  });
}

// Adds host terms (ncomp * nt per cell, in the order of `cells`) to those cells' expansions, on either backend.
void add_to_cell_expansions(core::Backend backend, core::Array<C>& a, const std::vector<int>& cells,
                            const std::vector<C>& terms) {
  if (cells.empty()) return;
  const Index per_cell = static_cast<Index>(terms.size() / cells.size());
  auto small = core::Array<C>::from(std::span<const C>(terms));
  auto which = core::Array<int>::from(std::span<const int>(cells));
  const C* src = small.read(core::where(backend));
  const int* cell = which.read(core::where(backend));
  C* dst = a.read_write(core::where(backend));
  core::parallel_for(backend, static_cast<Index>(terms.size()), [=] LOOM_HOST_DEVICE(Index i) {
    dst[static_cast<Index>(cell[i / per_cell]) * per_cell + i % per_cell] += src[i];
  });
}

}  // namespace detail

using detail::C;
using detail::Problem;

struct Evaluator::State {
  Options o;
  Tree tree;
  double build_seconds = 0;
  core::Array<Cell> cells;
  core::Array<int> leaves, leaf_of_body;
  core::Array<Vec3d> pos;
  core::Array<Index> order;        // tree.order(), on the backend's side: body i of the tree is order[i]
  std::vector<double> px, py, pz;  // tree order, for the CPU P2P's vector loops
  // Laplace's interaction lists depend on the tree only: kept until the positions change.
  bool laplace_lists_valid = false;
  InteractionLists laplace_lists;
  Statistics laplace_stats;
  // Biot-Savart's lists, kept with the cells' largest core radii they were built for.
  bool biot_savart_lists_valid = false;
  InteractionLists biot_savart_lists;
  Statistics biot_savart_stats;
  std::vector<double> biot_savart_cell_sigma;
  double biot_savart_traversal_seconds = 0;
  detail::PinnedStaging staging;  // the GPU path's host side of transfers
  double laplace_traversal_seconds = 0;

  Index n() const { return tree.size(); }
  // The largest sigma of each cell's bodies; sigma in the caller's order (read through tree.order()).
  std::vector<double> cell_max_sigma(std::span<const double> sigma) const;
  // ncomp of the `stride` values per body of the caller's array, in tree order, component-major, on the
  // backend's side. On the GPU the caller's array crosses PCIe as it is and the device permutes it.
  core::Array<double> to_tree_order(std::span<const double> values, int stride, int ncomp);
  // Components [first, first + ncomp) of the results (component-major, tree order), times scale, into the
  // caller's host array (ncomp per body, the caller's order); on the GPU permuted on the device, then sent.
  struct ResultPart {
    int first, ncomp;
    double* host;
  };
  void to_user_order(const core::Array<double>& out, std::initializer_list<ResultPart> parts, double scale);
  void evaluate(const Problem& problem, const core::Array<double>& strength, const core::Array<double>& sigma,
                const InteractionLists& lists, core::Array<double>& out, Timings& time);
  void m2l_cpu(int ncomp, const InteractionLists& lists, const C* M, C* L) const;
  void p2p_cpu(const Problem& problem, const InteractionLists& lists, const double* strength, const double* sigma,
               double* out) const;
  void periodic_far_field(int ncomp, const core::Array<double>& strength, core::Array<C>& locals) const;
#if defined(LOOM_HAVE_CUDA)
  // The interaction lists on the device, as the kernels see them; kept while they stay valid (Laplace's).
  struct DeviceLists {
    core::Array<Index> m2l_offset, p2p_offset;
    core::Array<int> m2l_source, p2p_source, m2l_targets, p2p_targets;
    core::Array<std::uint8_t> m2l_shift, p2p_shift;
    gpu::TreeView view;
  };
  DeviceLists device_lists(const InteractionLists& lists) const;
  std::unique_ptr<DeviceLists> laplace_device_lists, biot_savart_device_lists;
#endif
  Statistics statistics(const InteractionLists& lists) const {
    Statistics s;
    s.bodies = n();
    s.cells = static_cast<int>(tree.cells().size());
    s.leaves = static_cast<int>(tree.leaves().size());
    s.levels = tree.levels();
    s.m2l_pairs = lists.m2l_count();
    s.p2p_pairs = lists.p2p_count();
    s.p2p_interactions = p2p_interactions(tree, tree, lists);
    return s;
  }
};

Evaluator::Evaluator(Options options) : s_(std::make_unique<State>()) {
  validate(options);
  s_->o = options;
}
Evaluator::~Evaluator() = default;
Evaluator::Evaluator(Evaluator&&) noexcept = default;
Evaluator& Evaluator::operator=(Evaluator&&) noexcept = default;
void Evaluator::set_order(int order) {
  Options o = s_->o;
  o.order = order;
  validate(o);
  s_->o = o;
}
void Evaluator::set_precision(Precision precision) { s_->o.precision = precision; }
const Tree& Evaluator::tree() const { return s_->tree; }
const Options& Evaluator::options() const { return s_->o; }

void Evaluator::set_positions(std::span<const Vec3d> positions) {
  State& s = *s_;
  if (s.o.periodic) {
    for (std::size_t i = 0; i < positions.size(); ++i)
      for (int d = 0; d < 3; ++d) {
        const double u = positions[i][d] - s.o.box_lower[d];
        if (!(u >= 0 && u < s.o.period))
          throw UsageError("fmm: body " + std::to_string(i) + " lies outside the periodic box");
      }
  }
  core::WallTimer timer;
  s.tree = Tree(positions, s.o.ncrit);
  s.cells = core::Array<Cell>::from(std::span<const Cell>(s.tree.cells()));
  s.leaves = core::Array<int>::from(std::span<const int>(s.tree.leaves()));
  s.leaf_of_body = core::Array<int>::from(std::span<const int>(s.tree.leaf_of_body()));
  s.order = core::Array<Index>::from(std::span<const Index>(s.tree.order()));
  const Index n = s.n();
  s.pos = core::Array<Vec3d>(static_cast<std::size_t>(n));
  Vec3d* pos = s.pos.write(core::Where::host);
  const Vec3d* tree_pos = s.tree.positions().data();
  const bool cpu = s.o.backend == core::Backend::cpu;
  s.px.resize(cpu ? static_cast<std::size_t>(n) : 0);
  s.py.resize(s.px.size());
  s.pz.resize(s.px.size());
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    pos[i] = tree_pos[i];
    if (cpu) {
      s.px[static_cast<std::size_t>(i)] = tree_pos[i].x;
      s.py[static_cast<std::size_t>(i)] = tree_pos[i].y;
      s.pz[static_cast<std::size_t>(i)] = tree_pos[i].z;
    }
  }
  if (!cpu) {  // the tree goes to the device now, as part of the set-up
    const auto dev = core::where(s.o.backend);
    s.cells.read(dev);
    s.leaves.read(dev);
    s.leaf_of_body.read(dev);
    s.order.read(dev);
    s.pos.read(dev);
  }
  s.build_seconds = timer.seconds();
  s.laplace_lists_valid = s.biot_savart_lists_valid = false;
#if defined(LOOM_HAVE_CUDA)
  s.laplace_device_lists.reset();
  s.biot_savart_device_lists.reset();
#endif
}

std::vector<double> Evaluator::State::cell_max_sigma(std::span<const double> sigma) const {
  const auto& cs = tree.cells();
  const auto& leaf_cells = tree.leaves();
  const Index* body_of = tree.order().data();
  std::vector<double> out(cs.size(), 0.0);
  // the leaves' bodies (one pass over all of them, in parallel), then the other cells from their children
  const auto leaf_count = static_cast<Index>(leaf_cells.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (Index k = 0; k < leaf_count; ++k) {
    const auto c = static_cast<std::size_t>(leaf_cells[static_cast<std::size_t>(k)]);
    double m = 0;
    for (Index i = cs[c].begin; i < cs[c].begin + cs[c].count; ++i)
      m = std::max(m, sigma[static_cast<std::size_t>(body_of[i])]);
    out[c] = m;
  }
  for (int c = static_cast<int>(cs.size()) - 1; c >= 0; --c) {
    const Cell& cell = cs[static_cast<std::size_t>(c)];
    if (cell.leaf()) continue;
    double m = 0;
    for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch)
      m = std::max(m, out[static_cast<std::size_t>(ch)]);
    out[static_cast<std::size_t>(c)] = m;
  }
  return out;
}

core::Array<double> Evaluator::State::to_tree_order(std::span<const double> values, int stride, int ncomp) {
  const Index n = this->n();
  const auto where = core::where(o.backend);
  core::Array<double> a(static_cast<std::size_t>(ncomp * n));
  if (n == 0) return a;
  const double* src = values.data();
  core::Array<double> raw;
  if (o.backend == core::Backend::cuda) {
    raw = core::Array<double>(values.size());
    double* d = raw.write(where);
    const detail::UploadPiece piece{d, values.data(), raw.bytes()};
    staging.upload({&piece, 1});
    src = d;
  }
  gather_to_tree_order(o.backend, n, order.read(where), src, stride, ncomp, a.write(where));
  return a;  // raw goes back to the pool: later device work is queued after the gather
}

void Evaluator::State::to_user_order(const core::Array<double>& out, std::initializer_list<ResultPart> parts,
                                     double scale) {
  const Index n = this->n();
  if (n == 0) return;
  const auto where = core::where(o.backend);
  const Index* ord = order.read(where);
  const double* tree_out = out.read(where);
  if (o.backend == core::Backend::cpu) {
    for (const auto& part : parts)
      scatter_to_user_order(o.backend, n, ord, tree_out, part.first, part.ncomp, scale, part.host);
    return;
  }
  Index total = 0;
  for (const auto& part : parts) total += part.ncomp * n;
  core::Array<double> user(static_cast<std::size_t>(total));
  double* d = user.write(where);
  std::vector<detail::DownloadPiece> pieces;
  for (const auto& part : parts) {
    scatter_to_user_order(o.backend, n, ord, tree_out, part.first, part.ncomp, scale, d);
    pieces.push_back({part.host, d, static_cast<std::size_t>(part.ncomp * n) * sizeof(double)});
    d += part.ncomp * n;
  }
  staging.download(pieces);
}

// M2L on the CPU: per target cell, its sources eight at a time in the SIMD lanes of M2lBatch (m2l_batch.hpp).
void Evaluator::State::m2l_cpu(int ncomp, const InteractionLists& lists, const C* M, C* L) const {
  const int p = o.order, nt = term_count(p);
  const auto& cs = tree.cells();
  const int ncells = static_cast<int>(cs.size());
#pragma omp parallel
  {
    M2lBatch<8> batch(p);
#pragma omp for schedule(dynamic, 4)
    for (int c = 0; c < ncells; ++c) {
      const Cell& a = cs[static_cast<std::size_t>(c)];
      const Index first = lists.m2l_offset[static_cast<std::size_t>(c)];
      const Index last = lists.m2l_offset[static_cast<std::size_t>(c) + 1];
      for (Index k0 = first; k0 < last; k0 += decltype(batch)::lanes) {
        const int count = static_cast<int>(std::min<Index>(decltype(batch)::lanes, last - k0));
        Vec3d D[decltype(batch)::lanes];
        for (int s = 0; s < count; ++s) {
          const auto k = static_cast<std::size_t>(k0 + s);
          Vec3d center = cs[static_cast<std::size_t>(lists.m2l_source[k])].center;
          if (o.periodic) center += shift_vector(lists.m2l_shift[k], o.period);
          D[s] = a.center - center;
        }
        for (int comp = 0; comp < ncomp; ++comp) {
          const C* sources[decltype(batch)::lanes];
          for (int s = 0; s < count; ++s)
            sources[s] =
                M + (static_cast<Index>(lists.m2l_source[static_cast<std::size_t>(k0 + s)]) * ncomp + comp) * nt;
          batch.apply(count, D, sources, L + (static_cast<Index>(c) * ncomp + comp) * nt);
        }
      }
    }
  }
}

void Evaluator::State::p2p_cpu(const Problem& problem, const InteractionLists& lists, const double* strength,
                               const double* sigma, double* out) const {
  const auto& cs = tree.cells();
  const Index n = this->n();
  const int ncells = static_cast<int>(cs.size());
  const double* x = px.data();
  const double* y = py.data();
  const double* z = pz.data();
  // the Biot-Savart pair takes 1/sigma_j: n divisions here instead of one per pair
  std::vector<double> inv_sigma_v;
  if (problem.kernel == Kernel::biot_savart && !problem.gaussian) {
    inv_sigma_v.resize(static_cast<std::size_t>(n));
#pragma omp parallel for
    for (Index j = 0; j < n; ++j) inv_sigma_v[static_cast<std::size_t>(j)] = 1 / sigma[j];
  }
  const double* inv_sigma = inv_sigma_v.data();
#pragma omp parallel for schedule(dynamic, 2)
  for (int c = 0; c < ncells; ++c) {
    const Cell& a = cs[static_cast<std::size_t>(c)];
    for (Index k = lists.p2p_offset[static_cast<std::size_t>(c)]; k < lists.p2p_offset[static_cast<std::size_t>(c) + 1];
         ++k) {
      const Cell& b = cs[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])];
      const Vec3d shift = o.periodic ? shift_vector(lists.p2p_shift[static_cast<std::size_t>(k)], o.period) : Vec3d{};
      const Index j0 = b.begin, j1 = b.begin + b.count;
      for (Index i = a.begin; i < a.begin + a.count; ++i) {
        const double xi = x[i] - shift.x, yi = y[i] - shift.y, zi = z[i] - shift.z;  // x_i - (x_j + shift)
        if (problem.gaussian) {
          Vec3d w{};
          for (Index j = j0; j < j1; ++j)
            gaussian_pair(Vec3d{xi - x[j], yi - y[j], zi - z[j]},
                          Vec3d{strength[j], strength[n + j], strength[2 * n + j]}, sigma[j], w);
          out[i] += w.x;
          out[n + i] += w.y;
          out[2 * n + i] += w.z;
        } else if (problem.kernel == Kernel::laplace) {
          double phi = 0, gx = 0, gy = 0, gz = 0;
#pragma omp simd reduction(+ : phi, gx, gy, gz)
          for (Index j = j0; j < j1; ++j) {
            const double dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
            const double r2 = dx * dx + dy * dy + dz * dz;
            const double inv_r = r2 > 0 ? rsqrt_newton(r2) : 0.0;
            const double q_inv_r = strength[j] * inv_r;
            const double q_inv_r3 = q_inv_r * inv_r * inv_r;
            phi += q_inv_r;
            gx -= q_inv_r3 * dx;
            gy -= q_inv_r3 * dy;
            gz -= q_inv_r3 * dz;
          }
          out[i] += phi;
          out[n + i] += gx;
          out[2 * n + i] += gy;
          out[3 * n + i] += gz;
        } else {
          const Vec3d alpha_i{strength[i], strength[n + i], strength[2 * n + i]};
          BiotSavartSums<double> sums;
          for (Index j = j0; j < j1; ++j) {
            const Vec3d r{xi - x[j], yi - y[j], zi - z[j]};
            biot_savart_pair_with_inverses(r, inverse_distance(norm2(r)),
                                           Vec3d{strength[j], strength[n + j], strength[2 * n + j]}, inv_sigma[j],
                                           alpha_i, sums);
          }
          const Vec3d u = sums.velocity, st = sums.stretching(alpha_i);
          out[i] += u.x;
          out[n + i] += u.y;
          out[2 * n + i] += u.z;
          out[3 * n + i] += st.x;
          out[4 * n + i] += st.y;
          out[5 * n + i] += st.z;
        }
      }
    }
  }
}

// The image levels beyond the 3^3 near images (the paper's periodic section; exaFMM's scheme): at each level
// the current super-cell (the box, then 3^3 boxes, then 9^3, ...) is M2L'd from the 26 x 27 copies that fill
// the next larger 3^3 ring into the box centre's local expansion, then 27 copies are M2M'd into the next
// super-cell. The nearest copies are only two box widths away, so these expansions use a higher order than the
// tree (p + 4, up to max_order), with the box multipole taken straight from the bodies; the local expansion is
// cut back to p at the root. The result is the lattice sum in the order of growing cubes, which for a neutral
// box differs from Ewald's (tinfoil) sum by the surface terms (4 pi/3V) d.(x - c) - (2 pi/3V) sum_j q_j
// |x_j - c|^2 (d: the dipole about the box centre c); with `tinfoil` they are removed.
void Evaluator::State::periodic_far_field(int ncomp, const core::Array<double>& strength_a,
                                          core::Array<C>& locals) const {
  const int p = o.order, pf = std::min(max_order, p + 4), ntf = term_count(pf);
  const Vec3d box_center = o.box_lower + Vec3d{0.5 * o.period, 0.5 * o.period, 0.5 * o.period};
  const Index n = this->n();
  const Vec3d* x = pos.read(core::Where::host);
  const double* q = strength_a.read(core::Where::host);
  std::vector<C> m(static_cast<std::size_t>(ncomp * ntf)), local(m.size()), next(m.size());
  std::vector<double> second_moment(static_cast<std::size_t>(ncomp), 0.0);
  // fixed chunks summed in order: the same result for every thread count
  constexpr int chunks = 64;
  std::vector<std::vector<C>> chunk_m(chunks, std::vector<C>(m.size()));
  std::vector<std::vector<double>> chunk_2(chunks, std::vector<double>(second_moment.size(), 0.0));
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < chunks; ++k) {
    auto& mine = chunk_m[static_cast<std::size_t>(k)];
    auto& mine2 = chunk_2[static_cast<std::size_t>(k)];
    for (Index i = n * k / chunks; i < n * (k + 1) / chunks; ++i) {
      double qi[3];
      for (int c = 0; c < ncomp; ++c) {
        qi[c] = q[c * n + i];
        mine2[static_cast<std::size_t>(c)] += qi[c] * norm2(x[i] - box_center);
      }
      p2m(pf, ncomp, x[i] - box_center, qi, mine.data(), ntf);
    }
  }
  for (int k = 0; k < chunks; ++k) {
    for (std::size_t t = 0; t < m.size(); ++t) m[t] += chunk_m[static_cast<std::size_t>(k)][t];
    for (std::size_t c = 0; c < second_moment.size(); ++c) second_moment[c] += chunk_2[static_cast<std::size_t>(k)][c];
  }
  if (o.tinfoil && p >= 2) {
    const double volume = o.period * o.period * o.period;
    for (int c = 0; c < ncomp; ++c) {
      // the dipole from the expansion: M_1^0 = d_z, M_1^1 = -(d_x - i d_y)/2
      const C m10 = m[static_cast<std::size_t>(c * ntf + term(1, 0))],
              m11 = m[static_cast<std::size_t>(c * ntf + term(1, 1))];
      const Vec3d d{-2 * m11.re, 2 * m11.im, m10.re};
      const Vec3d a = (-4 * std::numbers::pi / (3 * volume)) * d;  // removes (4 pi/3V) d.(x - c)
      // a linear function a.(x - c) is the local expansion L_1^0 = a_z, L_1^1 = -(a_x + i a_y)
      local[static_cast<std::size_t>(c * ntf + term(1, 0))] += C{a.z, 0};
      local[static_cast<std::size_t>(c * ntf + term(1, 1))] += C{-a.x, -a.y};
      local[static_cast<std::size_t>(c * ntf + term(0, 0))] +=
          C{2 * std::numbers::pi / (3 * volume) * second_moment[static_cast<std::size_t>(c)], 0};
    }
  }
  double cycle = o.period;
  for (int level = 0; level < o.image_levels; ++level) {
    std::vector<std::vector<C>> ring(27, std::vector<C>(local.size()));  // one per outer image i, summed in order
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < 27; ++i) {
      if (i == no_shift) continue;
      for (int j = 0; j < 27; ++j) {
        const Vec3d offset = 3.0 * shift_vector(i, cycle) + shift_vector(j, cycle);
        m2l(pf, ncomp, Vec3d{} - offset, m.data(), ring[static_cast<std::size_t>(i)].data(), ntf);
      }
    }
    for (const auto& r : ring)
      for (std::size_t t = 0; t < local.size(); ++t) local[t] += r[t];
    std::fill(next.begin(), next.end(), C{});
    for (int j = 0; j < 27; ++j) m2m(pf, ncomp, shift_vector(j, cycle), m.data(), next.data(), ntf);
    m.swap(next);
    cycle *= 3;
  }
  // Shift the image field (order pf) to every cell two levels down, and to the leaves above them, before
  // cutting it to p: those cells are a few times smaller than the box, so p terms suffice there.
  const int nt = term_count(p);
  const int level = std::min(2, tree.levels() - 1);
  std::vector<int> targets;
  for (int c = 0; c < tree.level_begin(level + 1); ++c) {
    const Cell& cell = tree.cells()[static_cast<std::size_t>(c)];
    if (cell.level == level || cell.leaf()) targets.push_back(c);
  }
  std::vector<C> shifted(m.size()), terms(targets.size() * static_cast<std::size_t>(ncomp * nt));
  for (std::size_t k = 0; k < targets.size(); ++k) {
    std::fill(shifted.begin(), shifted.end(), C{});
    l2l(pf, ncomp, tree.cells()[static_cast<std::size_t>(targets[k])].center - box_center, local.data(), shifted.data(),
        ntf);
    for (int c = 0; c < ncomp; ++c)
      for (int t = 0; t < nt; ++t)
        terms[(k * static_cast<std::size_t>(ncomp) + static_cast<std::size_t>(c)) * static_cast<std::size_t>(nt) +
              static_cast<std::size_t>(t)] = shifted[static_cast<std::size_t>(c * ntf + t)];
  }
  detail::add_to_cell_expansions(o.backend, locals, targets, terms);
}

#if defined(LOOM_HAVE_CUDA)
Evaluator::State::DeviceLists Evaluator::State::device_lists(const InteractionLists& lists) const {
  DeviceLists d;
  const auto dev = core::Where::device;
  gpu::TreeView& v = d.view;
  v.cells = cells.read(dev);
  v.cell_count = static_cast<int>(tree.cells().size());
  std::vector<int> m2l_targets, p2p_targets;
  for (int c = 0; c < v.cell_count; ++c) {
    if (lists.m2l_offset[static_cast<std::size_t>(c) + 1] > lists.m2l_offset[static_cast<std::size_t>(c)])
      m2l_targets.push_back(c);
    if (lists.p2p_offset[static_cast<std::size_t>(c) + 1] > lists.p2p_offset[static_cast<std::size_t>(c)])
      p2p_targets.push_back(c);
  }
  // straight from the host vectors to the device (no host copy in between: the lists are large)
  auto upload = [&](auto& array, const auto& host) -> const typename std::decay_t<decltype(host)>::value_type* {
    using T = typename std::decay_t<decltype(host)>::value_type;
    array = core::Array<T>(host.size());
    if (host.empty()) return nullptr;
    T* d = array.write(dev);
    cuda::copy_host_to_device(d, host.data(), host.size() * sizeof(T));
    return d;
  };
  v.m2l_offset = upload(d.m2l_offset, lists.m2l_offset);
  v.m2l_source = upload(d.m2l_source, lists.m2l_source);
  v.m2l_shift = upload(d.m2l_shift, lists.m2l_shift);
  v.m2l_targets = upload(d.m2l_targets, m2l_targets);
  v.m2l_target_count = static_cast<int>(m2l_targets.size());
  v.p2p_offset = upload(d.p2p_offset, lists.p2p_offset);
  v.p2p_source = upload(d.p2p_source, lists.p2p_source);
  v.p2p_shift = upload(d.p2p_shift, lists.p2p_shift);
  v.p2p_targets = upload(d.p2p_targets, p2p_targets);
  v.p2p_target_count = static_cast<int>(p2p_targets.size());
  for (int c : tree.leaves())
    v.max_leaf = std::max(v.max_leaf, static_cast<int>(tree.cells()[static_cast<std::size_t>(c)].count));
  v.period = o.periodic ? o.period : 0.0;
  return d;
}
#endif

void Evaluator::State::evaluate(const Problem& problem, const core::Array<double>& strength,
                                const core::Array<double>& sigma, const InteractionLists& lists,
                                core::Array<double>& out, Timings& time) {
  const core::Backend backend = o.backend;
  const auto where = core::where(backend);
  const int p = o.order, nt = term_count(p), ncomp = problem.ncomp;
  const Index n = this->n();
  const std::size_t expansion_terms = tree.cells().size() * static_cast<std::size_t>(ncomp * nt);
  core::Stopwatch watch(backend);

  gpu::TreeView view;
#if defined(LOOM_HAVE_CUDA)
  // The kept lists (Laplace's, Biot-Savart's) keep their device copy with them; others are sent each time.
  std::unique_ptr<DeviceLists> sent;
  if (backend == core::Backend::cuda) {
    watch.start();
    const DeviceLists* on_device = nullptr;
    if (&lists == &laplace_lists || &lists == &biot_savart_lists) {
      auto& kept = &lists == &laplace_lists ? laplace_device_lists : biot_savart_device_lists;
      if (!kept) kept = std::make_unique<DeviceLists>(device_lists(lists));
      on_device = kept.get();
    } else {
      sent = std::make_unique<DeviceLists>(device_lists(lists));
      on_device = sent.get();
    }
    view = on_device->view;
    time.traversal += watch.stop();
    // the strengths go up before the kernels, so that no phase's time includes a transfer
    watch.start();
    strength.read(where);
    if (!sigma.empty()) sigma.read(where);
    time.transfer += watch.stop();
  }
#endif
  [[maybe_unused]] auto no_cuda = [] { throw Error("fmm: the CUDA backend is not built into this loom"); };

  if (problem.gaussian) {
    watch.start();
    detail::fill_zero(backend, out);
    if (backend == core::Backend::cpu) {
      p2p_cpu(problem, lists, strength.read(where), sigma.read(where), out.read_write(where));
    } else {
#if defined(LOOM_HAVE_CUDA)
      gpu::p2p_gaussian(view, n, pos.read(where), strength.read(where), sigma.read(where), out.read_write(where),
                        o.precision);
#else
      no_cuda();
#endif
    }
    time.p2p = watch.stop();
    return;
  }

  // Upward pass: P2M, M2M.
  core::Array<C> multipoles(expansion_terms), locals(expansion_terms);
  watch.start();
  detail::upward(backend, p, ncomp, tree, cells, leaves, pos, strength, multipoles, view);
  time.upward = watch.stop();

  // M2L in one batch (plus the periodic image levels into the root).
  watch.start();
  detail::fill_zero(backend, locals);
  if (backend == core::Backend::cpu) {
    m2l_cpu(ncomp, lists, multipoles.read(where), locals.read_write(where));
  } else {
#if defined(LOOM_HAVE_CUDA)
    gpu::m2l(view, p, ncomp, multipoles.read(where), locals.read_write(where), o.precision != Precision::double_,
             o.m2l_block > 0 ? o.m2l_block : default_m2l_block(p, ncomp));
#else
    no_cuda();
#endif
  }
  if (o.periodic) periodic_far_field(ncomp, strength, locals);
  time.m2l = watch.stop();

  // Downward pass: L2L, L2P (writes the far field into out).
  watch.start();
  detail::local_to_local(backend, p, ncomp, tree, cells, locals, view);
  detail::local_to_bodies(backend, p, problem, n, cells, leaf_of_body, pos, strength, locals, out, leaves, view);
  time.downward = watch.stop();

  // P2P in one batch (adds the near field).
  watch.start();
  if (backend == core::Backend::cpu) {
    p2p_cpu(problem, lists, strength.read(where), problem.kernel == Kernel::biot_savart ? sigma.read(where) : nullptr,
            out.read_write(where));
  } else {
#if defined(LOOM_HAVE_CUDA)
    if (problem.kernel == Kernel::laplace)
      gpu::p2p_laplace(view, n, pos.read(where), strength.read(where), out.read_write(where), o.precision);
    else
      gpu::p2p_biot_savart(view, n, pos.read(where), strength.read(where), sigma.read(where), out.read_write(where),
                           o.precision);
#else
    no_cuda();
#endif
  }
  time.p2p = watch.stop();
}

namespace {

// Wall time since construction, after the backend's queued work (the GPU's kernels are asynchronous).
struct CallTimer {
  core::Stopwatch watch;
  explicit CallTimer(core::Backend b) : watch(b) { watch.start(); }
  double seconds() { return watch.stop(); }
};

// The upload's end: on the GPU after its queued copies and permutations, so that no phase's time includes them.
double upload_seconds(core::Backend backend, const core::WallTimer& up) {
  if (backend == core::Backend::cuda) cuda::synchronize();
  return up.seconds();
}

// Sized for n bodies, keeping the vector's memory when it already is (no fresh pages to fault in every call).
template <class T>
T* sized(std::vector<T>& v, Index n) {
  if (v.size() != static_cast<std::size_t>(n)) v.assign(static_cast<std::size_t>(n), T{});
  return v.data();
}

static_assert(sizeof(Vec3d) == 3 * sizeof(double), "a Vec3d array is 3n doubles, interleaved");

double* doubles(Vec3d* v) { return &v->x; }
std::span<const double> doubles(std::span<const Vec3d> v) { return {v.empty() ? nullptr : &v[0].x, 3 * v.size()}; }

}  // namespace

LaplaceResult Evaluator::laplace(std::span<const double> charges) {
  LaplaceResult r;
  laplace(charges, r);
  return r;
}

void Evaluator::laplace(std::span<const double> charges, LaplaceResult& r) {
  State& s = *s_;
  LOOM_REQUIRE(static_cast<Index>(charges.size()) == s.n(), "fmm::Evaluator::laplace: one charge per body");
  CallTimer call(s.o.backend);
  r.time = Timings{};
  r.time.build = s.build_seconds;
  if (!s.laplace_lists_valid) {
    core::WallTimer timer;
    TraversalOptions t;
    t.theta = s.o.theta;
    t.periodic = s.o.periodic;
    t.period = s.o.period;
    s.laplace_lists = traverse(s.tree, s.tree, t);
    s.laplace_traversal_seconds = timer.seconds();
    s.laplace_stats = s.statistics(s.laplace_lists);
    s.laplace_lists_valid = true;
#if defined(LOOM_HAVE_CUDA)
    s.laplace_device_lists.reset();
#endif
  }
  r.time.traversal = s.laplace_traversal_seconds;
  const Index n = s.n();
  core::WallTimer up;
  auto strength = s.to_tree_order(charges, 1, 1);
  r.time.transfer += upload_seconds(s.o.backend, up);
  core::Array<double> out(static_cast<std::size_t>(4 * n)), none;
  s.evaluate(Problem{Kernel::laplace, false, 1, 4}, strength, none, s.laplace_lists, out, r.time);
  core::WallTimer back;
  double* potential = sized(r.potential, n);
  double* gradient = doubles(sized(r.gradient, n));
  s.to_user_order(out, {{0, 1, potential}, {1, 3, gradient}}, 1.0);
  r.time.transfer += back.seconds();
  r.stats = s.laplace_stats;
  r.time.call = call.seconds();
}

BiotSavartResult Evaluator::biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma) {
  BiotSavartResult r;
  biot_savart(alpha, sigma, r);
  return r;
}

void Evaluator::biot_savart(std::span<const Vec3d> alpha, std::span<const double> sigma, BiotSavartResult& r) {
  State& s = *s_;
  const Index n = s.n();
  LOOM_REQUIRE(static_cast<Index>(alpha.size()) == n && static_cast<Index>(sigma.size()) == n,
               "fmm::Evaluator::biot_savart: one strength and one core radius per body");
  CallTimer call(s.o.backend);
  r.time = Timings{};
  r.time.build = s.build_seconds;
  core::WallTimer up;
  auto strength = s.to_tree_order(doubles(alpha), 3, 3);
  auto sigma_tree = s.to_tree_order(sigma, 1, 1);
  // The lists depend on sigma through the far-field guard: kept while the cells' largest sigma stay the same.
  // (On the GPU this host pass runs while the strengths cross PCIe.)
  std::vector<double> cell_sigma = s.cell_max_sigma(sigma);
  r.time.transfer += upload_seconds(s.o.backend, up);
  if (!s.biot_savart_lists_valid || cell_sigma != s.biot_savart_cell_sigma) {
    core::WallTimer timer;
    TraversalOptions t;
    t.theta = s.o.theta;
    t.guard = s.o.guard;
    t.source_sigma = cell_sigma.data();
    t.periodic = s.o.periodic;
    t.period = s.o.period;
    s.biot_savart_lists = traverse(s.tree, s.tree, t);
    s.biot_savart_stats = s.statistics(s.biot_savart_lists);
    s.biot_savart_cell_sigma = std::move(cell_sigma);
    s.biot_savart_traversal_seconds = timer.seconds();
    s.biot_savart_lists_valid = true;
#if defined(LOOM_HAVE_CUDA)
    s.biot_savart_device_lists.reset();
#endif
  }
  r.time.traversal = s.biot_savart_traversal_seconds;
  const InteractionLists& lists = s.biot_savart_lists;
  core::Array<double> out(static_cast<std::size_t>(6 * n));
  s.evaluate(Problem{Kernel::biot_savart, false, 3, 6}, strength, sigma_tree, lists, out, r.time);
  core::WallTimer back;
  double* velocity = doubles(sized(r.velocity, n));
  double* stretching = doubles(sized(r.stretching, n));
  constexpr double inv_4pi = 0.079577471545947667884;
  s.to_user_order(out, {{0, 3, velocity}, {3, 3, stretching}}, inv_4pi);
  r.time.transfer += back.seconds();
  r.stats = s.biot_savart_stats;
  r.time.call = call.seconds();
}

std::vector<Vec3d> Evaluator::gaussian_sum(std::span<const Vec3d> alpha, std::span<const double> sigma, double cutoff) {
  State& s = *s_;
  const Index n = s.n();
  LOOM_REQUIRE(static_cast<Index>(alpha.size()) == n && static_cast<Index>(sigma.size()) == n,
               "fmm::Evaluator::gaussian_sum: one strength and one core radius per body");
  auto strength = s.to_tree_order(doubles(alpha), 3, 3);
  auto sigma_tree = s.to_tree_order(sigma, 1, 1);
  const std::vector<double> cell_sigma = s.cell_max_sigma(sigma);
  TraversalOptions t;
  t.far_field = false;
  t.guard = cutoff;
  t.source_sigma = cell_sigma.data();
  t.periodic = s.o.periodic;
  t.period = s.o.period;
  const InteractionLists lists = traverse(s.tree, s.tree, t);
  core::Array<double> out(static_cast<std::size_t>(3 * n));
  Timings time;
  s.evaluate(Problem{Kernel::biot_savart, true, 3, 3}, strength, sigma_tree, lists, out, time);
  std::vector<Vec3d> w(static_cast<std::size_t>(n));
  s.to_user_order(out, {{0, 3, doubles(w.data())}}, 1.0);
  return w;
}

LaplaceResult laplace(std::span<const Vec3d> positions, std::span<const double> charges, const Options& options) {
  Evaluator e(options);
  e.set_positions(positions);
  return e.laplace(charges);
}

BiotSavartResult biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha,
                             std::span<const double> sigma, const Options& options) {
  Evaluator e(options);
  e.set_positions(positions);
  return e.biot_savart(alpha, sigma);
}

}  // namespace loom::fmm
