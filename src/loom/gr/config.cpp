#include "loom/gr/config.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "loom/core/error.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::gr {

io::Parameters bh_parameters() {
  io::Parameters p;
  p.add("backend", "auto", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("quiet", false, "no progress lines on stderr");
  p.add("profile", false, "time each module (Jacobian, Deriv, Filter, GHEqns, ApplyBCs, Other) into summary.json");
  p.add("physics.mass", 1.0, "mass m of the hole (the run is in units of m: other masses only rescale it)")
      .greater_than(0)
      .at_most(1e6);
  p.add("physics.spin", "0.2,0.3,0.4", "dimensionless spin vector chi (three numbers, |chi| < 1)");
  p.add("grid.extents", "10,19,38", "points per shell N_r,N_theta,N_phi (N_phi = 2 N_theta)");
  p.add("grid.radii", "1.62,6,12", "shell boundaries in units of m, increasing (n + 1 numbers for n shells)");
  p.add("grid.map", "inverse",
        "radial map of every shell, or one per shell from the innermost (comma-separated): linear, log or inverse, "
        "the Chebyshev points uniform in r, ln r or 1/r. The default inverse resolves Kerr-Schild (nearly linear in "
        "1/r) near roundoff and removes the excision surface's drift (docs/gr.md, \"The radial map\")");
  p.add("filter.alpha", 36.0,
        "radial exponential filter exp(-alpha (k/k_max)^(2 order)) every step: the highest Chebyshev mode damped by "
        "exp(-alpha); 0: none. The default (alpha 36, order 32: SpEC's Chebyshev filter, only the top modes) delays "
        "a growing mode of the excision surface (docs/gr.md, \"The late burst\", \"The radial map\")")
      .at_least(0)
      .at_most(700);  // exp(-700) is near the smallest normal double: every mode above the first is gone
  p.add("filter.order", 32, "radial exponential filter: s in exp(-alpha (k/k_max)^(2s))").at_least(1);
  p.add("filter.target", "step",
        "what the radial and Y_lm filters act on: step (the state after each Runge-Kutta step, the default), stage "
        "(each stage's state and the step's) or rates (each stage's right-hand side, before the boundary terms)")
      .one_of({"step", "stage", "rates"});
  p.add("filter.l_keep", -1,
        "Y_lm truncation keeps l <= l_keep (-1: l_max - 1 for filter.angular scalar, l_max - 3 for tensor)")
      .at_least(-1);
  p.add("filter.angular", "tensor",
        "angular truncation at l_keep: tensor (the default: each spatial index on the triad n, m, conj(m), each "
        "component in spin-weighted sY_lm, a consistent truncation of the tensor; with it the paper's case runs "
        "10^5 steps flat, docs/gr.md, \"The tensor filter\") or scalar (each Cartesian component in Y_lm)")
      .one_of({"scalar", "tensor"});
  p.add("damping.gamma0", 3.0, "gauge-constraint damping gamma0 = 0.001 + damping.gamma0 exp(-r^2/128) (LSKOR eq. 36)")
      .at_least(0)
      .at_most(100);
  p.add("damping.gamma1", 0.0,
        "gamma1 of LSKOR eq. 35: 0 carries C_iab along the shift, into the hole through the excision surface; "
        "SpEC's -1 leaves it at speed 0, where it grew (docs/gr.md, \"The late instability\")")
      .at_least(-1)
      .at_most(10);
  p.add("damping.gamma2", 1.0, "three-index damping gamma2 = 0.001 + damping.gamma2 exp(-r^2/128) (LSKOR eq. 37)")
      .at_least(0)
      .at_most(100);
  p.add("boundary.outer", "penalty",
        "outer boundary: frozen (incoming characteristic fields held at Kerr-Schild) or bjorhus (constraint-"
        "preserving conditions on u^psi, u^0 and the gauge-constraint part of u^-, the rest frozen; docs/gr.md) or "
        "penalty (the default: the frozen data imposed in penalty form on the rates)")
      .one_of({"frozen", "bjorhus", "penalty"});
  p.add("boundary.interface", "penalty",
        "shell interface: penalty (the default; SAT: the incoming characteristic rates pulled towards the other "
        "shell's values at |speed| / w, w the radial end weight) or upwind (those rates replaced by the other's)")
      .one_of({"upwind", "penalty"});
  p.add("initial.type", "kerr_schild", "initial data: kerr_schild (the exact solution) or checkpoint")
      .one_of({"kerr_schild", "checkpoint"});
  p.add("initial.file", "", "checkpoint.h5 of loom bh for initial.type = checkpoint");
  p.add("time.t_end", 10.0, "end time in units of m").greater_than(0);
  p.add("time.cfl", 0.25, "dt = time.cfl times the smallest grid spacing").greater_than(0).at_most(1);
  p.add("time.dt", 0.0, "fixed time step; 0: from time.cfl").at_least(0);
  io::declare_run_directory_keys(p, "bh");
  p.add("output.every", 0.0, "time between rows of series.csv; 0: t_end / 100").at_least(0);
  p.add("output.fields", true, "write HDF5 + XDMF fields of the shells (constraints and error per point)");
  p.add("output.fields_every", 0.0, "time between field snapshots; 0: initial and final only").at_least(0);
  return p;
}

namespace {

std::vector<double> numbers(const io::Parameters& p, const std::string& key, const std::string& what) {
  std::vector<double> out;
  std::stringstream in(p.get_string(key));
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || item.find_first_not_of(" ", used) != std::string::npos || !std::isfinite(v))
      throw UsageError(io::invalid_value_message(key, p.value(key), what));
    out.push_back(v);
  }
  return out;
}

KerrSchild hole(const io::Parameters& p) {
  const char* what = "three comma-separated numbers chi_x,chi_y,chi_z with |chi| < 1";
  const auto chi = numbers(p, "physics.spin", what);
  if (chi.size() != 3 || chi[0] * chi[0] + chi[1] * chi[1] + chi[2] * chi[2] >= 1)
    throw UsageError(io::invalid_value_message("physics.spin", p.value("physics.spin"), what));
  return {p.get_real("physics.mass"), {chi[0], chi[1], chi[2]}};
}

// grid.map: one of linear, log, inverse for every shell, or one per shell from the innermost.
std::vector<spectral::RadialMap> radial_maps(const io::Parameters& p, std::size_t shells) {
  const std::string what = fmt::format(
      "linear, log or inverse (every shell), or {} of them comma-separated (one per shell from the innermost)", shells);
  std::vector<spectral::RadialMap> maps;
  const std::string text = p.get_string("grid.map");
  std::stringstream in(text);
  std::string item;
  try {
    while (std::getline(in, item, ',')) maps.push_back(spectral::parse_radial_map(item, "grid.map"));
  } catch (const UsageError&) {
    maps.clear();
  }
  if (maps.empty() || (maps.size() != 1 && maps.size() != shells) || text.back() == ',')
    throw UsageError(io::invalid_value_message("grid.map", p.value("grid.map"), what));
  return maps;
}

GhGeometry geometry(const io::Parameters& p) {
  const std::string extents_what = fmt::format(
      "three integers N_r,N_theta,N_phi with {} <= N_r <= {}, {} <= N_theta <= {} and N_phi = 2 N_theta",
      min_radial_points, max_radial_points, min_theta_points, max_theta_points);
  const auto e = numbers(p, "grid.extents", extents_what);
  if (e.size() != 3 || e[0] != std::floor(e[0]) || e[1] != std::floor(e[1]) || e[0] < min_radial_points ||
      e[1] < min_theta_points || e[2] != 2 * e[1] || e[0] > max_radial_points ||
      e[1] > max_theta_points)
    throw UsageError(io::invalid_value_message("grid.extents", p.value("grid.extents"), extents_what));
  GhGeometry g;
  g.extents = {int(e[0]), int(e[1]), int(e[2])};
  const char* radii_what = "at least two increasing positive numbers (the shells' boundaries)";
  g.radii = numbers(p, "grid.radii", radii_what);
  const std::string outer = p.get_string("boundary.outer");
  g.outer = outer == "bjorhus" ? OuterBoundary::bjorhus : outer == "penalty" ? OuterBoundary::penalty : OuterBoundary::frozen;
  g.interface = p.get_string("boundary.interface") == "penalty" ? InterfaceCoupling::penalty : InterfaceCoupling::upwind;
  const std::string target = p.get_string("filter.target");
  g.filter_target = target == "rates" ? FilterTarget::rates : target == "stage" ? FilterTarget::stage : FilterTarget::step;
  g.angular_filter = spectral::parse_angular_filter(p.get_string("filter.angular"), "filter.angular");
  g.damping.gamma0 = p.get_real("damping.gamma0");
  g.damping.gamma1 = p.get_real("damping.gamma1");
  g.damping.gamma2 = p.get_real("damping.gamma2");
  bool ok = g.radii.size() >= 2 && g.radii[0] > 0;
  for (std::size_t i = 1; i < g.radii.size(); ++i) ok = ok && g.radii[i] > g.radii[i - 1];
  if (!ok) throw UsageError(io::invalid_value_message("grid.radii", p.value("grid.radii"), radii_what));
  g.maps = radial_maps(p, g.radii.size() - 1);
  return g;
}

}  // namespace

BhConfig make_bh_config(const io::Parameters& p) {
  BhConfig c;
  c.backend = core::parse_backend(p.get_string("backend"), "backend");
  c.quiet = p.get_bool("quiet");
  c.profile = p.get_bool("profile");
  c.hole = hole(p);
  c.geometry = geometry(p);
  c.filter.alpha = p.get_real("filter.alpha");
  c.filter.half_order = static_cast<int>(p.get_int("filter.order"));
  c.filter.l_keep = static_cast<int>(p.get_int("filter.l_keep"));
  if (c.filter.l_keep > c.geometry.extents[1] - 1)
    throw UsageError(io::invalid_value_message("filter.l_keep", p.value("filter.l_keep"),
                                               fmt::format("-1 or an integer in [0, {}] (l_max = N_theta - 1)",
                                                           c.geometry.extents[1] - 1)));
  // The tensor filter above l_max - 3 keeps rank-3 tensor harmonics whose Cartesian components the Y_lm
  // derivatives do not resolve: on the H200 (paper's case) l_keep 17 stopped at t = 13.3, 16 at t = 29.4
  // (docs/gr.md, "The tensor filter").
  const int tensor_top = c.geometry.extents[1] - 1 - spectral::max_spin_rank;
  if (c.geometry.angular_filter == spectral::AngularFilter::tensor && c.filter.l_keep > tensor_top)
    throw UsageError(io::invalid_value_message(
        "filter.l_keep", p.value("filter.l_keep"),
        fmt::format("-1 or an integer in [0, {}] with filter.angular tensor (l_max - 3; filter.angular scalar "
                    "allows up to l_max = {})",
                    tensor_top, c.geometry.extents[1] - 1)));
  c.initial = p.get_string("initial.type") == "checkpoint" ? InitialType::checkpoint : InitialType::kerr_schild;
  c.initial_file = p.get_string("initial.file");
  if (c.initial == InitialType::kerr_schild && !c.initial_file.empty())
    io::refuse_unread_keys(p, {"initial.file"}, "unless initial.type = checkpoint");
  if (c.initial == InitialType::checkpoint && c.initial_file.empty())
    throw UsageError("initial.file = \"\": initial.type = checkpoint needs a checkpoint.h5 of loom bh");
  c.time = {p.get_real("time.t_end"), p.get_real("time.cfl"), p.get_real("time.dt")};
  c.output.dir = p.get_string("output.dir");
  c.output.overwrite = p.get_bool("output.overwrite");
  c.output.every = p.get_real("output.every");
  c.output.fields = p.get_bool("output.fields");
  c.output.fields_every = p.get_real("output.fields_every");
  io::check_output_period("output.every", c.output.every, c.time.t_end);
  io::check_output_period("output.fields_every", c.output.fields_every, c.time.t_end);
  c.output.checkpoint_every = p.get_real("output.checkpoint_every");
  c.output.plots = p.get_bool("output.plots");
  return c;
}

}  // namespace loom::gr
