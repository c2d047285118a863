#include "loom/gpe/parallel/rank_outputs.hpp"

#include <array>
#include <exception>
#include <filesystem>

#include "loom/core/error.hpp"

namespace loom::gpe {

std::optional<io::RunDirectory> create_run_directory(const std::string& dir, bool overwrite,
                                                     const std::string& effective_input,
                                                     const comm::Communicator& world,
                                                     const std::vector<io::NamedPath>& inputs) {
  auto create = [&] {
    auto run = io::RunDirectory::create(
        dir.empty() ? io::RunDirectory::default_path("gpe") : std::filesystem::path(dir), overwrite, "output.dir",
        inputs);
    run.write_input(effective_input);
    return run;
  };
  if (world.size() == 1) return create();
  std::optional<io::RunDirectory> run;
  std::exception_ptr failure;
  if (world.is_root()) {
    try {
      run = create();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  std::array<double, 1> failed{failure ? 1.0 : 0.0};
  world.broadcast(failed, 0);
  if (failure) std::rethrow_exception(failure);
  if (failed[0] != 0) throw UsageError("the run directory could not be created on rank 0");
  return run;
}

const Complex* RootView::all(const core::Array<Complex>& local) {
  return layers(local, {0, slab_.global().lattice.nz - 1});
}

const Complex* RootView::layers(const core::Array<Complex>& local, std::pair<int, int> range) {
  if (!slab_.distributed()) return local.read(core::Where::host);
  if (slab_.comm().is_root()) buffer_.resize(static_cast<std::size_t>(slab_.global().dof()));
  slab_.gather_layers(local, range.first, range.second + 1, buffer_);
  return slab_.comm().is_root() ? buffer_.data() : nullptr;
}

std::vector<Complex> RootView::vector(const core::Array<Complex>& local) const {
  if (!slab_.distributed()) {
    const auto h = local.host();
    return {h.begin(), h.end()};
  }
  std::vector<Complex> out(slab_.comm().is_root() ? static_cast<std::size_t>(slab_.global().dof()) : 0);
  slab_.gather(local, out);
  return out;
}

}  // namespace loom::gpe
