// `loom bench fmm --model_ranks ...` (bench_fmm_model.cpp): its parameters, declared with bench fmm's, and its run.
#pragma once

#include "loom/io/parameters.hpp"

namespace loom::app {

void declare_fmm_model_parameters(io::Parameters& p);
int run_fmm_model(const io::Parameters& p);

}  // namespace loom::app
