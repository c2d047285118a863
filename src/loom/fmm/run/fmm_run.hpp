// One `loom fmm` run, the FMM's run object: prepare (the bodies, generated or read), evaluate (one FMM
// evaluation, timed by phase), check (the relative L2 errors against a reference sum on sampled targets),
// write (the results' CSV file and the JSON summary). run_fmm does all four, printing what `loom fmm` prints.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loom/fmm/fmm.hpp"
#include "loom/fmm/run/checks.hpp"
#include "loom/fmm/run/config.hpp"

namespace loom::fmm {

class FmmRun {
 public:
  explicit FmmRun(FmmConfig config);

  // The bodies; a periodic run's strengths are made neutral (periodic sums need sum q = 0, sum alpha = 0).
  void prepare();
  void evaluate();
  // Errors against the reference; skipped (with a reason) when no reference applies.
  void check();
  void write(std::ostream& log) const;  // the files asked for; names them on `log`

  const FmmConfig& config() const { return c_; }
  Index bodies() const { return static_cast<Index>(x_.size()); }
  const std::string& source() const { return source_; }  // the input file, or the distribution's name
  Index coincident() const { return coincident_; }  // bodies at the position of another (their pairs add nothing)
  const Timings& timings() const;
  const Statistics& statistics() const;
  const std::optional<LaplaceErrors>& laplace_errors() const { return laplace_errors_; }
  const std::optional<BiotSavartErrors>& biot_savart_errors() const { return biot_savart_errors_; }
  Index checked_targets() const { return checked_; }
  const std::string& unchecked_reason() const { return unchecked_; }  // empty when checked or not asked
  nlohmann::json summary() const;

  // For an evaluation made elsewhere (the FMM over MPI ranks, fmm/parallel/ranks_run.hpp): the bodies in input
  // order, and the results (in that order) to check and write as evaluate()'s; `extra` is merged into summary().
  const std::vector<Vec3d>& positions() const { return x_; }
  const std::vector<double>& charges() const { return q_; }
  const std::vector<Vec3d>& alpha() const { return alpha_; }
  const std::vector<double>& sigma() const { return sigma_; }
  void set_result(LaplaceResult r) { laplace_ = std::move(r); }
  void set_result(BiotSavartResult r) { biot_savart_ = std::move(r); }
  void add_to_summary(nlohmann::json extra) { extra_ = std::move(extra); }

 private:
  FmmConfig c_;
  std::string source_;
  std::vector<Vec3d> x_, alpha_;
  std::vector<double> q_, sigma_;
  LaplaceResult laplace_;
  BiotSavartResult biot_savart_;
  std::optional<LaplaceErrors> laplace_errors_;
  std::optional<BiotSavartErrors> biot_savart_errors_;
  Index checked_ = 0, coincident_ = 0;
  std::string unchecked_;
  nlohmann::json extra_;
};

// prepare, evaluate, check, write; the run's figures on `out`, the files written on `log`. Returns 0.
int run_fmm(const FmmConfig& config, std::ostream& out, std::ostream& log);

}  // namespace loom::fmm
