// The FMM's run object (fmm_run.hpp).
#include "loom/fmm/run/fmm_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <tuple>

#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/fmm/body_file.hpp"
#include "loom/fmm/run/memory_need.hpp"
#include "loom/fmm/run/report.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::fmm {

namespace {

// Bodies that share their position with another: a pair at distance 0 has no finite interaction, and both the
// FMM and the direct sums leave it out, so the user is told how many there are.
Index count_coincident(std::vector<Vec3d> x) {
  auto key = [](const Vec3d& a) { return std::tie(a.x, a.y, a.z); };
  std::sort(x.begin(), x.end(), [&](const Vec3d& a, const Vec3d& b) { return key(a) < key(b); });
  Index count = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if ((i > 0 && key(x[i]) == key(x[i - 1])) || (i + 1 < x.size() && key(x[i]) == key(x[i + 1]))) ++count;
  return count;
}

}  // namespace

FmmRun::FmmRun(FmmConfig config) : c_(std::move(config)) {}

void FmmRun::prepare() {
  const auto& b = c_.bodies;
  if (!b.input.empty()) {
    auto bodies = read_bodies_csv(b.input);
    x_ = std::move(bodies.positions);
    q_ = std::move(bodies.charges);
    source_ = b.input;
    coincident_ = count_coincident(x_);
    return;
  }
  core::check_memory(memory_need(c_), c_.options.backend == core::Backend::cuda, fmt::format("n = {}", b.n));
  x_ = make_positions(b.distribution, b.n, b.seed);
  source_ = std::string(to_string(b.distribution));
  if (c_.kernel == Kernel::laplace) {
    q_ = make_uniform(b.n, -1, 1, b.seed + 1);
    if (c_.options.periodic) {
      double mean = 0;
      for (double v : q_) mean += v / double(b.n);
      for (double& v : q_) v -= mean;
    }
    return;
  }
  alpha_ = make_uniform_vectors(b.n, -1, 1, b.seed + 2);
  sigma_.assign(static_cast<std::size_t>(b.n), c_.sigma);
  if (c_.options.periodic) {
    Vec3d mean{};
    for (const auto& a : alpha_) mean += (1.0 / double(b.n)) * a;
    for (auto& a : alpha_) a -= mean;
  }
}

void FmmRun::evaluate() {
  if (c_.kernel == Kernel::laplace)
    laplace_ = laplace(x_, q_, c_.options);
  else
    biot_savart_ = biot_savart(x_, alpha_, sigma_, c_.options);
}

void FmmRun::check() {
  const Index n = bodies();
  auto targets = reference_targets(n, c_.samples, default_reference_pairs(c_.kernel));
  if (targets.empty()) return;
  if (c_.kernel == Kernel::biot_savart && c_.options.periodic) {
    unchecked_ = "no periodic Biot-Savart reference in the tool";
    return;
  }
  if (c_.options.periodic && n > max_ewald_bodies) {
    unchecked_ = fmt::format("the Ewald reference is limited to n <= {}", max_ewald_bodies);
    return;
  }
  checked_ = static_cast<Index>(targets.size());
  if (c_.kernel == Kernel::laplace)
    laplace_errors_ = errors(laplace_, laplace_reference(x_, q_, std::move(targets), c_.options));
  else
    biot_savart_errors_ = errors(biot_savart_, biot_savart_reference(x_, alpha_, sigma_, std::move(targets)));
}

const Timings& FmmRun::timings() const { return c_.kernel == Kernel::laplace ? laplace_.time : biot_savart_.time; }
const Statistics& FmmRun::statistics() const {
  return c_.kernel == Kernel::laplace ? laplace_.stats : biot_savart_.stats;
}

void FmmRun::write(std::ostream& log) const {
  if (!c_.output.empty()) {
    if (c_.kernel == Kernel::laplace)
      write_laplace_csv(c_.output, laplace_.potential, laplace_.gradient);
    else
      write_biot_savart_csv(c_.output, biot_savart_.velocity, biot_savart_.stretching);
    log << "wrote " << c_.output << "\n";
  }
  if (!c_.json.empty()) {
    io::write_file_atomically(c_.json, summary().dump(2) + "\n");
    log << "wrote " << c_.json << "\n";
  }
}

nlohmann::json FmmRun::summary() const {
  const Options& o = c_.options;
  nlohmann::json j;
  j["loom"] = loom::io::build_identity();
  j["bodies"] = bodies();
  j["source"] = source_;
  j["kernel"] = std::string(to_string(c_.kernel));
  j["p"] = o.order;
  j["theta"] = o.theta;
  j["ncrit"] = o.ncrit;
  j["backend"] = std::string(core::to_string(o.backend));
  j["precision"] = std::string(o.backend == core::Backend::cuda ? to_string(o.precision) : "double");
  j["periodic"] = o.periodic;
  if (c_.kernel == Kernel::biot_savart) j["sigma"] = c_.sigma;
  j["timings"] = timings_json(timings());
  const Statistics& s = statistics();
  j["stats"] = {{"cells", s.cells},
                {"m2l_pairs", s.m2l_pairs},
                {"p2p_pairs", s.p2p_pairs},
                {"p2p_interactions", s.p2p_interactions}};
  if (laplace_errors_)
    j["errors"] = {
        {"targets", checked_}, {"potential", laplace_errors_->potential}, {"gradient", laplace_errors_->gradient}};
  if (biot_savart_errors_)
    j["errors"] = {{"targets", checked_},
                   {"velocity", biot_savart_errors_->velocity},
                   {"stretching", biot_savart_errors_->stretching}};
  if (extra_.is_object()) j.update(extra_);
  return j;
}

namespace {

// A stop signal seen at a phase boundary: the run ends there, before anything is written (the one-line reason on
// `log`, 128 + signal as the exit code); 0 when the run goes on.
int stopped_after(const char* phase, const FmmConfig& c, std::ostream& log) {
  const int signal = io::stop_signal();
  if (signal == 0) return 0;
  const std::string outputs = c.output.empty() && c.json.empty() ? "no output was asked for" : "no output written";
  log << fmt::format("fmm: stopped by {} after {}; {}\n", io::signal_name(signal), phase, outputs);
  return io::stop_exit_code(signal);
}

}  // namespace

int run_fmm(const FmmConfig& config, std::ostream& out, std::ostream& log) {
  if (config.repeat > 1)  // one process has nothing to repartition
    throw UsageError("repeat = " + std::to_string(config.repeat) +
                     ": expected 1 on one process (more only under mpiexec -n N, N > 1)");
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run at the next phase boundary
  FmmRun run(config);
  run.prepare();
  if (run.coincident() > 0)
    log << fmt::format("warning: {} bodies share their position with another; pairs at distance 0 are left out\n",
                       run.coincident());
  // The start line comes after the set-up's stop check: once it is printed, the next boundary a signal waits
  // for is the end of the evaluation (a signal seen between the line and the check would end the run first).
  if (const int code = stopped_after("setting up the bodies", config, log)) return code;
  print_start(out, run);
  out << std::flush;  // say so before the long evaluation
  run.evaluate();
  print_evaluation(out, run);
  if (const int code = stopped_after("the evaluation", config, log)) return code;
  run.check();
  print_check(out, run);
  if (const int code = stopped_after("the check against direct sums", config, log)) return code;
  run.write(log);
  return 0;
}

}  // namespace loom::fmm
