#include "loom/spectral/operator_cache.hpp"

#include <atomic>
#include <span>

namespace loom::spectral {

std::vector<double> trace(const AxisOperator& op) {
  const Index n_in = op.shape.n_in, n_out = op.shape.n_out;
  std::vector<double> m(static_cast<std::size_t>(op.blocks * n_in * n_out)), delta(n_in, 0.0), image(n_out);
  for (Index b = 0; b < op.blocks; ++b)
    for (Index k = 0; k < n_in; ++k) {
      delta[k] = 1;
      op.apply_line(b, delta.data(), image.data());
      delta[k] = 0;
      for (Index r = 0; r < n_out; ++r) m[(b * n_out + r) * n_in + k] = image[r];
    }
  return m;
}

OperatorCache::OperatorCache() {
  static std::atomic<std::uint64_t> next{1};
  id_ = next++;
}

const core::Array<double>& OperatorCache::matrix(const AxisOperator& op) {
  auto it = matrices_.find(op.key);
  if (it != matrices_.end()) {
    ++stats_.hits;
    return *it->second;
  }
  ++stats_.misses;
  return insert(op.key, trace(op));
}

const core::Array<double>& OperatorCache::transposed(const AxisOperator& op) {
  const std::string key = op.key + "#transposed";
  auto it = matrices_.find(key);
  if (it != matrices_.end()) {
    ++stats_.hits;
    return *it->second;
  }
  ++stats_.misses;
  const double* m = matrix(op).read(core::Where::host);
  const Index n_in = op.shape.n_in, n_out = op.shape.n_out;
  std::vector<double> t(static_cast<std::size_t>(op.blocks * n_in * n_out));
  for (Index b = 0; b < op.blocks; ++b)
    for (Index r = 0; r < n_out; ++r)
      for (Index k = 0; k < n_in; ++k) t[(b * n_in + k) * n_out + r] = m[(b * n_out + r) * n_in + k];
  return insert(key, t);
}

const core::Array<double>& OperatorCache::insert(const std::string& key, const std::vector<double>& m) {
  auto array = std::make_unique<core::Array<double>>(core::Array<double>::from(std::span<const double>(m)));
  stats_.bytes += array->bytes();
  ++stats_.entries;
  return *matrices_.emplace(key, std::move(array)).first->second;
}

}  // namespace loom::spectral
