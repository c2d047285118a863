// Bodies from and results to CSV files, for `loom fmm --input bodies.csv --output result.csv`: the input has a
// header row `x,y,z,q` and one body per row; the output a header row `potential,grad_x,grad_y,grad_z` and one
// row per body in input order. A malformed row is a UsageError naming the file and line (exit 2 in the CLI).
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "loom/fmm/real.hpp"

namespace loom::fmm {

struct ChargedBodies {
  std::vector<Vec3d> positions;
  std::vector<double> charges;
};

ChargedBodies read_bodies_csv(const std::filesystem::path& path);
ChargedBodies parse_bodies_csv(std::string_view text, const std::string& name);  // name: for messages

// Written atomically (io::write_file_atomically); numbers in shortest round-trip form.
void write_laplace_csv(const std::filesystem::path& path, std::span<const double> potential,
                       std::span<const Vec3d> gradient);
// u_x,u_y,u_z,s_x,s_y,s_z per body: the Biot-Savart velocity and stretching, in the bodies' order.
void write_biot_savart_csv(const std::filesystem::path& path, std::span<const Vec3d> velocity,
                           std::span<const Vec3d> stretching);

}  // namespace loom::fmm
