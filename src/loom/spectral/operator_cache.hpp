// The paper's porting strategy (spectral-BH paper, eq. 19 and the text after it): any linear operator of the
// reference implementation is traced into an explicit matrix by feeding it Kronecker deltas (column k of the
// matrix is the image of the k-th delta), and the matrix is kept in a dictionary keyed by what makes the
// operator mathematically new (AxisOperator::key: basis, extents, operation, filter parameters), so a run
// traces each one once. Matrices live in core::Array, so their device copy is made once, on first GPU use.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/spectral/axis_operator.hpp"

namespace loom::spectral {

// The n_out x n_in matrix of a line map, row-major: m[r * n_in + k] = (line(delta_k))_r; for an operator of
// several blocks, the blocks' matrices one after the other.
std::vector<double> trace(const AxisOperator& op);

struct CacheStatistics {
  std::size_t hits = 0, misses = 0, entries = 0, bytes = 0;
};

class OperatorCache {
 public:
  OperatorCache();
  // Unique per cache object in the process: lets a user keep pointers into one cache and know it is the same.
  std::uint64_t id() const { return id_; }
  // The traced matrix of op (traced on the first request for op.key).
  const core::Array<double>& matrix(const AxisOperator& op);
  // The same matrix with each block transposed, [(b n_in + k) n_out + r]: a kernel whose neighbouring threads
  // compute neighbouring rows reads it in coalesced order. A separate entry (key + "#transposed").
  const core::Array<double>& transposed(const AxisOperator& op);
  CacheStatistics statistics() const { return stats_; }
  bool contains(const std::string& key) const { return matrices_.count(key) > 0; }

 private:
  const core::Array<double>& insert(const std::string& key, const std::vector<double>& m);
  std::map<std::string, std::unique_ptr<core::Array<double>>> matrices_;
  std::uint64_t id_;
  CacheStatistics stats_;
};

}  // namespace loom::spectral
