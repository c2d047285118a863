// A cursor over the concatenated source bodies of one target cell's P2P pairs (pair k holds count(k) bodies),
// so that a GPU thread block can fill each shared-memory tile across leaf boundaries. Host and device; tested
// on the host (tests/fmm/test_source_cursor.cpp).
#pragma once

#include "loom/core/host_device.hpp"

namespace loom::fmm {

struct SourceCursor {
  Index pair = 0;    // the pair (index into the target's pair list)
  Index offset = 0;  // the body within that pair's source cell
};

// Moves the cursor `steps` bodies forward over pairs [cursor.pair, last), skipping empty cells; returns how
// many of those steps landed on bodies (steps, or fewer when the sequence ends; then cursor.pair == last).
template <class Count>
LOOM_HOST_DEVICE inline Index advance_counting(SourceCursor& c, Index last, Index steps, const Count& count) {
  Index done = 0;
  while (c.pair < last) {
    const Index left = count(c.pair) - c.offset;
    if (steps - done < left) {
      c.offset += steps - done;
      return steps;
    }
    done += left;
    c.offset = 0;
    ++c.pair;
  }
  return done;
}

// Moves the cursor `steps` bodies forward; true when it then rests on a body.
template <class Count>
LOOM_HOST_DEVICE inline bool advance(SourceCursor& c, Index last, Index steps, const Count& count) {
  advance_counting(c, last, steps, count);
  while (c.pair < last && c.offset >= count(c.pair)) {  // empty cells after the last step
    c.offset = 0;
    ++c.pair;
  }
  return c.pair < last;
}

}  // namespace loom::fmm
