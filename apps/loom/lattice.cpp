// `loom lattice ...`: the DEC grids of the DEC-GPE paper as replicable structures. `loom lattice` prints one
// structure's facts (counts, volumes, dual edges, stability step, equal-work scale); `loom lattice dispersion`
// writes the Bloch dispersion and anisotropy of its Laplacian; `loom lattice export` writes it for ParaView.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "dispersion_plot.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/dec/dispersion.hpp"
#include "loom/dec/equal_work.hpp"
#include "loom/dec/grid_key.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/structure_facts.hpp"
#include "loom/dec/vtk_export.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/run_directory.hpp"
#include "loom/io/stop_signal.hpp"

namespace loom::app {
namespace {

void print_facts(const nlohmann::json& j) {
  const auto size = j["structure_size"].get<std::vector<double>>();
  std::cout << fmt::format("{} grid: {}\n", dec::display_name(dec::parse_grid_type(j["grid"].get<std::string>())),
                           j["source"].get<std::string>());
  std::cout << fmt::format(
      "structure: {:.6g} x {:.6g} x {:.6g} (unit cell), {} primal vertices, {} primal 3-cells "
      "(m_s dual vertices, the unknowns)\n",
      size[0], size[1], size[2], j["primal_vertices"].get<int>(), j["cells_per_structure"].get<int>());
  std::cout << fmt::format("faces per cell: {}\n", fmt::join(j["faces_per_cell"].get<std::vector<int>>(), ", "));
  std::cout << fmt::format("cell volumes |B|: {:.6g} .. {:.6g} (sum {:.6g} = structure volume {:.6g})\n",
                           j["cell_volume_min"].get<double>(), j["cell_volume_max"].get<double>(),
                           j["cell_volume_sum"].get<double>(), j["structure_volume"].get<double>());
  std::cout << fmt::format("dual edges |E*|: min {:.6g}, mean {:.6g}, max {:.6g} (over every face of every cell)\n",
                           j["dual_edge_min"].get<double>(), j["dual_edge_mean"].get<double>(),
                           j["dual_edge_max"].get<double>());
  std::cout << fmt::format("stability (eq. 11, no potential): max (1/|B|) sum |F|/|E*| = {:.6g}, dt < {:.6g}\n",
                           j["max_laplacian_diagonal"].get<double>(), j["stability_time_step"].get<double>());
  std::cout << fmt::format(
      "work per time unit and volume at unit scale: paper {:.6g} (F = {:.0f} faces per cell, largest Hodge weight "
      "{:.6g}; cubic: 18), eq. 11 {:.6g} (sum #J = {:.0f} per structure; cubic: 42)\n",
      j["work_per_time_unit"].get<double>(), j["face_count"].get<double>(), j["max_face_weight"].get<double>(),
      j["equal_work_eq11"]["work_per_time_unit"].get<double>(), j["operations_per_structure"].get<double>());
  std::cout << fmt::format(
      "equal work (paper): structure scale {:.4f}, dual edge {:.3f} (mean {:.3f}, min {:.3f}, max {:.3f}); "
      "eq. 11: scale {:.4f}, mean dual edge {:.3f}; the paper's Table 1: {:.2f}\n",
      j["equal_work_scale"].get<double>(), j["equal_work_dual_edge"].get<double>(),
      j["equal_work_dual_edge_mean"].get<double>(), j["equal_work_dual_edge_min"].get<double>(),
      j["equal_work_dual_edge_max"].get<double>(), j["equal_work_eq11"]["scale"].get<double>(),
      j["equal_work_eq11"]["dual_edge"].get<double>(), j["paper_table1_dual_edge"].get<double>());
  std::cout << "  (" << dec::equal_work_scale_definition << ")\n";
}

int run_lattice(const io::Parameters& p) {
  const auto& s = dec::replicable_structure(dec::grid_type(p));
  const auto j = dec::structure_facts(s);
  if (p.get_bool("json"))
    std::cout << j.dump(2) << "\n";
  else
    print_facts(j);
  return 0;
}

std::filesystem::path run_path(const io::Parameters& p, const std::string& command) {
  const std::string& dir = p.get_string("output.dir");
  return dir.empty() ? io::RunDirectory::default_path(command) : std::filesystem::path(dir);
}

io::RunDirectory open_run(const io::Parameters& p, const std::filesystem::path& path) {
  auto run = io::RunDirectory::create(path, p.get_bool("output.overwrite"));
  run.write_input(p);
  return run;
}

std::string dispersion_csv(const std::vector<std::pair<dec::GridType, dec::DispersionReport>>& reports) {
  std::ostringstream csv;
  csv.precision(12);
  csv << "grid,direction,kx,ky,kz,theta,phi,eigenvalue,ratio\n";
  for (const auto& [grid, r] : reports)
    for (std::size_t d = 0; d < r.samples.size(); ++d) {
      const auto& s = r.samples[d];
      const double theta = std::acos(std::clamp(s.direction.z, -1.0, 1.0));
      const double phi = std::atan2(s.direction.y, s.direction.x);
      csv << dec::to_string(grid) << ',' << d << ',' << r.k * s.direction.x << ',' << r.k * s.direction.y << ','
          << r.k * s.direction.z << ',' << theta << ',' << phi << ',' << s.eigenvalue << ',' << s.ratio << '\n';
    }
  return csv.str();
}

// The dispersion of `grid` and of the cubic grid at the same |k| times dual edge, the reference every other grid
// is compared with. A first SIGINT/SIGTERM ends the sweep at its next block of directions: then no reports, and
// the line that says so.
std::vector<std::pair<dec::GridType, dec::DispersionReport>> sweep(dec::GridType grid, double k_edge, int directions) {
  std::vector<dec::GridType> grids = {grid};
  if (grid != dec::GridType::cubic) grids.push_back(dec::GridType::cubic);
  const io::StopPolling polling;
  std::vector<std::pair<dec::GridType, dec::DispersionReport>> reports;
  for (const dec::GridType g : grids) {
    std::cerr << fmt::format("lattice dispersion: {} directions on the {} grid\n", directions, dec::to_string(g));
    reports.emplace_back(g, dec::measure_dispersion(dec::replicable_structure(g), k_edge, directions,
                                                    [] { return io::stop_signal() != 0; }));
    if (io::stop_signal() != 0) {
      std::cerr << fmt::format("lattice dispersion: stopped by {} during the {} sweep; nothing written\n",
                               io::signal_name(io::stop_signal()), dec::to_string(g));
      return {};
    }
  }
  return reports;
}

int run_dispersion(const io::Parameters& p) {
  const auto grid = dec::grid_type(p);
  const double k_edge = p.get_real("dispersion.k_edge");
  const std::int64_t asked = p.get_int("dispersion.directions");
  // Each direction keeps a sample (direction, eigenvalue, ratio) and a CSV row, for this grid and the cubic one.
  core::check_memory({1e8 + 2 * 200.0 * double(asked), 0}, false,
                     fmt::format("dispersion.directions = {}", asked));
  if (asked > std::numeric_limits<int>::max())
    throw UsageError(io::invalid_value_message("dispersion.directions", asked, "an integer in [2, 2147483647]"));
  const int directions = static_cast<int>(asked);
  // The run directory is made after the sweep, so that a stopped sweep leaves nothing; its rules are checked now.
  const std::filesystem::path path = run_path(p, "lattice-dispersion");
  io::check_run_directory("output.dir", path, p.get_bool("output.overwrite"));
  const auto reports = sweep(grid, k_edge, directions);
  if (reports.empty()) return io::stop_exit_code(io::stop_signal());
  auto run = open_run(p, path);
  run.write_text("dispersion.csv", dispersion_csv(reports));

  nlohmann::json summary;
  summary["definition"] =
      "ratio = (acoustic eigenvalue of the Bloch matrix V^-1/2 A(k) V^-1/2) / (-|k|^2), 1 exact; anisotropy = max - "
      "min of the ratio over directions of k at fixed |k| * mean dual edge";
  summary["k_edge"] = k_edge;
  summary["directions"] = directions;
  for (const auto& [g, r] : reports)
    summary["grids"][std::string(dec::to_string(g))] = {{"k", r.k},
                                                        {"mean_dual_edge", r.mean_dual_edge},
                                                        {"ratio_min", r.ratio_min},
                                                        {"ratio_max", r.ratio_max},
                                                        {"ratio_mean", r.ratio_mean},
                                                        {"anisotropy", r.anisotropy()}};
  summary["grid"] = std::string(dec::to_string(grid));
  summary["anisotropy"] = reports.front().second.anisotropy();

  const auto& r = reports.front().second;
  std::cout << fmt::format("{} dispersion at |k| * mean dual edge = {:g} ({} directions, |k| = {:.4g}):\n",
                           dec::display_name(grid), k_edge, directions, r.k);
  for (const auto& [g, rep] : reports)
    std::cout << fmt::format("  {:>5}: eigenvalue / -|k|^2 in [{:.6f}, {:.6f}], mean {:.6f}, anisotropy {:.3e}\n",
                             dec::display_name(g), rep.ratio_min, rep.ratio_max, rep.ratio_mean, rep.anisotropy());
  if (p.get_bool("plot")) {
    const std::string why = plot_dispersion(run.file("dispersion.csv"), run.file("dispersion.png"));
    if (why.empty())
      summary["plot"] = "dispersion.png";
    else
      std::cerr << why << "\n";
  }
  run.write_summary(summary);
  std::cerr << "wrote " << run.path().string() << "\n";
  return 0;
}

int run_export(const io::Parameters& p) {
  const auto grid = dec::grid_type(p);
  const auto& unit = dec::replicable_structure(grid);
  const dec::ReplicableStructure s = p.get_bool("export.equal_work") ? unit.scaled(dec::equal_work_scale(unit)) : unit;
  auto run = open_run(p, run_path(p, "lattice-export"));
  const auto files = dec::write_structure_vtk(run.file(std::string(dec::to_string(grid))), s);
  run.write_summary(dec::structure_facts(unit));
  std::cout << fmt::format("{} structure (scale {:.4g}): {}, {}\n", dec::display_name(grid), s.scale,
                           files.primal.string(), files.dual.string());
  return 0;
}

void add_output_keys(io::Parameters& p) {
  p.add("output.dir", "", "run directory (default runs/<command>-<date>-<time>)");
  p.add("output.overwrite", false, "write into an existing non-empty run directory");
}

}  // namespace

void add_lattice_commands(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  dec::add_grid_type_key(p, "the crystal lattice");
  p.add("json", false, "print one JSON object instead of text");
  auto lattice = std::make_unique<io::ParameterCommand>(
      app, "lattice", "DEC crystal lattices: a grid's replicable structure, dispersion, export", std::move(p), false);
  CLI::App& parent = lattice->app();
  out.push_back({std::move(lattice), run_lattice});

  io::Parameters d;
  dec::add_grid_type_key(d, "the crystal lattice");
  // Beyond pi a wave has fewer than two dual edges per wavelength: the lattice cannot carry it.
  d.add("dispersion.k_edge", 0.5, "|k| times the grid's mean dual edge length").greater_than(0).at_most(M_PI);
  d.add("dispersion.directions", 400, "directions of k, spread over the sphere").at_least(2);
  d.add("plot", true, "also plot dispersion.png (needs /usr/bin/python3 with matplotlib)");
  add_output_keys(d);
  out.push_back({std::make_unique<io::ParameterCommand>(
                     parent, "dispersion", "Bloch dispersion and anisotropy of the grid's Laplacian", std::move(d)),
                 run_dispersion});

  io::Parameters e;
  dec::add_grid_type_key(e, "the crystal lattice");
  e.add("export.equal_work", false, "export at the equal-work scale instead of the unit cell");
  add_output_keys(e);
  out.push_back({std::make_unique<io::ParameterCommand>(parent, "export",
                                                        "Write one structure (cells and dual graph) as VTK for "
                                                        "ParaView",
                                                        std::move(e)),
                 run_export});
}

}  // namespace loom::app
