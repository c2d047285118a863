// Issue 21's accuracy budget: the FMM's parameters chosen for a gradient error target instead of the best error.
// A table of the Laplace gradient's relative L2 error (direct.hpp's metric) for uniform bodies over p in 4..8,
// theta in 0.5..0.7 and ncrit in 32..128, measured on the CPU with the same expansions and MAC as the GPU passes
// (tests/fmm/accuracy_table_main.cpp; the GPU's single-precision kernels add ~1e-6), and a cost model of the
// H200's resident evaluation calibrated on its measured P2P and M2L times; the cheapest row whose error is at
// most margin x target is chosen. A row's error grows slowly with n (x1.8 from 1e5 to 1e6 bodies), which the
// choice accounts for.
#pragma once

#include <string>

#include "loom/fmm/fmm.hpp"

namespace loom::fmm {

struct BudgetChoice {
  int order = 0;
  double theta = 0;
  int ncrit = 0;
  Precision precision = Precision::single;  // the CUDA P2P's (single-fast when its floor fits the budget)
  double error = 0;    // the table's gradient error of this row, at the n chosen for
  double seconds = 0;  // the cost model's estimate of the evaluation and lists on the H200 (tree build apart)
};

// The cheapest row for n bodies whose error is at most margin * target; UsageError (naming error_target) when
// no row meets it (targets below ~5e-6 / margin at 1e6) or the target or margin is not positive.
BudgetChoice choose_for_error(double target, Index n, double margin = 0.3);

// The cost model of the H200's resident evaluation, the tree build apart (the same for every row within 1.5 ms):
// P2P interactions at the measured rate (lower where leaves leave a block's threads idle), M2L pairs times p^2.5,
// the upward and downward passes per body times p^2, the lists; counts at n from the table's counts at 1e6
// bodies, scaled by the multisection's leaf size n / 2^ceil(log2(n / ncrit)).
double model_seconds(int order, double theta, int ncrit, Index n, Precision precision = Precision::single);

// The table's gradient error of one row at n bodies (p in 4..8, theta and ncrit of the table; UsageError otherwise).
double table_error(int order, double theta, int ncrit, Index n);

// The error the budget counts on for one row at n bodies: table_error, plus the uncompensated P2P's floor for
// single-fast.
double budget_error(int order, double theta, int ncrit, Index n, Precision precision);

// `o` with the choice's order, theta, ncrit and precision.
Options with_choice(Options o, const BudgetChoice& c);

// "p 8 theta 0.60 ncrit 64 single-fast (table error 2.8e-05, model 13.7 ms)".
std::string describe(const BudgetChoice& c);

}  // namespace loom::fmm
