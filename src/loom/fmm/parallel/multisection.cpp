// Recursive multisection (multisection.hpp). Every level cuts all domains that still hold several parts at once,
// so each level costs a few collectives whatever the number of domains.
#include "loom/fmm/parallel/multisection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "loom/comm/collectives.hpp"
#include "loom/core/error.hpp"

namespace loom::fmm::parallel {
namespace {

struct Domain {
  Box box;
  int first = 0, count = 1;  // parts [first, first + count)
};

// One cut to find: the coordinate along `axis` of domain `domain` below which lies `target` of its weight.
// Invariant: weight(coordinate < a) = wa <= target < ... and weight(< b) = wb.
struct Cut {
  int domain = 0, axis = 0;
  double target = 0, a = 0, b = 0, wa = 0, wb = 0;
  bool done = false;
};

int smallest_prime_factor(int q) {
  for (int k = 2; k * k <= q; ++k)
    if (q % k == 0) return k;
  return q;
}

int longest_axis(const Box& b) {
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (b.upper[d] - b.lower[d] > b.upper[axis] - b.lower[axis]) axis = d;
  return axis;
}

Box bounding_box(const comm::Communicator& comm, std::span<const Vec3d> x) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> lo(3, inf), hi(3, -inf);
  for (const Vec3d& p : x)
    for (int d = 0; d < 3; ++d) {
      lo[static_cast<std::size_t>(d)] = std::min(lo[static_cast<std::size_t>(d)], p[d]);
      hi[static_cast<std::size_t>(d)] = std::max(hi[static_cast<std::size_t>(d)], p[d]);
    }
  comm::all_reduce(comm, lo, comm::Reduce::min);
  comm::all_reduce(comm, hi, comm::Reduce::max);
  Box b;
  for (int d = 0; d < 3; ++d) {
    const auto k = static_cast<std::size_t>(d);
    if (lo[k] > hi[k]) lo[k] = hi[k] = 0;  // no bodies anywhere
    b.lower[d] = lo[k];
    b.upper[d] = std::nextafter(hi[k], inf);  // half-open: the largest coordinate is inside
  }
  return b;
}

// Up to `count` coordinates of the domain's bodies strictly inside (a, b), evenly strided over them.
void sample(const Cut& cut, std::span<const Vec3d> x, const std::vector<Index>& members, std::size_t count,
            std::vector<double>& out) {
  std::vector<double> inside;
  for (Index i : members) {
    const double v = x[static_cast<std::size_t>(i)][cut.axis];
    if (v > cut.a && v < cut.b) inside.push_back(v);
  }
  const std::size_t step = std::max<std::size_t>(1, inside.size() / count);
  for (std::size_t k = step / 2; k < inside.size(); k += step) out.push_back(inside[k]);
}

// One round of the parallel nth-element for every open cut: samples from all ranks, their exact global weights
// below, the bracket narrowed to the nearest samples around the target. A cut with no body inside its bracket
// is done.
void narrow(const comm::Communicator& comm, std::vector<Cut>& cuts, std::span<const Vec3d> x,
            std::span<const double> w, const std::vector<std::vector<Index>>& members) {
  constexpr std::size_t samples_per_rank = 64;
  std::vector<double> mine;  // (cut, value) pairs
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    if (cuts[c].done) continue;
    std::vector<double> s;
    sample(cuts[c], x, members[static_cast<std::size_t>(cuts[c].domain)], samples_per_rank, s);
    for (double v : s) mine.insert(mine.end(), {double(c), v});
  }
  const std::vector<double> all = comm::all_gather(comm, mine);
  std::vector<std::vector<double>> candidates(cuts.size());
  for (std::size_t k = 0; k < all.size(); k += 2) candidates[static_cast<std::size_t>(all[k])].push_back(all[k + 1]);
  std::vector<std::size_t> first(cuts.size() + 1, 0);
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    auto& v = candidates[c];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.empty()) cuts[c].done = true;
    first[c + 1] = first[c] + v.size();
  }
  std::vector<double> below(first.back(), 0.0);  // weight with coordinate < candidate
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    const auto& v = candidates[c];
    if (v.empty()) continue;
    for (Index i : members[static_cast<std::size_t>(cuts[c].domain)]) {
      const double coord = x[static_cast<std::size_t>(i)][cuts[c].axis];
      const auto at = static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), coord) - v.begin());
      if (at < v.size()) below[first[c] + at] += w.empty() ? 1.0 : w[static_cast<std::size_t>(i)];
    }
    for (std::size_t k = 1; k < v.size(); ++k) below[first[c] + k] += below[first[c] + k - 1];
  }
  comm::all_reduce(comm, below, comm::Reduce::sum);
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    Cut& cut = cuts[c];
    for (std::size_t k = 0; k < candidates[c].size(); ++k) {
      const double v = candidates[c][k], wv = below[first[c] + k];
      if (wv <= cut.target && v > cut.a) {
        cut.a = v;
        cut.wa = wv;
      } else if (wv > cut.target && v < cut.b) {
        cut.b = v;
        cut.wb = wv;
      }
    }
  }
}

// The domains' total weights (one collective).
std::vector<double> domain_weights(const comm::Communicator& comm, std::size_t domains, std::span<const double> w,
                                   const std::vector<std::vector<Index>>& members) {
  std::vector<double> total(domains, 0.0);
  for (std::size_t d = 0; d < domains; ++d)
    for (Index i : members[d]) total[d] += w.empty() ? 1.0 : w[static_cast<std::size_t>(i)];
  comm::all_reduce(comm, total, comm::Reduce::sum);
  return total;
}

// One level: every domain of several parts cut into k slabs; returns the new domains and moves the bodies.
std::vector<Domain> cut_level(const comm::Communicator& comm, const std::vector<Domain>& domains,
                              std::span<const Vec3d> x, std::span<const double> w, std::vector<int>& domain_of) {
  std::vector<std::vector<Index>> members(domains.size());
  for (std::size_t i = 0; i < domain_of.size(); ++i)
    members[static_cast<std::size_t>(domain_of[i])].push_back(static_cast<Index>(i));
  const std::vector<double> total = domain_weights(comm, domains.size(), w, members);
  std::vector<Cut> cuts;
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& dom = domains[d];
    if (dom.count == 1) continue;
    const int k = smallest_prime_factor(dom.count), axis = longest_axis(dom.box);
    for (int j = 1; j < k; ++j)
      cuts.push_back({static_cast<int>(d), axis, total[d] * j / k, dom.box.lower[axis], dom.box.upper[axis], 0.0,
                      total[d], false});
  }
  for (int round = 0; round < 64 && std::any_of(cuts.begin(), cuts.end(), [](const Cut& c) { return !c.done; });
       ++round)
    narrow(comm, cuts, x, w, members);
  // the new domains, and each old domain's cut coordinates in order
  std::vector<Domain> next;
  std::vector<std::size_t> first_child(domains.size());
  std::vector<std::vector<double>> at(domains.size());
  for (const Cut& c : cuts)
    at[static_cast<std::size_t>(c.domain)].push_back(c.target - c.wa <= c.wb - c.target ? c.a : c.b);
  for (auto& v : at) std::sort(v.begin(), v.end());  // ties at equal samples may come out of order
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& dom = domains[d];
    first_child[d] = next.size();
    const int k = dom.count == 1 ? 1 : smallest_prime_factor(dom.count), axis = longest_axis(dom.box);
    for (int j = 0; j < k; ++j) {
      Domain child{dom.box, dom.first + j * (dom.count / k), dom.count / k};
      if (j > 0) child.box.lower[axis] = at[d][static_cast<std::size_t>(j - 1)];
      if (j + 1 < k) child.box.upper[axis] = at[d][static_cast<std::size_t>(j)];
      next.push_back(child);
    }
  }
  for (std::size_t i = 0; i < domain_of.size(); ++i) {
    const auto d = static_cast<std::size_t>(domain_of[i]);
    const int axis = longest_axis(domains[d].box);
    const auto& cut_at = at[d];
    const auto j = std::upper_bound(cut_at.begin(), cut_at.end(), x[i][axis]) - cut_at.begin();
    domain_of[i] = static_cast<int>(first_child[d] + static_cast<std::size_t>(j));
  }
  return next;
}

}  // namespace

Partition multisection(const comm::Communicator& comm, std::span<const Vec3d> x, std::span<const double> weight,
                       int parts) {
  LOOM_REQUIRE(parts >= 1, "fmm::parallel::multisection: parts must be >= 1");
  LOOM_REQUIRE(weight.empty() || weight.size() == x.size(), "fmm::parallel::multisection: one weight per body");
  std::vector<Domain> domains{{bounding_box(comm, x), 0, parts}};
  std::vector<int> domain_of(x.size(), 0);
  while (std::any_of(domains.begin(), domains.end(), [](const Domain& d) { return d.count > 1; }))
    domains = cut_level(comm, domains, x, weight, domain_of);
  Partition out;
  out.domains.resize(static_cast<std::size_t>(parts));
  std::vector<int> part_of_domain(domains.size());
  for (std::size_t d = 0; d < domains.size(); ++d) {
    out.domains[static_cast<std::size_t>(domains[d].first)] = domains[d].box;
    part_of_domain[d] = domains[d].first;
  }
  out.part.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out.part[i] = part_of_domain[static_cast<std::size_t>(domain_of[i])];
  return out;
}

double imbalance(std::span<const double> part_weight) {
  if (part_weight.empty()) return 1;
  double sum = 0, most = 0;
  for (double v : part_weight) {
    sum += v;
    most = std::max(most, v);
  }
  return sum > 0 ? most * static_cast<double>(part_weight.size()) / sum : 1;
}

}  // namespace loom::fmm::parallel
