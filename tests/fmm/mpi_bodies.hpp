// Helpers of the tests of the FMM over MPI ranks (test_fmm_mpi*.cpp): a body set, each rank's unequal share of
// it partitioned and moved, and values gathered back to rank 0 in the bodies' order.
#pragma once

#include <cmath>
#include <cstdio>
#include <numeric>
#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/parallel/exchange.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel::mpi_test {

inline comm::Communicator world() { return comm::Communicator::world(); }

// This rank's share [first, last) of n bodies: rank r of P holds about n r / (P (P - 1) / 2) (all on one rank).
inline std::pair<Index, Index> share(Index n, int rank, int size) {
  if (size == 1) return {0, n};
  const Index total = Index(size) * (size - 1) / 2;
  auto edge = [&](Index r) { return n * (r * (r - 1) / 2) / total; };
  return {edge(rank), edge(rank + 1)};
}

// A body set: positions, ncomp strengths per body, core radii.
struct Bodies {
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma, id;
  int ncomp = 1;
};

inline Bodies make_bodies(Distribution d, Index n, int ncomp, std::uint64_t seed) {
  Bodies b;
  b.ncomp = ncomp;
  b.x = make_positions(d, n, seed);
  b.strength = make_uniform(n * ncomp, -1, 1, seed + 1);
  b.sigma = make_uniform(n, 0.02, 0.03, seed + 2);
  b.id.resize(static_cast<std::size_t>(n));
  std::iota(b.id.begin(), b.id.end(), 0.0);
  return b;
}

// Rows of (x, y, z, strengths, sigma, id) for bodies [first, last).
inline std::vector<double> rows_of(const Bodies& b, Index first, Index last) {
  std::vector<double> rows;
  for (Index i = first; i < last; ++i) {
    const auto u = static_cast<std::size_t>(i);
    rows.insert(rows.end(), {b.x[u].x, b.x[u].y, b.x[u].z});
    for (int d = 0; d < b.ncomp; ++d) rows.push_back(b.strength[u * static_cast<std::size_t>(b.ncomp) + d]);
    rows.insert(rows.end(), {b.sigma[u], b.id[u]});
  }
  return rows;
}

inline Bodies from_rows(const std::vector<double>& rows, int ncomp) {
  Bodies b;
  b.ncomp = ncomp;
  const std::size_t w = static_cast<std::size_t>(5 + ncomp);
  for (std::size_t at = 0; at < rows.size(); at += w) {
    b.x.push_back({rows[at], rows[at + 1], rows[at + 2]});
    for (int d = 0; d < ncomp; ++d) b.strength.push_back(rows[at + 3 + static_cast<std::size_t>(d)]);
    b.sigma.push_back(rows[at + 3 + static_cast<std::size_t>(ncomp)]);
    b.id.push_back(rows[at + 4 + static_cast<std::size_t>(ncomp)]);
  }
  return b;
}

// This rank's share of `all`, partitioned and moved: the bodies this rank holds afterwards.
inline Bodies distribute(const Bodies& all, Partition* partition = nullptr) {
  const auto c = world();
  const auto [first, last] = share(static_cast<Index>(all.x.size()), c.rank(), c.size());
  const std::vector<Vec3d> x(all.x.begin() + first, all.x.begin() + last);
  Partition p = multisection(c, x, {}, c.size());
  Bodies mine = from_rows(exchange_rows(c, rows_of(all, first, last), 5 + all.ncomp, p.part), all.ncomp);
  if (partition) *partition = std::move(p);
  return mine;
}

// Every rank's values (`width` per body) on rank 0, put in the order of the bodies' ids.
inline std::vector<double> gather_by_id(const Bodies& mine, const std::vector<double>& values, int width, Index n) {
  std::vector<double> rows;
  for (std::size_t i = 0; i < mine.id.size(); ++i) {
    rows.push_back(mine.id[i]);
    for (int k = 0; k < width; ++k) rows.push_back(values[i * static_cast<std::size_t>(width) + k]);
  }
  const std::vector<double> all = world().gather(rows);
  std::vector<double> out;
  if (!world().is_root()) return out;
  out.assign(static_cast<std::size_t>(n * width), std::nan(""));
  for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(width + 1))
    for (int k = 0; k < width; ++k)
      out[static_cast<std::size_t>(all[at]) * static_cast<std::size_t>(width) + k] = all[at + 1 + k];
  return out;
}

inline std::vector<double> flat(const std::vector<Vec3d>& v) {
  std::vector<double> out;
  for (const Vec3d& a : v) out.insert(out.end(), {a.x, a.y, a.z});
  return out;
}

inline std::vector<Vec3d> vectors(std::span<const double> flat_values) {
  std::vector<Vec3d> out;
  for (std::size_t at = 0; at + 2 < flat_values.size(); at += 3)
    out.push_back({flat_values[at], flat_values[at + 1], flat_values[at + 2]});
  return out;
}

// Relative L2 difference over the sampled bodies' values (width per body).
inline double sampled_error(const std::vector<double>& a, const std::vector<double>& exact, const std::vector<Index>& targets,
                     int width, int component_first, int components) {
  double err = 0, norm = 0;
  for (std::size_t t = 0; t < targets.size(); ++t)
    for (int k = component_first; k < component_first + components; ++k) {
      const double e = exact[t * static_cast<std::size_t>(components) + static_cast<std::size_t>(k - component_first)];
      err += std::pow(a[static_cast<std::size_t>(targets[t] * width + k)] - e, 2);
      norm += e * e;
    }
  return std::sqrt(err / norm);
}

}  // namespace loom::fmm::parallel::mpi_test
