#include "loom/gpe/run/summary.hpp"

#include <string>

#include "loom/core/cuda_api.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::gpe {
namespace {

// The launch choices of the tuned variants, when they ran.
void launch_choices(const RunFigures& r, nlohmann::json& j) {
  if (r.config.backend != core::Backend::cuda) return;
  if (r.setup.kernel == LeapfrogKernel::soa) {
    const SoaTuning t = r.integrator.soa_tuning();
    j["soa_launch"] = {{"band_rows", t.band_rows},
                       {"vertices_per_thread", t.vertices_per_thread},
                       {"row_tiles", t.row_tiles},
                       {"ordered_tiles", t.ordered_tiles},
                       {"column_layers", t.column_layers}};
  }
  if (r.setup.kernel == LeapfrogKernel::march) {
    const MarchTiling t = r.integrator.march_tiling();
    j["march_launch"] = {
        {"tile_x", t.tile_x}, {"tile_y", t.tile_y}, {"layers_ahead", t.ahead}, {"pitched_rows", t.pitched_rows}};
    if (t.segment_layers > 0)
      j["march_launch"]["segment_layers"] = t.segment_layers;
    else
      j["march_launch"]["segment_layers"] = "balanced";
  }
}

// The lattice, the physics and the initial state.
void problem(const RunFigures& r, nlohmann::json& j) {
  const InitialSetup& s = r.setup;
  j["grid"] = std::string(dec::to_string(s.domain.grid));
  j["structures"] = {s.domain.lattice.nx, s.domain.lattice.ny, s.domain.lattice.nz};
  j["dof"] = s.domain.dof();
  j["scale"] = s.domain.scale;
  j["dual_edge"] = {{"min", s.domain.edges.min}, {"mean", s.domain.edges.mean}, {"max", s.domain.edges.max}};
  j["domain_extent"] = {s.domain.extent().x, s.domain.extent().y, s.domain.extent().z};
  j["physics"] = {{"lambda", s.physics.lambda}, {"g", s.physics.g}, {"kappa", s.kappa}};
  j["initial_type"] = std::string(to_string(r.config.initial.type));
  j["starter"] = s.starter;
  j["chemical_potential"] = s.mu_reference;
  if (s.vortex) {
    j["effective_wavelength"] = s.vortex->effective_wavelength();
    j["dual_edges_per_wavelength"] = s.vortex->effective_wavelength() / s.domain.edges.mean;
    j["max_dual_edge_over_wavelength"] = s.domain.edges.max / s.vortex->effective_wavelength();
    j["stationary_solver"] = {{"modes", {s.vortex->radial_modes(), s.vortex->axial_modes()}},
                              {"iterations", s.vortex->iterations()},
                              {"residual", s.vortex->residual()}};
  }
  if (r.config.initial.type == InitialType::ground)
    j["ground_state"] = {
        {"mu", s.relaxation.mu}, {"residual", s.relaxation.residual}, {"iterations", s.relaxation.iterations}};
}

}  // namespace

nlohmann::json summary_json(const RunFigures& r) {
  const InitialSetup& s = r.setup;
  nlohmann::json j;
  j["loom"] = loom::io::build_identity();
  j["backend"] = std::string(core::to_string(r.config.backend));
  j["kernel"] = std::string(to_string(s.kernel));
  if (r.config.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  launch_choices(r, j);
  j["ranks"] = r.ranks;
  if (r.distributed) j["halo_transport"] = std::string(r.integrator.halo_transport());
  problem(r, j);
  j["dt"] = s.dt;
  j["dt_bound"] = s.dt_bound;
  j["work_per_time_unit"] = s.work;
  j["equal_work_rule"] = std::string(dec::to_string(s.work_rule));
  j["steps"] = r.integrator.steps_done();
  j["t_end"] = r.integrator.time();
  j["initial"] = {{"norm", r.initial.norm}, {"energy", r.initial.energy()}, {"mu", r.initial.mu()}};
  j["final"] = {
      {"norm", r.final.norm}, {"energy", r.final.energy()}, {"mu", r.final.mu()}, {"max_abs_psi", r.final.max_abs}};
  j["norm_drift"] = r.final.norm / r.initial.norm - 1;
  j["energy_drift"] = r.final.energy() / r.initial.energy() - 1;
  j["splitting"] = r.splitting;
  j["wall_s"] = r.wall_s;
  j["stepping_s"] = r.stepping_s;
  j["dof_updates_per_s"] = r.stepping_s > 0 ? double(r.total_steps) * double(s.domain.dof()) / r.stepping_s : 0;
  if (!s.previous_input.empty()) j["restarted_from"] = r.config.initial.checkpoint;
  return j;
}

}  // namespace loom::gpe
