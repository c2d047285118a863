#include "loom/fmm/parallel/ranks_run.hpp"

#include <fmt/format.h>

#include <ostream>

#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/exchange.hpp"
#include "loom/fmm/parallel/multisection.hpp"
#include "loom/fmm/run/fmm_run.hpp"
#include "loom/fmm/run/report.hpp"

namespace loom::fmm::parallel {
namespace {

// This rank's bodies after partitioning: positions, strengths (ncomp each), core radii, input indices.
struct Mine {
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma;
  std::vector<Index> id;
};

// The equal slice of the input this rank starts from, partitioned and moved; returns the seconds it took.
double take_share(const comm::Communicator& comm, const FmmRun& run, int ncomp, Mine& mine) {
  core::WallTimer timer;
  const Index n = run.bodies(), first = n * comm.rank() / comm.size(), last = n * (comm.rank() + 1) / comm.size();
  const bool laplace = ncomp == 1;
  const auto width = static_cast<std::size_t>(5 + ncomp);
  std::vector<double> rows;
  for (Index i = first; i < last; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const Vec3d x = run.positions()[u];
    rows.insert(rows.end(), {x.x, x.y, x.z});
    if (laplace) {
      rows.push_back(run.charges()[u]);
    } else {
      rows.insert(rows.end(), {run.alpha()[u].x, run.alpha()[u].y, run.alpha()[u].z});
    }
    rows.insert(rows.end(), {laplace ? 0.0 : run.sigma()[u], double(i)});
  }
  const std::vector<Vec3d> x(run.positions().begin() + first, run.positions().begin() + last);
  const Partition p = multisection(comm, x, {}, comm.size());
  const std::vector<double> got = exchange_rows(comm, rows, static_cast<int>(width), p.part);
  for (std::size_t at = 0; at < got.size(); at += width) {
    mine.x.push_back({got[at], got[at + 1], got[at + 2]});
    for (int d = 0; d < ncomp; ++d) mine.strength.push_back(got[at + 3 + static_cast<std::size_t>(d)]);
    mine.sigma.push_back(got[at + width - 2]);
    mine.id.push_back(static_cast<Index>(got[at + width - 1]));
  }
  return timer.seconds();
}

// Rows of (input index, outputs) from every rank, on rank 0, into vectors in input order (nout values a body).
std::vector<double> gather_in_input_order(const comm::Communicator& comm, const Mine& mine,
                                          const std::vector<double>& outputs, int nout, Index n) {
  std::vector<double> rows;
  for (std::size_t i = 0; i < mine.id.size(); ++i) {
    rows.push_back(double(mine.id[i]));
    for (int k = 0; k < nout; ++k) rows.push_back(outputs[i * static_cast<std::size_t>(nout) + k]);
  }
  const std::vector<double> all = comm.gather(rows);
  std::vector<double> ordered(comm.is_root() ? static_cast<std::size_t>(n * nout) : 0);
  for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(nout + 1))
    for (int k = 0; k < nout; ++k) ordered[static_cast<std::size_t>(all[at]) * static_cast<std::size_t>(nout) + k] = all[at + 1 + k];
  return ordered;
}

std::vector<double> flat(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  std::vector<double> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.insert(out.end(), {a[i].x, a[i].y, a[i].z, b[i].x, b[i].y, b[i].z});
  return out;
}

// Evaluates this rank's bodies; on rank 0 hands the whole set's results in input order to the run.
void evaluate(const comm::Communicator& comm, FmmRun& run, const Mine& mine, RankReport& report) {
  const Options& o = run.config().options;
  const Index n = run.bodies();
  if (run.config().kernel == Kernel::laplace) {
    LaplaceResult r = laplace(comm, o, mine.x, mine.strength, &report);
    std::vector<double> out;
    for (std::size_t i = 0; i < mine.x.size(); ++i)
      out.insert(out.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
    const std::vector<double> all = gather_in_input_order(comm, mine, out, 4, n);
    if (!comm.is_root()) return;
    r.potential.resize(static_cast<std::size_t>(n));
    r.gradient.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      r.potential[i] = all[4 * i];
      r.gradient[i] = {all[4 * i + 1], all[4 * i + 2], all[4 * i + 3]};
    }
    run.set_result(std::move(r));
    return;
  }
  std::vector<Vec3d> alpha;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    alpha.push_back({mine.strength[3 * i], mine.strength[3 * i + 1], mine.strength[3 * i + 2]});
  BiotSavartResult r = biot_savart(comm, o, mine.x, alpha, mine.sigma, &report);
  const std::vector<double> all = gather_in_input_order(comm, mine, flat(r.velocity, r.stretching), 6, n);
  if (!comm.is_root()) return;
  r.velocity.resize(static_cast<std::size_t>(n));
  r.stretching.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    r.velocity[i] = {all[6 * i], all[6 * i + 1], all[6 * i + 2]};
    r.stretching[i] = {all[6 * i + 3], all[6 * i + 4], all[6 * i + 5]};
  }
  run.set_result(std::move(r));
}

// Each rank's figures, one row per rank on rank 0.
constexpr int figures = 9;
std::vector<double> rank_figures(const comm::Communicator& comm, const RankReport& r, double partition) {
  const double mine[figures] = {double(r.bodies),     partition, r.let_build, r.communication, r.local,
                                r.local_time.evaluation(), r.remote, double(r.let_cells_received),
                                double(r.let_bodies_received)};
  return comm.gather(mine);
}

nlohmann::json print_ranks(std::ostream& out, const std::vector<double>& f, int ranks) {
  out << "rank    bodies  partition  let_build  communication  local  (kernels)  remote  let_cells  let_bodies\n";
  nlohmann::json j;
  j["ranks"] = ranks;
  for (const char* key : {"bodies_per_rank", "let_cells_received", "let_bodies_received", "seconds_per_rank"})
    j[key] = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    const double* v = f.data() + static_cast<std::ptrdiff_t>(figures) * r;
    out << fmt::format("{:>4} {:>9} {:>10.4f} {:>10.4f} {:>14.4f} {:>6.4f} {:>10.4f} {:>7.4f} {:>10} {:>11}\n", r,
                       Index(v[0]), v[1], v[2], v[3], v[4], v[5], v[6], Index(v[7]), Index(v[8]));
    j["bodies_per_rank"].push_back(Index(v[0]));
    j["let_cells_received"].push_back(Index(v[7]));
    j["let_bodies_received"].push_back(Index(v[8]));
    j["seconds_per_rank"].push_back({{"partition", v[1]}, {"let_build", v[2]}, {"communication", v[3]},
                                     {"local", v[4]}, {"kernels", v[5]}, {"remote", v[6]}});
  }
  return j;
}

}  // namespace

int run_fmm_on_ranks(const comm::Communicator& comm, const FmmConfig& config, std::ostream& out, std::ostream& log) {
  if (config.options.periodic)
    throw UsageError("periodic = true: the FMM over MPI ranks has open boundaries only (run periodic cases on one rank)");
  FmmRun run(config);
  run.prepare();
  const int ncomp = config.kernel == Kernel::laplace ? 1 : 3;
  Mine mine;
  const double partition = take_share(comm, run, ncomp, mine);
  RankReport report;
  evaluate(comm, run, mine, report);
  const std::vector<double> f = rank_figures(comm, report, partition);
  if (!comm.is_root()) return 0;
  print_start(out, run);
  out << fmt::format("{} MPI ranks; rank 0's local FMM:\n", comm.size());
  print_evaluation(out, run);
  run.add_to_summary(print_ranks(out, f, comm.size()));
  run.check();
  print_check(out, run);
  run.write(log);
  return 0;
}

}  // namespace loom::fmm::parallel
