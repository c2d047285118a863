#include "loom/gpe/kernels/registry.hpp"

#include <string>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::gpe {

// The factories, one per file of this folder.
std::unique_ptr<StepKernel> make_plain_kernel(const KernelContext& context);
std::unique_ptr<StepKernel> make_tuned_kernel(const KernelContext& context);
std::unique_ptr<StepKernel> make_shared_kernel(const KernelContext& context);
std::unique_ptr<StepKernel> make_soa_kernel(const KernelContext& context);
std::unique_ptr<StepKernel> make_march_kernel(const KernelContext& context);

namespace {

struct Variant {
  LeapfrogKernel kernel;
  std::string_view name;
  bool runs_on_cpu;
  std::unique_ptr<StepKernel> (*make)(const KernelContext&);
};

// The registry: one line per variant.
constexpr Variant variants[] = {
    {LeapfrogKernel::plain, "plain", true, make_plain_kernel},
    {LeapfrogKernel::tuned, "tuned", false, make_tuned_kernel},
    {LeapfrogKernel::shared, "shared", false, make_shared_kernel},
    {LeapfrogKernel::soa, "soa", true, make_soa_kernel},
    {LeapfrogKernel::march, "march", false, make_march_kernel},
};

const Variant& variant(LeapfrogKernel k) {
  for (const Variant& v : variants)
    if (v.kernel == k) return v;
  throw Error("leapfrog kernel " + std::to_string(static_cast<int>(k)) + " is not in the registry");
}

// "a, b, c" of the variants that pass `keep`.
template <class Keep>
std::string joined_names(Keep keep) {
  std::string out;
  for (const Variant& v : variants)
    if (keep(v)) out += (out.empty() ? "" : ", ") + std::string(v.name);
  return out;
}

}  // namespace

std::string_view to_string(LeapfrogKernel k) { return variant(k).name; }

bool runs_on_cpu(LeapfrogKernel k) { return variant(k).runs_on_cpu; }

LeapfrogKernel parse_leapfrog_kernel(std::string_view text, std::string_view key) {
  for (const Variant& v : variants)
    if (v.name == text) {
      if (!v.runs_on_cpu && !cuda::built())
        throw UsageError(std::string(key) + " = \"" + std::string(text) + "\": needs a CUDA build (allowed: " +
                         joined_names([](const Variant& w) { return w.runs_on_cpu; }) + ")");
      return v.kernel;
    }
  throw UsageError(std::string(key) + " = \"" + std::string(text) + "\": expected one of " +
                   joined_names([](const Variant&) { return true; }));
}

std::vector<LeapfrogKernel> leapfrog_kernels(core::Backend backend) {
  std::vector<LeapfrogKernel> out;
  for (const Variant& v : variants)
    if (v.runs_on_cpu || backend == core::Backend::cuda) out.push_back(v.kernel);
  return out;
}

std::vector<std::string> leapfrog_kernel_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants) out.emplace_back(v.name);
  return out;
}

LeapfrogKernel default_leapfrog_kernel(core::Backend backend, int cells_per_structure) {
  if (backend != core::Backend::cuda) return LeapfrogKernel::soa;
  return cells_per_structure <= 12 ? LeapfrogKernel::march : LeapfrogKernel::soa;
}

std::unique_ptr<StepKernel> make_step_kernel(LeapfrogKernel kernel, const KernelContext& context) {
  const Variant& v = variant(kernel);
  LOOM_REQUIRE(v.runs_on_cpu || context.backend == core::Backend::cuda,
               "LeapfrogIntegrator: the " + std::string(v.name) +
                   " kernel runs on the CUDA backend only (the CPU has " +
                   joined_names([](const Variant& w) { return w.runs_on_cpu; }) + ")");
  return v.make(context);
}

}  // namespace loom::gpe
