#include "loom/core/backend.hpp"

#include <omp.h>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::core {

std::string_view to_string(Backend b) { return b == Backend::cuda ? "cuda" : "cpu"; }
std::string_view to_string(Where w) { return w == Where::device ? "device" : "host"; }

bool backend_available(Backend b) {
  if (b == Backend::cpu) return true;
  return cuda::built() && cuda::device_count() > 0;
}

Backend best_backend() { return backend_available(Backend::cuda) ? Backend::cuda : Backend::cpu; }

std::vector<Backend> available_backends() {
  std::vector<Backend> out{Backend::cpu};
  if (backend_available(Backend::cuda)) out.push_back(Backend::cuda);
  return out;
}

Backend parse_backend(std::string_view text, std::string_view key) {
  if (text == "auto") return best_backend();
  if (text == "cpu") return Backend::cpu;
  if (text == "cuda") {
    if (!cuda::built())
      throw UsageError(std::string(key) + " = \"cuda\": this loom was built without CUDA (allowed: cpu, auto)");
    if (cuda::device_count() == 0)
      throw UsageError(std::string(key) + " = \"cuda\": no CUDA device is visible (allowed: cpu, auto)");
    return Backend::cuda;
  }
  throw UsageError(std::string(key) + " = \"" + std::string(text) + "\": expected one of cpu, cuda, auto");
}

int cpu_threads() { return omp_get_max_threads(); }

}  // namespace loom::core
