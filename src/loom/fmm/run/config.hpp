// `loom fmm`'s typed configuration, built once at the edge from the parameter registry: declare_parameters
// declares each key once (default, allowed values, help), make_config reads them into enums and numbers and
// validates the keys that depend on each other. Past make_config no string key is read.
#pragma once

#include <cstdint>
#include <string>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/io/parameters.hpp"

namespace loom::fmm {

struct FmmConfig {
  Kernel kernel = Kernel::laplace;
  Options options;  // the evaluator's: p, theta, ncrit, backend, precision, guard, the periodic box
  // The bodies: generated (n, distribution, seed; charges, or Biot-Savart strengths, uniform in [-1, 1)) or
  // read from a CSV file of charges (input).
  struct Bodies {
    Index n = 0;
    Distribution distribution = Distribution::cube;
    std::uint64_t seed = 1;
    std::string input;  // empty: generated
  } bodies;
  double sigma = 0;    // Biot-Savart core radius (resolved: the mean spacing 2/n^(1/3) unless given)
  Index samples = 0;   // targets checked against a reference sum (0: no check)
  std::string output;  // Laplace: potential and gradient per body to this CSV file
  std::string json;    // the run's figures as JSON to this file
  // Under mpiexec: evaluations, partitioned again by their measured costs between them when imbalanced
  // (fmm/parallel/rebalance.hpp); one process evaluates once.
  int repeat = 1;
  double repartition_threshold = 1.1;
};

void declare_parameters(io::Parameters& p);
// Throws UsageError naming the key, the value and what is allowed.
FmmConfig make_config(const io::Parameters& p);

}  // namespace loom::fmm
