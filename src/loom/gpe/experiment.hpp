// `loom gpe`: the DEC Gross-Pitaevskii run of the DEC-GPE paper, from the parameters to the run directory
// (input.toml, series.csv, summary.json, HDF5/XDMF fields, z = 0 slices, checkpoints, plots).
#pragma once

#include "loom/io/parameters.hpp"

namespace loom::gpe {

// Every key `loom gpe` accepts, with its default, allowed values and help.
io::Parameters gpe_parameters();

// Runs one experiment; throws UsageError for bad input before anything is written. Returns the exit code.
int run_gpe(const io::Parameters& params);

}  // namespace loom::gpe
