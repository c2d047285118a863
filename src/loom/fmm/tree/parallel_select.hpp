// Selection (std::nth_element's postcondition) of a large range with all threads, for the top levels of the tree
// build, where one range holds most bodies and a serial nth_element leaves the other cores idle (the
// numbers: docs/performance.md, "FMM: figures behind code comments"). A sample of the keys brackets the wanted rank by
// two splitters; one pass in fixed chunks counts the keys below, between and above them, a second scatters the chunks'
// keys into a scratch range in that order (chunk by chunk, so the arrangement does not depend on the thread count), and
// a serial nth_element finishes inside the small middle band. Called from inside OpenMP tasks (taskloops) or outside a
// parallel region alike (the taskloops share the chunk tables explicitly: a task's default for them would be a private
// copy, and the counts would be lost).
#pragma once

#include <algorithm>
#include <vector>

#include "loom/core/host_device.hpp"

namespace loom::fmm {

// Ranges at least this long take parallel_nth_element in the tree build.
constexpr Index parallel_select_threshold = 1 << 20;

// Rearranges [first, first + count) so that first[k] is the element a sort by key would put there, none before
// it larger, none after it smaller (std::nth_element's postcondition). `key(item)` returns a double; `scratch`
// holds at least count items.
template <class Item, class Key>
void parallel_nth_element(Item* first, Index count, Index k, Key key, Item* scratch) {
  auto less = [&](const Item& a, const Item& b) { return key(a) < key(b); };
  if (count < 4096 || k < 0 || k >= count) {
    if (k >= 0 && k < count) std::nth_element(first, first + k, first + count, less);
    return;
  }
  // Splitters: the sample's keys 64 ranks either side of k's place (a band of ~3% of the range).
  constexpr Index samples = 4096, margin = 64;
  std::vector<double> sample(static_cast<std::size_t>(samples));
  for (Index s = 0; s < samples; ++s) sample[static_cast<std::size_t>(s)] = key(first[s * (count / samples)]);
  std::sort(sample.begin(), sample.end());
  const Index at = k * samples / count;
  const double lo = sample[static_cast<std::size_t>(std::max<Index>(0, at - margin))];
  const double hi = sample[static_cast<std::size_t>(std::min(samples - 1, at + margin))];
  // Chunk counts: below lo, in [lo, hi], above hi.
  constexpr Index chunk = 1 << 16;
  const Index chunks = (count + chunk - 1) / chunk;
  std::vector<Index> below(static_cast<std::size_t>(chunks)), middle(below.size());
#pragma omp taskloop grainsize(1) shared(below, middle)
  for (Index c = 0; c < chunks; ++c) {
    Index b = 0, m = 0;
    for (Index i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i) {
      const double v = key(first[i]);
      b += v < lo;
      m += v >= lo && v <= hi;
    }
    below[static_cast<std::size_t>(c)] = b;
    middle[static_cast<std::size_t>(c)] = m;
  }
  Index n_below = 0, n_middle = 0;
  std::vector<Index> at_below(below.size()), at_middle(below.size()), at_above(below.size());
  for (Index c = 0; c < chunks; ++c) {
    at_below[static_cast<std::size_t>(c)] = n_below;
    at_middle[static_cast<std::size_t>(c)] = n_middle;
    n_below += below[static_cast<std::size_t>(c)];
    n_middle += middle[static_cast<std::size_t>(c)];
  }
  if (k < n_below || k >= n_below + n_middle) {  // the sample missed (adversarial order): the serial selection
    std::nth_element(first, first + k, first + count, less);
    return;
  }
  for (Index c = 0, n_above = 0; c < chunks; ++c) {
    at_above[static_cast<std::size_t>(c)] = n_above;
    n_above += std::min(count, (c + 1) * chunk) - c * chunk - below[static_cast<std::size_t>(c)] -
               middle[static_cast<std::size_t>(c)];
  }
  Item* const to_middle = scratch + n_below;
  Item* const to_above = scratch + n_below + n_middle;
#pragma omp taskloop grainsize(1) shared(at_below, at_middle, at_above)
  for (Index c = 0; c < chunks; ++c) {
    Index b = at_below[static_cast<std::size_t>(c)], m = at_middle[static_cast<std::size_t>(c)],
          a = at_above[static_cast<std::size_t>(c)];
    for (Index i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i) {
      const double v = key(first[i]);
      if (v < lo)
        scratch[b++] = first[i];
      else if (v <= hi)
        to_middle[m++] = first[i];
      else
        to_above[a++] = first[i];
    }
  }
#pragma omp taskloop grainsize(1)
  for (Index c = 0; c < chunks; ++c)
    std::copy(scratch + c * chunk, scratch + std::min(count, (c + 1) * chunk), first + c * chunk);
  std::nth_element(first + n_below, first + k, first + n_below + n_middle, less);
}

}  // namespace loom::fmm
