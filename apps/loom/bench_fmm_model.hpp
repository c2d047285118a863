// `loom bench fmm --model_ranks ...` and `loom bench fmm --ranks_bodies M` under mpiexec (bench_fmm_model.cpp):
// their parameters, declared with bench fmm's, and their runs (issue 22).
#pragma once

#include "loom/io/parameters.hpp"

namespace loom::app {

void declare_fmm_model_parameters(io::Parameters& p);
int run_fmm_model(const io::Parameters& p);
// The keys of the model and of the run over ranks given without their mode (model_ranks, ranks_bodies or
// mpiexec -n N > 1): UsageError naming the key, before any work.
void check_fmm_mode_keys(const io::Parameters& p);
// The FMM over this process's MPI ranks (fmm/parallel/ranks_bench.hpp); UsageError under mpiexec -n N > 1
// without ranks_bodies.
int run_fmm_ranks_bench(const io::Parameters& p);

}  // namespace loom::app
