// Work accounting: every performance-relevant operation states the fewest bytes it must move through memory
// and the floating-point operations it must do, so a benchmark can report effective rates against ceilings.
#pragma once

namespace loom::perf {

struct Work {
  double bytes = 0;  // minimal bytes read plus written (each input read once, each output written once)
  double flops = 0;  // floating-point operations (an FMA counts 2)

  Work& operator+=(const Work& o) {
    bytes += o.bytes;
    flops += o.flops;
    return *this;
  }
  friend Work operator+(Work a, const Work& b) { return a += b; }
  friend Work operator*(double times, Work w) { return {times * w.bytes, times * w.flops}; }
  double intensity() const { return bytes > 0 ? flops / bytes : 0; }  // flop per byte
};

struct Rates {
  double bytes_per_second = 0;
  double flops_per_second = 0;
};

inline Rates rates(const Work& w, double seconds) {
  return seconds > 0 ? Rates{w.bytes / seconds, w.flops / seconds} : Rates{};
}

}  // namespace loom::perf
