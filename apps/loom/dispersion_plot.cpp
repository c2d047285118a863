// The dispersion plot through the shared plot-script runner of io/.
#include "dispersion_plot.hpp"

#include "loom/io/plot_script.hpp"

namespace loom::app {

std::string plot_dispersion(const std::filesystem::path& csv, const std::filesystem::path& png) {
  return io::run_plot_script("plot_lattice_dispersion.py", {csv.string(), png.string()});
}

}  // namespace loom::app
