#include "loom/spectral/memory_need.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loom/perf/ceilings.hpp"

namespace loom::spectral {
namespace {

constexpr double bytes_per_value = 8;

double components_of(const std::vector<TensorKind>& kinds) {
  double c = 0;
  for (auto k : kinds) c += shape_of(k).components();
  return c;
}

std::string names_of(const std::vector<TensorKind>& kinds) {
  std::string names;
  for (auto k : kinds) names += (names.empty() ? "" : ",") + std::string(to_string(k));
  return names;
}

double points_of(const WorkloadSize& w) {
  if (w.topology.empty()) return w.points;
  return double(w.extents[0]) * w.extents[1] * w.extents[2];
}

// The traced matrices of the operation's steps (doubles), and the largest one (its trace's vector is alive while
// the cache copies it). A shell's angular points a = N_theta N_phi: a dense angular operator is a^2; the separable
// route's are the phi DFTs (N_phi^2) and one N_theta^2 block per phi mode.
struct Matrices {
  double total = 0, largest = 0;
  void add(double values) { total += values, largest = std::max(largest, values); }
};

Matrices traced_matrices(const WorkloadSize& w) {
  Matrices m;
  if (!w.matrices || w.topology.empty()) return m;
  const double n0 = w.extents[0], n1 = w.extents[1], n2 = w.extents[2];
  if (w.topology == "cube") {
    for (double n : {n0, n1, n2}) m.add(n * n);
    return m;
  }
  const double a = n1 * n2, dft = n2 * n2, theta = n2 * n1 * n1;
  m.add(n0 * n0);  // the radial derivative or filter
  const bool dense = w.angular == AngularMethod::dense;
  switch (w.op) {
    case Operation::deriv:
      if (dense) m.add(a * a), m.add(a * a);  // d_theta, d_phi
      else m.add(dft), m.add(theta), m.add(theta), m.add(dft), m.add(dft);  // DFT, two theta ops, two inverses
      break;
    case Operation::filter:
      if (dense) m.add(a * a);
      else m.add(dft), m.add(theta), m.add(dft);
      break;
    case Operation::filter_csr: m.add(a * n1 * n1), m.add(a * n1 * n1); break;  // to and from (L+1)^2 Y_lm
    default: break;
  }
  return m;
}

// Values per point of the workload's fields with C components: the input, the outputs (three blocks for a
// gradient), scratch, the filter's copy; plus the inverse Jacobian (9) and, while it is made, its vector or the
// Cartesian coordinates (9).
double field_values_per_point(const WorkloadSize& w, double nt_squared_per_point) {
  const double c = w.components;
  switch (w.op) {
    case Operation::deriv: return 7 * c + 18;
    case Operation::filter: return 4 * c + 18;
    case Operation::filter_csr: return 5 * c + 2 * c * nt_squared_per_point + 18;  // apply's three temporaries
    case Operation::diffjac: return 12 * c + 9;   // 3 C in, out and scratch, the error's CPU copy
    case Operation::coordjac: return 5 * c + 9;   // the run's and the error's output tensors
  }
  return 0;
}

}  // namespace

double topology_bytes(const WorkloadSize& w) {
  if (w.topology != "shell") return 0;
  const double nt = w.extents[1];
  return bytes_per_value * 2 * nt * nt * nt;  // SphereBasis: Pbar_lm(theta_i) and its derivative
}

core::MemoryNeed workload_need(const WorkloadSize& w, double shells) {
  const double n = points_of(w);
  const double nt_squared_per_point = w.topology == "shell" ? double(w.extents[1]) / (2.0 * w.extents[2]) : 0;
  const double fields = bytes_per_value * shells * n * field_values_per_point(w, nt_squared_per_point);
  const Matrices m = traced_matrices(w);
  core::MemoryNeed need;
  need.host_bytes = fields + bytes_per_value * (m.total + m.largest);
  if (w.device) {
    need.host_bytes += bytes_per_value * m.total;  // the transposed copies, made on the host
    need.device_bytes = fields + bytes_per_value * 2 * m.total;
  }
  return need;
}

core::MemoryNeed spectral_memory_need(const SpectralToolConfig& c, double shells) {
  WorkloadSize w;
  w.topology = c.topology;
  w.extents = c.extents;
  w.components = components_of(c.tensors);
  w.op = c.op;
  w.device = c.backend == core::Backend::cuda;
  // Timed at once: strategy auto keeps a workload per candidate (the backend's strategies but the reference),
  // angular auto one per candidate and angular method; the run's own workload comes after they are freed.
  const double candidates = c.strategy ? 1 : (w.device ? 4 : 1);
  std::vector<AngularMethod> methods;
  if (c.angular) methods = {*c.angular};
  else methods = {AngularMethod::dense, AngularMethod::separable};
  core::MemoryNeed need{core::resident_base_bytes + topology_bytes(w), 0};
  for (auto m : methods) {
    w.angular = m;
    w.matrices = !c.strategy || *c.strategy != Strategy::reference;
    const auto one = workload_need(w, shells);
    need.host_bytes += candidates * one.host_bytes;
    need.device_bytes += candidates * one.device_bytes;
  }
  return need;
}

std::string spectral_memory_setting(const SpectralToolConfig& c) {
  return fmt::format("extents = \"{},{},{}\" (topology {}, tensor {}, op {}{})", c.extents[0], c.extents[1],
                     c.extents[2], c.topology, names_of(c.tensors), to_string(c.op),
                     c.shells > 1 ? fmt::format(", shells {}", c.shells) : "");
}

namespace {

// The largest of `candidate` and `best` by host bytes (device bytes as they come with it).
void keep_largest(BenchNeed& best, const core::MemoryNeed& candidate, const std::string& setting) {
  if (candidate.host_bytes > best.need.host_bytes || candidate.device_bytes > best.need.device_bytes) {
    best.need.host_bytes = std::max(best.need.host_bytes, candidate.host_bytes);
    best.need.device_bytes = std::max(best.need.device_bytes, candidate.device_bytes);
    best.setting = setting;
  }
}

// The paper's shell sequences as bench spectral runs them (its shell_sweep): the largest k of each.
std::array<int, 3> shell_extents(int nr0, int nr_step, int nt0, int nt_step, int k) {
  const int nt = nt0 + nt_step * k;
  return {nr0 + nr_step * k, nt, 2 * nt};
}

}  // namespace

BenchNeed bench_spectral_memory_need(const BenchSpectralConfig& c) {
  BenchNeed best;
  const bool device = std::find(c.backends.begin(), c.backends.end(), core::Backend::cuda) != c.backends.end();
  const double components = components_of(c.tensors);
  auto consider = [&](WorkloadSize w, const std::string& setting) {
    w.device = device;
    auto need = workload_need(w);
    need.host_bytes += topology_bytes(w);
    keep_largest(best, need, setting);
  };
  if (c.wants(BenchSweep::jacobian) && !c.points.empty()) {
    const int n = *std::max_element(c.points.begin(), c.points.end());
    for (auto op : {Operation::diffjac, Operation::coordjac})
      consider({"", {}, double(n), double(shape_of(TensorKind::abb).components()), op}, fmt::format("points = {}", n));
  }
  if (c.wants(BenchSweep::cube) && !c.cube_n.empty()) {
    const int n = *std::max_element(c.cube_n.begin(), c.cube_n.end());
    for (auto op : {Operation::deriv, Operation::filter})
      consider({"cube", {n, n, n}, 0, components, op}, fmt::format("cube_n = {}", n));
  }
  std::vector<std::array<int, 3>> shells;
  if (c.wants(BenchSweep::singlebh)) shells.push_back(shell_extents(9, 4, 6, 2, c.quick ? 1 : 10));
  if (c.wants(BenchSweep::bbh)) shells.push_back(shell_extents(4, 1, 7, 2, c.quick ? 2 : 16));
  for (const auto& e : shells)
    for (auto op : {Operation::deriv, Operation::filter, Operation::filter_csr})
      for (auto m : {AngularMethod::dense, AngularMethod::separable})
        consider({"shell", e, 0, components, op, m},
                 fmt::format("tensor = \"{}\" on the {}x{}x{} shell", names_of(c.tensors), e[0], e[1], e[2]));
  // The ceilings are measured first, each backend's arrays freed before the sweeps: the peak is the larger.
  const auto ceilings = c.quick ? perf::quick_ceiling_options() : perf::CeilingOptions{};
  const double ceilings_bytes = perf::cpu_ceilings_host_bytes(ceilings);
  if (ceilings_bytes > best.need.host_bytes)
    best.setting = fmt::format("quick = {} (the CPU ceilings' arrays, measured first)", c.quick);
  best.need.host_bytes = core::resident_base_bytes + std::max(best.need.host_bytes, ceilings_bytes);
  return best;
}

}  // namespace loom::spectral
