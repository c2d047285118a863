// `loom fmm`'s parameters and their typed configuration (config.hpp).
#include "loom/fmm/run/config.hpp"

#include <algorithm>
#include <cmath>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/output_file.hpp"

namespace loom::fmm {

void declare_parameters(io::Parameters& p) {
  p.add("n", 100000, "number of generated bodies").at_least(1);
  p.add("dist", "cube", "generated bodies: uniform in a cube, on a sphere, or Plummer")
      .one_of({"cube", "sphere", "plummer"});
  p.add("kernel", "laplace", "laplace: potential and gradient; biot-savart: velocity and stretching")
      .one_of({"laplace", "biot-savart"});
  p.add("p", 10, "expansion order (degrees 0..p-1)").at_least(1).at_most(max_order);
  p.add("theta", 0.4, "multipole acceptance criterion").greater_than(0).less_than(1);
  p.add("ncrit", 64, "most bodies per leaf").at_least(1);
  p.add("backend", "auto", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("precision", "single",
        "GPU P2P and M2L kernels: single (compensated float), single-fast (plain float P2P), double")
      .one_of({"single", "single-fast", "double"});
  p.add("samples", 1000, "targets checked against direct summation (0: no check; fewer for large n)").at_least(0);
  p.add("sigma", 0.0, "biot-savart: core radius (0: the mean spacing 2/n^(1/3))").at_least(0);
  p.add("guard", 6.0, "biot-savart: M2L only for cells this many sigma apart").at_least(0);
  p.add("periodic", false, "periodic box [-1, 1)^3 (dist cube; charges made neutral)");
  p.add("image_levels", 6, "periodic: image levels beyond the 3^3 near images").at_least(0);
  p.add("seed", 1, "seed of the generated bodies").at_least(0);
  p.add("input", "", "CSV file of bodies with header x,y,z,q (instead of generated bodies)");
  p.add("output", "",
        "write the results per body to this CSV file: potential,grad_x,grad_y,grad_z (laplace) or "
        "u_x,u_y,u_z,s_x,s_y,s_z (biot-savart: velocity, stretching)");
  p.add("json", "", "also write the run's figures as JSON to this file");
  p.add("repeat", 1, "evaluations under mpiexec -n N, repartitioned by their measured costs between them")
      .at_least(1)
      .at_most(1000);
  p.add("repartition_threshold", 1.1, "under mpiexec with repeat > 1: partition again when the cost imbalance exceeds this")
      .at_least(1)
      .at_most(1000);
  p.add("overwrite", false, "replace existing --output and --json files (never the --input file)");
}

namespace {

// The keys that depend on each other: an input file fixes the bodies; only Laplace reads or writes CSV files;
// the periodic box is the generated cube.
void check_combinations(const io::Parameters& p, const FmmConfig& c) {
  const bool laplace = c.kernel == Kernel::laplace;
  if (!c.bodies.input.empty()) {
    for (const char* key : {"n", "dist", "periodic"})
      if (p.user_set(key))
        throw UsageError(std::string(key) + ": does not apply with --input (the bodies come from the file)");
    if (!laplace) throw UsageError("kernel = \"biot-savart\": input files hold charges x,y,z,q; use kernel laplace");
  }
  // Keys of another kernel or of the periodic box: refused, not silently ignored.
  struct Applies {
    const char* key;
    bool used;
    const char* otherwise;
  };
  const Applies applies[] = {{"sigma", !laplace, "no value with kernel laplace (biot-savart only)"},
                             {"guard", !laplace, "no value with kernel laplace (biot-savart only)"},
                             {"image_levels", p.get_bool("periodic"), "no value without periodic = true"},
                             {"repartition_threshold", p.get_int("repeat") > 1, "no value without repeat > 1"}};
  for (const Applies& a : applies)
    if (p.user_set(a.key) && !a.used) throw UsageError(io::invalid_value_message(a.key, p.value(a.key), a.otherwise));
  if (c.options.periodic && c.bodies.distribution != Distribution::cube)
    throw UsageError("periodic = true: needs dist = \"cube\" (the box [-1, 1)^3)");
}

}  // namespace

FmmConfig make_config(const io::Parameters& p) {
  FmmConfig c;
  c.kernel = parse_kernel(p.get_string("kernel"));
  Options& o = c.options;
  o.order = static_cast<int>(p.get_int("p"));
  o.theta = p.get_real("theta");
  o.ncrit = static_cast<int>(p.get_int("ncrit"));
  o.backend = core::parse_backend(p.get_string("backend"), "backend");
  o.precision = parse_precision(p.get_string("precision"));
  o.guard = p.get_real("guard");
  c.bodies.input = p.get_string("input");
  c.bodies.n = p.get_int("n");
  c.bodies.distribution = parse_distribution(p.get_string("dist"));
  c.bodies.seed = static_cast<std::uint64_t>(p.get_int("seed"));
  if (c.bodies.input.empty() && p.get_bool("periodic")) {
    o.periodic = true;
    o.period = 2;
    o.box_lower = {-1, -1, -1};
    o.image_levels = static_cast<int>(p.get_int("image_levels"));
  }
  c.samples = p.get_int("samples");
  c.repeat = static_cast<int>(p.get_int("repeat"));
  c.repartition_threshold = p.get_real("repartition_threshold");
  c.output = p.get_string("output");
  c.json = p.get_string("json");
  io::check_output_file("output", c.output);
  io::check_output_file("json", c.json);
  check_combinations(p, c);
  const bool overwrite = p.get_bool("overwrite");
  io::check_output_file({"output", c.output}, overwrite, "overwrite", {{"input", c.bodies.input}});
  io::check_output_file({"json", c.json}, overwrite, "overwrite", {{"input", c.bodies.input}, {"output", c.output}});
  c.sigma = p.get_real("sigma") > 0 ? p.get_real("sigma") : 2.0 / std::cbrt(double(std::max<Index>(c.bodies.n, 1)));
  validate(o);
  return c;
}

}  // namespace loom::fmm
