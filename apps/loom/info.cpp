// `loom info`: what this build is and what it runs on (version, commit, backends, devices, MPI, libraries).
#include <H5public.h>
#include <cblas.h>
#include <fftw3.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/io/parameters.hpp"
#include "loom/core/version.hpp"

namespace loom::app {
namespace {

std::string version_text(int v) { return v ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : "none"; }

nlohmann::json collect_info() {
  nlohmann::json j;
  j["version"] = loom::core::loom_version();
  j["git_commit"] = loom::core::git_commit();
  j["build_type"] = loom::core::build_type();
  j["compiler"] = fmt::format("{} {}", "gcc", __VERSION__);
  j["cpu"] = {{"threads", core::cpu_threads()}};
  j["cuda"] = {{"built", cuda::built()},
               {"runtime", version_text(cuda::runtime_version())},
               {"driver", version_text(cuda::driver_version())}};
  auto devices = nlohmann::json::array();
  for (int d = 0; d < cuda::device_count(); ++d) {
    const auto info = cuda::device_info(d);
    devices.push_back({{"index", d},
                       {"name", info.name},
                       {"compute_capability", fmt::format("{}.{}", info.compute_major, info.compute_minor)},
                       {"multiprocessors", info.multiprocessors},
                       {"memory_bytes", info.total_memory},
                       {"free_memory_bytes", info.free_memory},
                       {"l2_bytes", info.l2_cache}});
  }
  j["cuda"]["devices"] = devices;
  std::vector<std::string> backends;
  for (auto b : core::available_backends()) backends.emplace_back(core::to_string(b));
  j["backends"] = backends;
  j["best_backend"] = std::string(core::to_string(core::best_backend()));
  j["mpi"] = {{"built", comm::mpi_built()},
              {"active", comm::mpi_active()},
              {"ranks", comm::Communicator::world().size()},
              {"library", comm::mpi_library_version()}};
  unsigned h5_major = 0, h5_minor = 0, h5_release = 0;
  H5get_libversion(&h5_major, &h5_minor, &h5_release);
  j["libraries"] = {{"hdf5", fmt::format("{}.{}.{}", h5_major, h5_minor, h5_release)},
                    {"fftw", std::string(fftw_version)},
                    {"openblas", std::string(openblas_get_config())},
                    {"fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)},
                    {"nlohmann_json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR,
                                                  NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH)},
                    {"cli11", std::string(CLI11_VERSION)},
                    {"tomlplusplus", io::toml_supported() ? "yes" : "no (input files disabled)"}};
  return j;
}

void print_info(const nlohmann::json& j) {
  std::cout << fmt::format("loom {} (commit {}, {} build, {})\n", j["version"].get<std::string>(),
                           j["git_commit"].get<std::string>(), j["build_type"].get<std::string>(),
                           j["compiler"].get<std::string>());
  std::cout << fmt::format("backends: {} (best: {})\n", fmt::join(j["backends"].get<std::vector<std::string>>(), ", "),
                           j["best_backend"].get<std::string>());
  std::cout << fmt::format("cpu: {} OpenMP threads\n", j["cpu"]["threads"].get<int>());
  if (!j["cuda"]["built"].get<bool>()) {
    std::cout << "cuda: not built\n";
  } else {
    std::cout << fmt::format("cuda: runtime {}, driver {}, {} device(s)\n", j["cuda"]["runtime"].get<std::string>(),
                             j["cuda"]["driver"].get<std::string>(), j["cuda"]["devices"].size());
    for (const auto& d : j["cuda"]["devices"])
      std::cout << fmt::format("  [{}] {}: compute {}, {} SMs, {:.1f} GiB ({:.1f} GiB free), L2 {:.0f} MiB\n",
                               d["index"].get<int>(), d["name"].get<std::string>(),
                               d["compute_capability"].get<std::string>(), d["multiprocessors"].get<int>(),
                               d["memory_bytes"].get<double>() / (1 << 30),
                               d["free_memory_bytes"].get<double>() / (1 << 30),
                               d["l2_bytes"].get<double>() / (1 << 20));
  }
  const auto& mpi = j["mpi"];
  std::cout << fmt::format("mpi: {}\n", !mpi["built"].get<bool>() ? std::string("not built")
                                        : fmt::format("{} ({}, {} rank(s))", mpi["library"].get<std::string>(),
                                                      mpi["active"].get<bool>() ? "active" : "not launched",
                                                      mpi["ranks"].get<int>()));
  std::cout << "libraries:";
  for (const auto& [name, version] : j["libraries"].items())
    std::cout << fmt::format(" {} {};", name, version.get<std::string>());
  std::cout << "\n";
}

}  // namespace

void add_info_command(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("json", false, "print one JSON object instead of text");
  auto command = std::make_unique<io::ParameterCommand>(app, "info", "Show the build, backends, devices and libraries",
                                                        std::move(p), false);
  out.push_back({std::move(command), [](const io::Parameters& params) {
                   const auto j = collect_info();
                   if (!comm::Communicator::world().is_root()) return 0;  // one report per job, not per rank
                   if (params.get_bool("json")) std::cout << j.dump(2) << "\n";
                   else print_info(j);
                   return 0;
                 }});
}

}  // namespace loom::app
