#include "loom/hit/traffic.hpp"

#include <cmath>

#include "loom/hit/kept_lines.hpp"

namespace loom::hit {

double kept_fraction(SpectralGrid g, Dealiasing d) {
  // Each row (jy, jz) keeps kx in [0, K) with K found by bisection: both masks keep a prefix of kx >= 0.
  double kept = 0;
  for (Index jz = 0; jz < g.n; ++jz)
    for (Index jy = 0; jy < g.n; ++jy) {
      const double ky = double(g.signed_index(jy)), kz = double(g.signed_index(jz));
      Index lo = 0, hi = g.half();  // kx < lo kept, kx >= hi dropped
      while (lo < hi) {
        const Index mid = (lo + hi) / 2;
        if (retained(d, g.n, {double(mid), ky, kz}))
          lo = mid + 1;
        else
          hi = mid;
      }
      kept += double(lo);
    }
  return kept / double(g.modes());
}

TransformWork transform_work(SpectralGrid g, const SolverOptions& o, bool pruned, bool one_stride) {
  const PassLines lines =
      pruned ? pruned_pass_lines(kept_lines(g, o.dealiasing), o.pruned_form, one_stride) : full_pass_lines(g);
  const double n = double(g.n), complex_line = 5 * n * std::log2(n);
  TransformWork one;  // one component, one way
  one.bytes = 2 * 16 * n * (lines.z + lines.y) + lines.x * (16 * double(g.half()) + 8 * n);
  one.flops = complex_line * (lines.z + lines.y + 0.5 * lines.x);
  const int shifts = o.dealiasing == Dealiasing::phase_shift ? 2 : 1;
  const double components = (6 + 3) * if_rk_stages(o.scheme, 1.0).count * shifts;
  return {components * one.bytes, components * one.flops};
}

StepTraffic step_traffic(SpectralGrid g, const SolverOptions& o, FieldPath path, double zeroed) {
  const double mode = 16 * double(g.modes()), point = 8 * double(g.points()), kappa = kept_fraction(g, o.dealiasing);
  const int shifts = o.dealiasing == Dealiasing::phase_shift ? 2 : 1;
  const bool inside = path == FieldPath::callbacks, kept = path == FieldPath::kept, fused = kept && shifts == 1;
  const StageTable table = if_rk_stages(o.scheme, 1.0);
  StepTraffic t;
  for (int s = 0; s < table.count; ++s) {
    const Stage& stage = table.stage[std::size_t(s)];
    const bool reads_acc = stage.to_acc.from_acc != 0 || stage.to_next.from_acc != 0;
    for (int shift = 0; shift < shifts; ++shift) {
      // Inside: 1 input component read per u component, 2 per omega component, for the transforms' 6 reads. Kept:
      // the kept modes written only; fused, the stage before wrote them.
      if (inside) t.to_physical += (9 * kappa - 6) * mode;
      else if (!kept) t.to_physical += (3 * kappa + 6) * mode;
      else if (s == 0 || !fused) t.to_physical += 9 * kappa * mode;
      if (kept) t.zero_pass += 6 * zeroed * mode;
      t.cross_product += (6 + 3) * point;
      // Kept modes: N (inside: N_x and N_y stored and read back, N_z in hand), then the partial or the update.
      double components = inside ? 4 : 3;
      if (shift + 1 < shifts) {
        components += 3;  // the partial written; nothing else
      } else {
        const double next = fused && !stage.last ? 6 : 3;  // fused: the next evaluation's fields
        components += (shift > 0 ? 3 : 0) + 3 + (reads_acc ? 3 : 0) + (stage.writes_acc ? 3 : 0) + next;
      }
      t.finish_stage += (kappa * components - (inside ? 3 : 0)) * mode;  // inside: the transforms' 3 stores
    }
  }
  return t;
}

}  // namespace loom::hit
