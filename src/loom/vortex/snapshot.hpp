// Particle snapshots for ParaView: positions as XDMF points with the strengths alpha, |alpha| and the core radii.
#pragma once

#include <filesystem>
#include <string>

#include "loom/vortex/particles.hpp"

namespace loom::vortex {

// Writes `h5_path` and its XDMF sidecar; returns the XDMF <Grid> element for the collection.
std::string write_particle_snapshot(const std::filesystem::path& h5_path, const Particles& p, double t);

}  // namespace loom::vortex
