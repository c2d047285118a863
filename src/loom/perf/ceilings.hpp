// Measured machine ceilings (`loom bench ceilings`): streaming bandwidth (copy, triad), FP64/FP32 FMA rates,
// DGEMM and a small strided-batched DGEMM, on each backend present. Later benchmarks measure the ceilings in
// the same run and report the fraction of them they reach (the spectral-BH paper's roofline method).
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/perf/timing.hpp"
#include "loom/perf/work.hpp"

namespace loom::perf {

enum class Metric { bandwidth, flops };  // what a ceiling's value measures: bytes/s or flop/s

struct Ceiling {
  core::Backend backend = core::Backend::cpu;
  std::string name;    // copy, triad, fma_fp64, fma_fp32, dgemm, dgemm_batched
  Metric metric = Metric::bandwidth;
  double value = 0;    // bytes/s or flop/s, from the median time
  Work work;           // per timed run
  TimingSummary time;  // per timed run
  std::string detail;  // sizes, library
};

struct CeilingOptions {
  double stream_bytes = 1.0 * (1u << 30);  // bytes per streamed array (GPU); the CPU uses a quarter
  int gemm_n = 8192;                       // DGEMM size on the GPU; the CPU uses gemm_n / 2
  int batch_n = 32;                        // matrix size of the batched DGEMM
  int batch_count = 16384;
  int warmup = 2;
  int repeats = 10;
  bool stream_only = false;  // copy and triad only (what bandwidth-bound benchmarks compare against)
};

// Smaller sizes for tests and quick looks (`loom bench ceilings --quick`).
CeilingOptions quick_ceiling_options();
// The host bytes the CPU's ceilings hold at once: three streamed arrays of a quarter of stream_bytes, or three
// DGEMM matrices of gemm_n / 2, whichever is larger (a benchmark that measures them first peaks at least here).
double cpu_ceilings_host_bytes(const CeilingOptions& options);

std::vector<Ceiling> measure_ceilings(core::Backend backend, const CeilingOptions& options);
std::vector<Ceiling> measure_cpu_ceilings(const CeilingOptions& options);
std::vector<Ceiling> measure_cuda_ceilings(const CeilingOptions& options);  // throws without CUDA

// The copy bandwidth a bandwidth-bound kernel is measured against: the larger of the copy kernel and cudaMemcpy
// where both were measured (the stricter reference).
std::optional<double> copy_bandwidth(const std::vector<Ceiling>& ceilings, core::Backend backend);

// Looks up a measured value; nullopt when absent.
std::optional<double> find_ceiling(const std::vector<Ceiling>& ceilings, core::Backend backend,
                                   const std::string& name);

nlohmann::json to_json(const std::vector<Ceiling>& ceilings);
void print_table(std::ostream& out, const std::vector<Ceiling>& ceilings);

}  // namespace loom::perf
