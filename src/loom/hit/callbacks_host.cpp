// The callbacks of fft.callbacks = on where the transforms have none (FFTW): stage_modes.hpp's per-element
// functions, element by element as cuFFT calls them (load_element, store_kept, store_update), in passes around
// the plain transforms. Nothing is saved; the CPU runs the GPU's callback arithmetic and offsets, for the tests.
#include "loom/core/parallel_for.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

class HostCallbacks final : public Transforms {
 public:
  explicit HostCallbacks(std::unique_ptr<Transforms> plain) : Transforms(plain->layout()), plain_(std::move(plain)) {}
  void inverse(Complex* modes, double* points, int count) override { plain_->inverse(modes, points, count); }
  void forward(double* points, Complex* modes, int count) override { plain_->forward(points, modes, count); }
  ExchangeCounts exchange_counts() const override { return plain_->exchange_counts(); }

  bool fuses() const override { return true; }
  void inverse_loaded(const ModeLoad& load, Complex* work, double* points) override {
    const Index M = layout().mode_stride, modes = layout().modes();
    core::parallel_for(core::Backend::cpu, modes, [&](Index m) {
      for (Index c = 0; c < 6; ++c) work[c * M + m] = load_element(load, c * M + m);
    });
    plain_->inverse(work, points, 6);
  }
  void forward_stored(double* points, Complex* work, const ModeUpdate& update) override {
    const Index M = layout().mode_stride, modes = layout().modes();
    plain_->forward(points, work, 3);
    ModeUpdate u = update;
    u.n_xy = work;
    core::parallel_for(core::Backend::cpu, modes, [&](Index m) {
      for (Index c = 0; c < 2; ++c) store_kept(u, work, c * M + m, work[c * M + m]);
      store_update(u, m, work[2 * M + m]);
    });
  }

 private:
  std::unique_ptr<Transforms> plain_;
};

}  // namespace

std::unique_ptr<Transforms> with_host_callbacks(std::unique_ptr<Transforms> plain) {
  return std::make_unique<HostCallbacks>(std::move(plain));
}

}  // namespace loom::hit
