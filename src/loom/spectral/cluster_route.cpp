// Building the cluster route (cluster_route.hpp) from the separable route's host matrices, and its CPU form.
#include "loom/spectral/cluster_route.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/spectral/cluster_strips.hpp"

namespace loom::spectral {

namespace {

// F(q, phi) = forward[phi n_phi + q], B_t(phi, q) = inverse[t][q n_phi + phi] (the plan's transposed storage).
double forward_at(const sweep::Separable& s, Index q, Index phi) { return s.forward[phi * s.n_phi + q]; }
double inverse_at(const sweep::Separable& s, int t, Index phi, Index q) { return s.inverse[t][q * s.n_phi + phi]; }

// The signs sigma with f(phi + half) = sigma f(phi) for every phi < half: bit 0 for +1, bit 1 for -1 (both for a
// zero row, as the phi derivative of the cos(half phi) mode).
template <class F>
int half_period_signs(Index half, double tolerance, const F& f) {
  bool plus = true, minus = true;
  for (Index phi = 0; phi < half; ++phi) {
    plus = plus && std::abs(f(phi + half) - f(phi)) <= tolerance;
    minus = minus && std::abs(f(phi + half) + f(phi)) <= tolerance;
  }
  return (plus ? 1 : 0) | (minus ? 2 : 0);
}

double largest(const double* a, Index n) {
  double m = 0;
  for (Index i = 0; i < n; ++i) m = std::max(m, std::abs(a[i]));
  return m;
}

// sigma_q of every Fourier coefficient, the same for F and both inverses; empty when one lacks the symmetry.
std::vector<int> signs(const sweep::Separable& s) {
  const Index n = s.n_phi, half = n / 2;
  const double tf = 1e-13 * largest(s.forward, n * n);
  const double tb[2] = {1e-13 * largest(s.inverse[0], n * n), 1e-13 * largest(s.inverse[1], n * n)};
  std::vector<int> sigma(static_cast<std::size_t>(n));
  for (Index q = 0; q < n; ++q) {
    int signs = half_period_signs(half, tf, [&](Index phi) { return forward_at(s, q, phi); });
    for (int t = 0; t < 2; ++t)
      signs &= half_period_signs(half, tb[t], [&](Index phi) { return inverse_at(s, t, phi, q); });
    if (signs == 0) return {};
    sigma[static_cast<std::size_t>(q)] = signs & 1 ? 1 : -1;
  }
  return sigma;
}

bool same_matrices(const sweep::Separable& s, Index q, Index p) {
  const Index square = s.n_theta * s.n_theta;
  for (int t = 0; t < 2; ++t)
    if (std::memcmp(s.per_q[t] + q * square, s.per_q[t] + p * square, square * sizeof(double)) != 0) return false;
  return true;
}

// The route's order of the coefficients: sigma = +1 first, then -1; within each, groups of coefficients with the
// same theta matrices (cos and sin of one m) one after the other. perm[q'] = q; group_q as in cluster::Plan.
struct Order {
  std::vector<int> perm, group_q;
  int even = 0;
};

Order order(const sweep::Separable& s, const std::vector<int>& sigma) {
  Order o;
  for (int sign : {1, -1}) {
    std::vector<std::vector<int>> groups;
    for (int q = 0; q < static_cast<int>(s.n_phi); ++q) {
      if (sigma[static_cast<std::size_t>(q)] != sign) continue;
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& v) { return same_matrices(s, v[0], q); });
      if (g == groups.end())
        groups.push_back({q});
      else
        g->push_back(q);
    }
    for (const auto& g : groups) {
      o.group_q.push_back(static_cast<int>(o.perm.size()));
      o.perm.insert(o.perm.end(), g.begin(), g.end());
    }
    if (sign == 1) o.even = static_cast<int>(o.perm.size());
  }
  o.group_q.push_back(static_cast<int>(o.perm.size()));
  return o;
}

// A group boundary added at the coefficient nearest b n_phi / blocks (b = 1 .. blocks - 1) where no boundary is
// within half a coefficient of it (split_groups then takes the nearest, so a cut it would not take would only add
// a group to stage): a group split there becomes two groups of the same matrices (the per-q matrices are taken per
// group, from its first coefficient).
void split_at_blocks(Order& o, int n_phi, int blocks) {
  for (int b = 1; b < blocks; ++b) {
    const double target = double(b) * n_phi / blocks;
    const bool near = std::any_of(o.group_q.begin(), o.group_q.end(),
                                  [&](int q) { return std::abs(q - target) <= 0.5; });
    if (near) continue;
    const int q = static_cast<int>(std::lround(target));
    o.group_q.insert(std::lower_bound(o.group_q.begin(), o.group_q.end(), q), q);
  }
}

// Block b's groups: the boundary nearest b n_phi / blocks coefficients, so the blocks' q counts are balanced.
void split_groups(cluster::Plan& p, const std::vector<int>& group_q) {
  p.group_start[0] = 0;
  for (int b = 1; b < p.blocks; ++b) {
    const double target = double(b) * p.n_phi / p.blocks;
    int best = p.group_start[b - 1];
    for (int g = best; g <= p.groups; ++g)
      if (std::abs(group_q[g] - target) < std::abs(group_q[best] - target)) best = g;
    p.group_start[b] = best;
  }
  for (int b = p.blocks; b <= cluster::max_blocks; ++b) p.group_start[b] = p.groups;
  for (int b = 0; b <= cluster::max_blocks; ++b) p.q_start[b] = group_q[p.group_start[b]];
}

// The largest line, coefficient and group counts of any block.
void block_sizes(cluster::Plan& p) {
  p.max_lines = p.max_q = p.max_groups = 0;
  for (int b = 0; b < p.blocks; ++b) {
    p.max_lines = std::max(p.max_lines, p.line_start(b + 1) - p.line_start(b));
    p.max_q = std::max(p.max_q, p.q_start[b + 1] - p.q_start[b]);
    p.max_groups = std::max(p.max_groups, p.group_start[b + 1] - p.group_start[b]);
  }
}

// The shared-memory layout (cluster_shell.hpp): the inverse matrices and E/O alias what is dead when they are
// written; the row strides padded (cluster::padded_stride) or not.
void lay_out(cluster::Plan& p) {
  p.ld_line = cluster::stride(p.max_lines, p.padded);
  p.ld_r = cluster::stride(p.n_r, p.padded);
  p.ld_half = cluster::stride(p.half, p.padded);
  p.ld_theta = cluster::stride(p.n_theta, p.padded);
  const int g = p.components, per_line = p.n_phi * p.ld_line;
  p.at_forward = p.n_r * p.n_r;
  p.at_per_q = p.at_forward + p.n_phi * p.ld_half;
  p.at_y = p.at_per_q + std::max(2 * p.max_groups * p.ld_theta * p.n_theta, 2 * p.n_phi * p.ld_half);
  p.at_x = p.at_y + g * p.max_q * p.ld_r * p.n_theta;
  p.at_z = std::max(p.at_x + g * per_line, p.at_y + 2 * g * per_line);  // room for E/O
  p.at_dr = p.at_z + 2 * g * per_line;
  p.shared = p.at_dr + (p.shared_radial ? g * per_line : 0);
}

cluster::Plan shapes(Index n_r, Index n_theta, Index n_phi, int components, int blocks) {
  cluster::Plan p;
  p.blocks = blocks;
  p.n_r = static_cast<int>(n_r);
  p.n_theta = static_cast<int>(n_theta);
  p.n_phi = static_cast<int>(n_phi);
  p.half = p.n_phi / 2;
  p.lines = p.n_r * p.n_theta;
  p.points = Index{p.lines} * p.n_phi;
  p.components = components;
  return p;
}

void set_pointers(cluster::Plan& p, core::Where w, const core::Array<double>& radial,
                  const core::Array<double>& forward, const core::Array<double>& inverse,
                  const core::Array<double>& per_q, const core::Array<int>& group_q,
                  const core::Array<int>& group_of) {
  p.radial = radial.read(w);
  p.forward = forward.read(w);
  p.inverse = inverse.read(w);
  p.per_q = per_q.read(w);
  p.group_q = group_q.read(w);
  p.group_of = group_of.read(w);
}

}  // namespace

std::optional<ClusterShell> ClusterShell::make(const sweep::Separable& s, int components, Index max_shared,
                                               const ClusterOptions& options) {
  const auto [threads, per_sm, tensor_cores, padded, blocks, shared_radial, strips, prefetch_jacobian, split] =
      options;
  LOOM_REQUIRE(!s.filter && components >= 1, "cluster route: a gradient plan and at least one component");
  LOOM_REQUIRE(cluster::valid_launch(threads, per_sm, tensor_cores, strips), cluster::launch_rule);
  LOOM_REQUIRE(blocks >= 1 && blocks <= cluster::max_blocks, "cluster route: 1 to 8 blocks per cluster");
  LOOM_REQUIRE(!shared_radial || tensor_cores, "cluster route: d_r from shared memory with the tensor cores");
  if (s.n_phi % 2 != 0 || s.n_phi < 2) return std::nullopt;
  const auto sigma = signs(s);
  if (sigma.empty()) return std::nullopt;
  Order o = order(s, sigma);
  if (split) split_at_blocks(o, static_cast<int>(s.n_phi), blocks);
  ClusterShell c;
  cluster::Plan& p = c.shapes_;
  p = shapes(s.n_r, s.n_theta, s.n_phi, components, blocks);
  p.even = o.even;
  p.threads = threads;
  p.per_sm = per_sm;
  p.tensor_cores = tensor_cores;
  p.padded = padded;
  p.shared_radial = shared_radial;
  p.strips = strips;
  p.prefetch_jacobian = prefetch_jacobian;
  p.groups = static_cast<int>(o.group_q.size()) - 1;
  for (int g = 0; g < p.groups; ++g) p.max_group = std::max(p.max_group, o.group_q[g + 1] - o.group_q[g]);
  split_groups(p, o.group_q);
  block_sizes(p);
  lay_out(p);
  if (Index{p.shared} * Index{sizeof(double)} > max_shared) return std::nullopt;

  const Index n = p.n_phi, half = p.half, ld_half = p.ld_half, ld_theta = p.ld_theta, n_theta = p.n_theta;
  c.radial_ = core::Array<double>::from(std::span(s.radial, static_cast<std::size_t>(p.n_r * p.n_r)));
  c.group_q_ = core::Array<int>::from(std::span<const int>(o.group_q));
  std::vector<int> group_of(static_cast<std::size_t>(n));
  for (int g = 0; g < p.groups; ++g)
    std::fill(group_of.begin() + o.group_q[g], group_of.begin() + o.group_q[g + 1], g);
  c.group_of_ = core::Array<int>::from(std::span<const int>(group_of));
  // rows ld_half (columns ld_theta) apart, the padding zero
  std::vector<double> f(static_cast<std::size_t>(n * ld_half)), b(static_cast<std::size_t>(2 * n * ld_half));
  std::vector<double> a(static_cast<std::size_t>(2 * p.groups * ld_theta * n_theta));
  for (Index q = 0; q < n; ++q)
    for (Index j = 0; j < half; ++j) {
      const Index from = o.perm[static_cast<std::size_t>(q)];
      f[q * ld_half + j] = forward_at(s, from, j);
      for (int t = 0; t < 2; ++t) b[(t * n + q) * ld_half + j] = inverse_at(s, t, j, from);
    }
  for (int t = 0; t < 2; ++t)
    for (int g = 0; g < p.groups; ++g) {
      const double* from = s.per_q[t] + o.perm[o.group_q[g]] * n_theta * n_theta;
      for (Index k = 0; k < n_theta; ++k)
        std::copy_n(from + k * n_theta, n_theta, a.begin() + ((t * p.groups + g) * n_theta + k) * ld_theta);
    }
  c.forward_ = core::Array<double>::from(std::span<const double>(f));
  c.inverse_ = core::Array<double>::from(std::span<const double>(b));
  c.per_q_ = core::Array<double>::from(std::span<const double>(a));
  c.host_ = p;
  set_pointers(c.host_, core::Where::host, c.radial_, c.forward_, c.inverse_, c.per_q_, c.group_q_, c.group_of_);
  return c;
}

Index ClusterShell::shared_bound(Index n_r, Index n_theta, Index n_phi, int components,
                                 const ClusterOptions& options) {
  cluster::Plan p = shapes(n_r, n_theta, n_phi, components, options.blocks);
  p.padded = options.padded;
  p.shared_radial = options.shared_radial;
  p.groups = p.n_phi;
  std::vector<int> group_q(static_cast<std::size_t>(p.n_phi + 1));
  for (int q = 0; q <= p.n_phi; ++q) group_q[static_cast<std::size_t>(q)] = q;
  split_groups(p, group_q);
  block_sizes(p);
  // groups of two coefficients (cos and sin of one m) move each block boundary by at most one coefficient
  p.max_q += 2;
  p.max_groups = p.max_q;
  lay_out(p);
  return Index{p.shared} * Index{sizeof(double)};
}

ClusterOptions ClusterShell::default_options() { return {}; }

int ClusterShell::components_for(Index total) { return total >= 33 ? 2 : 1; }

namespace {

// The tensor-core variants the strategy tries for 33 or more components, the fastest measured on the H200 first
// (docs/performance.md): one is taken where it fits and a compiled instance runs it as asked (fixed extents; the
// strips where it asks for them).
// A candidate applies to launches of at least min_shells shells (cluster::Shells).
struct Candidate {
  int min_shells, components;
  ClusterOptions options;
};
const Candidate tensor_core_variants[] = {
    // fourteenth session (10x19x38, 50 components, per shell, K shells in one launch, lead's second call), from
    // 2 shells: 1 per cluster of 8 at 4/SM with split groups: K = 2 25.16 us one call / 23.12 in a stream, K = 8
    // 20.53 / 20.16 (whole groups 25.86 / 23.60, 20.89 / 20.50; 2 per cluster of 8 on 512 threads with split
    // groups 26.67 / 25.00, 21.43 / 21.00)
    {2, 1, {.threads = 256, .per_sm = 4, .tensor_cores = true, .strips = true, .split_groups = true}},
    // one shell: 2 per cluster of 8 on 512 threads with split groups 30.54 / 26.55 (whole groups 31.74 / 27.84;
    // 1 per cluster of 8 at 4/SM split 30.85 / 27.18; thirteenth session 31.23 / 27.51)
    {1, 2, {.threads = 512, .per_sm = 2, .tensor_cores = true, .padded = true, .strips = true, .split_groups = true}},
    // thirteenth session: 31.23 us one call, 27.51 in a stream
    {1, 2, {.threads = 512, .per_sm = 2, .tensor_cores = true, .padded = true, .strips = true}},
    // 32.37 / 28.34
    {1, 1, {.threads = 256, .per_sm = 4, .tensor_cores = true, .strips = true}},
    // the twelfth session's: 36.75 / 31.76 in the same run
    {1, 2, {.tensor_cores = true, .padded = true}},
};

bool runs_as_asked(const cluster::Plan& p) { return cluster::runs_fixed(p) && (!p.strips || cluster::runs_strips(p)); }

}  // namespace

int ClusterShell::shell_class(int shells) {
  int c = 1;
  for (const Candidate& v : tensor_core_variants)
    if (v.min_shells <= shells) c = std::max(c, v.min_shells);
  return c;
}

std::optional<ClusterShell> ClusterShell::make_default(const sweep::Separable& s, Index total, Index max_shared,
                                                       int shells) {
  if (total >= 33)
    for (const Candidate& c : tensor_core_variants) {
      if (c.min_shells > shells) continue;
      auto made = make(s, c.components, max_shared, c.options);
      if (made && runs_as_asked(made->plan(core::Where::host))) return made;
    }
  for (int g = components_for(total); g >= 1; --g)
    if (auto made = make(s, g, max_shared, default_options())) return made;
  return std::nullopt;
}

const cluster::Plan& ClusterShell::plan(core::Where w) const {
  if (w == core::Where::host) return host_;
  if (!device_ready_) {
    device_ = shapes_;
    set_pointers(device_, w, radial_, forward_, inverse_, per_q_, group_q_, group_of_);
    device_ready_ = true;
  }
  return device_;
}

perf::Work cluster_gradient_work(Index n_r, Index n_theta, Index n_phi, Index components, bool cartesian) {
  const double points = double(n_r) * n_theta * n_phi, lines = double(n_r) * n_theta, c = double(components);
  const double fma_per_component = lines * n_phi * (n_phi / 2.0)                   // forward DFT, halved
                                   + 2.0 * n_phi * n_r * n_theta * n_theta         // per-m theta, two sequences
                                   + 2.0 * lines * n_phi * (n_phi / 2.0)           // two inverse DFTs, halved
                                   + points * n_r + (cartesian ? 9 * points : 0);  // radial, eq. 8
  const double adds_per_component = lines * n_phi + 2 * points;                    // the half sums and E +- O
  const double matrices = 3.0 * n_phi * (n_phi / 2.0) + 2.0 * n_phi * n_theta * n_theta + double(n_r) * n_r;
  const double values = c * points * (1 + 3) + (cartesian ? 9 * points : 0) + matrices;
  return {8.0 * values, c * (2 * fma_per_component + adds_per_component)};
}

cluster::Shells shell_table(const cluster::Plan& p, std::span<const sweep::ComponentMap> maps,
                            std::span<const double* const> jacobians, std::span<const double* const> radials) {
  LOOM_REQUIRE(maps.size() == jacobians.size(), "cluster route: one inverse Jacobian (or null) per shell");
  LOOM_REQUIRE(radials.empty() || radials.size() == maps.size(), "cluster route: one radial matrix per shell");
  LOOM_REQUIRE(maps.size() <= static_cast<std::size_t>(cluster::max_shells),
               "cluster route: at most cluster::max_shells shells per launch");
  cluster::Shells t;
  t.count = static_cast<int>(maps.size());
  for (int s = 0; s < t.count; ++s) {
    LOOM_REQUIRE(maps[s].components() == maps[0].components(), "cluster route: every shell the same components");
    t.map[s] = maps[s];
    t.jacobian[s] = jacobians[s];
    t.radial[s] = radials.empty() ? p.radial : radials[s];
  }
  t.per_shell = t.count == 0 ? 0 : (maps[0].components() + p.components - 1) / p.components;
  return t;
}

namespace cpu {

void cluster_gradient(const cluster::Plan& p, const cluster::Shells& shells) {
  std::vector<std::vector<double>> shared(p.blocks, std::vector<double>(static_cast<std::size_t>(p.shared)));
  cluster::Peers peers;
  for (int b = 0; b < p.blocks; ++b) peers.base[b] = shared[static_cast<std::size_t>(b)].data();
  const sweep::Lanes one;
  cluster::with_extents(p, [&](const auto& e, auto tiles) {
    using T = decltype(tiles);
    for (Index k = 0; k < shells.clusters(); ++k) {
      const int s = shells.shell_of(k);
      const sweep::ComponentMap& map = shells.map[s];
      const double* jacobian = shells.jacobian[s];
      const Index c0 = shells.first_component(k, p.components);
      // each step for every block before the next: the kernel's cluster barriers
      for (int b = 0; b < p.blocks; ++b) cluster::load(e, p, shells.radial[s], map, c0, b, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b) cluster::half_sums(e, p, b, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b) cluster::forward_step<T>(e, p, b, peers, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b) cluster::per_q_step<T>(e, p, b, peers, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b) cluster::load_inverse(e, p, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b) cluster::inverse_step<T>(e, p, b, peers.base[b], one);
      for (int b = 0; b < p.blocks; ++b)
        cluster::radial_chain(e, p, map, c0, jacobian, b, peers.base[b], one);
    }
  });
}

void cluster_gradient(const cluster::Plan& p, const sweep::ComponentMap& map, const double* jacobian) {
  cluster_gradient(p, shell_table(p, {&map, 1}, {&jacobian, 1}));
}

}  // namespace cpu

}  // namespace loom::spectral
