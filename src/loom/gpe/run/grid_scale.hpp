// grid.scaling = equal_work: the structure scale at which a run does a given number of operations per time unit
// (Table 1 of the DEC-GPE paper), and that work for a lattice.
#pragma once

#include "loom/dec/crystal.hpp"
#include "loom/dec/equal_work.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::gpe {

// Operations per time unit, counted by `rule`, of a structure placed at scale s over the cuboid of half extent
// `half`, with the potential term bounded by the trap at the lattice's corner plus the peak nonlinear term.
double work_per_time_unit(dec::EqualWorkRule rule, dec::GridType grid, double s, dec::Vec3 half, double lambda,
                          double peak_nonlinear);
// The scale whose work_per_time_unit is `target`.
double equal_work_scale(dec::EqualWorkRule rule, dec::GridType grid, double target, dec::Vec3 half, double lambda,
                        double peak_nonlinear);

}  // namespace loom::gpe
