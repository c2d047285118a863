#include "loom/hit/traffic.hpp"

namespace loom::hit {

StepTraffic step_traffic(SpectralGrid g, const SolverOptions& o) {
  const double mode = 16 * double(g.modes()), point = 8 * double(g.points());
  const int shifts = o.dealiasing == Dealiasing::phase_shift ? 2 : 1;
  const StageTable table = if_rk_stages(o.scheme, 1.0);
  StepTraffic t;
  for (int s = 0; s < table.count; ++s) {
    const Stage& stage = table.stage[std::size_t(s)];
    const bool reads_acc = stage.to_acc.from_acc != 0 || stage.to_next.from_acc != 0;
    for (int shift = 0; shift < shifts; ++shift) {
      t.to_physical += (3 + 6) * mode;
      t.cross_product += (6 + 3) * point;
      double components = 3;  // N
      if (shift + 1 < shifts) {
        components += 3;  // the partial written; nothing else
      } else {
        components += (shift > 0 ? 3 : 0) + 3 + (reads_acc ? 3 : 0) + (stage.writes_acc ? 3 : 0) + 3;
      }
      t.finish_stage += components * mode;
    }
  }
  return t;
}

}  // namespace loom::hit
