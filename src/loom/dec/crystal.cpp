// Wyckoff positions of the six crystals. Fractional coordinates are generated from each orbit's representative
// by the centring translations / listed symmetry images, reduced into [0, 1), then scaled to the cell.
#include "loom/dec/crystal.hpp"

#include <array>
#include <cmath>

#include "loom/core/error.hpp"

namespace loom::dec {
namespace {

constexpr std::array<GridType, 6> grids = {GridType::cubic, GridType::fcc, GridType::bcc,
                                           GridType::a15,   GridType::c15, GridType::z};

using Fraction3 = std::array<double, 3>;

double reduce(double f) {
  f -= std::floor(f);
  return f >= 1.0 - 1e-12 ? 0.0 : f;  // 1 - eps and 0 are the same site
}

// Adds the images of `sites` under the given translations (fractional), reduced into the unit cell.
void add_translated(std::vector<Fraction3>& out, const std::vector<Fraction3>& sites,
                    const std::vector<Fraction3>& translations) {
  for (const auto& s : sites)
    for (const auto& t : translations) out.push_back({reduce(s[0] + t[0]), reduce(s[1] + t[1]), reduce(s[2] + t[2])});
}

// Face-centred (F) lattice translations.
const std::vector<Fraction3> f_centring = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
const std::vector<Fraction3> no_centring = {{0, 0, 0}};

Crystal cubic_cell(GridType grid, std::string source, const std::vector<Fraction3>& fractions) {
  Crystal c{grid, std::move(source), {1, 1, 1}, {}};
  for (const auto& f : fractions) c.vertices.push_back({f[0], f[1], f[2]});
  return c;
}

}  // namespace

std::span<const GridType> all_grid_types() { return grids; }

std::string_view to_string(GridType grid) {
  switch (grid) {
    case GridType::cubic:
      return "cubic";
    case GridType::fcc:
      return "fcc";
    case GridType::bcc:
      return "bcc";
    case GridType::a15:
      return "a15";
    case GridType::c15:
      return "c15";
    case GridType::z:
      return "z";
  }
  return "?";
}

std::string_view display_name(GridType grid) {
  switch (grid) {
    case GridType::cubic:
      return "cubic";
    case GridType::fcc:
      return "FCC";
    case GridType::bcc:
      return "BCC";
    case GridType::a15:
      return "A15";
    case GridType::c15:
      return "C15";
    case GridType::z:
      return "Z";
  }
  return "?";
}

std::vector<std::string> grid_type_names() {
  std::vector<std::string> names;
  for (auto g : grids) names.emplace_back(to_string(g));
  return names;
}

std::optional<GridType> find_grid_type(std::string_view text) {
  for (auto g : grids)
    if (to_string(g) == text) return g;
  return std::nullopt;
}

Crystal make_crystal(GridType grid) {
  std::vector<Fraction3> f;
  switch (grid) {
    case GridType::cubic:
      // Simple cubic (Pm-3m, one site 1a at the origin).
      return cubic_cell(grid, "simple cubic, Pm-3m: 1a (0,0,0)", {{0, 0, 0}});
    case GridType::fcc:
      // Cu type, Fm-3m: 4a (0,0,0) plus the F translations.
      add_translated(f, {{0, 0, 0}}, f_centring);
      return cubic_cell(grid, "FCC (Cu type), Fm-3m: 4a (0,0,0) + F centring", f);
    case GridType::bcc:
      // W type, Im-3m: 2a (0,0,0) plus the body centre.
      add_translated(f, {{0, 0, 0}}, {{0, 0, 0}, {0.5, 0.5, 0.5}});
      return cubic_cell(grid, "BCC (W type), Im-3m: 2a (0,0,0) + I centring", f);
    case GridType::a15: {
      // Cr3Si type (A15), Pm-3n (No. 223): Si on 2a (0,0,0), (1/2,1/2,1/2); Cr on 6c (1/4,0,1/2), (3/4,0,1/2)
      // and their cyclic permutations (x,y,z) -> (z,x,y) -> (y,z,x): chains of Cr along the three axes.
      add_translated(f, {{0, 0, 0}, {0.5, 0.5, 0.5}}, no_centring);
      for (double u : {0.25, 0.75}) {
        const Fraction3 r = {u, 0, 0.5};
        add_translated(f, {r, {r[2], r[0], r[1]}, {r[1], r[2], r[0]}}, no_centring);
      }
      return cubic_cell(grid, "A15 (Cr3Si type), Pm-3n: Si 2a, Cr 6c", f);
    }
    case GridType::c15:
      // MgCu2 type (cubic Laves phase C15), Fd-3m (No. 227), origin choice 1: Mg on 8a (0,0,0), (1/4,1/4,1/4)
      // + F (a diamond lattice); Cu on 16d (5/8,5/8,5/8), (5/8,7/8,7/8), (7/8,5/8,7/8), (7/8,7/8,5/8) + F:
      // regular Cu tetrahedra centred on the 8b sites (3/4,3/4,3/4) + F.
      add_translated(f, {{0, 0, 0}, {0.25, 0.25, 0.25}}, f_centring);
      add_translated(
          f, {{5. / 8, 5. / 8, 5. / 8}, {5. / 8, 7. / 8, 7. / 8}, {7. / 8, 5. / 8, 7. / 8}, {7. / 8, 7. / 8, 5. / 8}},
          f_centring);
      return cubic_cell(grid, "C15 (MgCu2 Laves type), Fd-3m origin 1: Mg 8a, Cu 16d", f);
    case GridType::z: {
      // Zr4Al3 type (the Frank-Kasper Z phase; C. G. Wilson, D. K. Thomas, F. J. Spooner, Acta Cryst. 13
      // (1960) 56), P6/mmm (No. 191), 7 atoms per hexagonal cell: Al on 3f (1/2,0,0), (0,1/2,0), (1/2,1/2,0)
      // (a kagome net, coordination 12); Zr on 2d (1/3,2/3,1/2), (2/3,1/3,1/2) (coordination 15) and on 2e
      // (0,0,z), (0,0,-z) (chains along c, coordination 14). Idealised: z = 1/4 (the chain evenly spaced) and
      // c/a = 1 (Zr4Al3 itself has c/a = 0.992).
      const double zr = z_phase_zr_height;
      const std::vector<Fraction3> hex = {{0.5, 0, 0},           {0, 0.5, 0}, {0.5, 0.5, 0}, {1. / 3, 2. / 3, 0.5},
                                          {2. / 3, 1. / 3, 0.5}, {0, 0, zr},  {0, 0, 1 - zr}};
      // Orthorhombic cell A = a1, B = a1 + 2 a2, C = c (a1 = (1,0,0), a2 = (-1/2, sqrt3/2, 0)); it holds the
      // hexagonal cell and its copy shifted by a1 + a2 = (1/2, sqrt3/2, 0).
      const double s3 = std::sqrt(3.0), c = z_phase_c_over_a;
      Crystal crystal{grid,
                      "Z (Zr4Al3 type, Frank-Kasper Z phase), P6/mmm: Al 3f, Zr 2d, Zr 2e (z = 1/4); c/a = 1",
                      {1, s3, c},
                      {}};
      for (const auto& h : hex)
        for (int copy = 0; copy < 2; ++copy) {
          const Vec3 p{h[0] - 0.5 * h[1] + 0.5 * copy, s3 / 2 * h[1] + s3 / 2 * copy, c * h[2]};
          crystal.vertices.push_back({reduce(p.x), s3 * reduce(p.y / s3), c * reduce(p.z / c)});
        }
      return crystal;
    }
  }
  throw Error("make_crystal: unknown grid");
}

}  // namespace loom::dec
