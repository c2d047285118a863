// The ring sets of SpinFilter on the host: gather, phi by FFTW, the theta projection (5), synthesis by FFTW,
// scatter (spin_filter_rings.hpp). O(N_phi log N_phi) per theta row where the direct sums took (2 L + 1) N_phi;
// the gathered ring set (N_theta N_phi complex, 11.6 kB at 19 x 38) stays in the core's cache.
#include <fftw3.h>
#include <omp.h>

#include <algorithm>

#include "loom/core/error.hpp"
#include "loom/spectral/spin_filter_rings.hpp"

namespace loom::spectral::rings {

struct Fft::Plans {
  fftw_plan forward, backward;
};

namespace {
struct Buffer {
  double* p;
  explicit Buffer(std::size_t doubles) : p(fftw_alloc_real(doubles)) { LOOM_REQUIRE(p, "SpinFilter: fftw_alloc"); }
  ~Buffer() { fftw_free(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

fftw_plan plan(int nt, int np, int sign, double* in, double* out) {
  int n[1] = {np};
  return fftw_plan_many_dft(1, n, nt, reinterpret_cast<fftw_complex*>(in), nullptr, 1, np,
                            reinterpret_cast<fftw_complex*>(out), nullptr, 1, np, sign, FFTW_ESTIMATE);
}
}  // namespace

// Planned on fftw_alloc'd arrays; executed on other fftw_alloc'd arrays of the same shape (fftw_execute_dft,
// thread-safe), so the alignment the plan assumes holds.
Fft::Fft(int nt, int np) : plans_(std::make_unique<Plans>()) {
  const Buffer a(2 * static_cast<std::size_t>(nt) * np), b(2 * static_cast<std::size_t>(nt) * np);
  plans_->forward = plan(nt, np, FFTW_FORWARD, a.p, b.p);
  plans_->backward = plan(nt, np, FFTW_BACKWARD, a.p, b.p);
  LOOM_REQUIRE(plans_->forward && plans_->backward, "SpinFilter: FFTW planning failed");
}

Fft::~Fft() {
  fftw_destroy_plan(plans_->forward);
  fftw_destroy_plan(plans_->backward);
}

void Fft::forward(double* in, double* out) const {
  fftw_execute_dft(plans_->forward, reinterpret_cast<fftw_complex*>(in), reinterpret_cast<fftw_complex*>(out));
}
void Fft::backward(double* in, double* out) const {
  fftw_execute_dft(plans_->backward, reinterpret_cast<fftw_complex*>(in), reinterpret_cast<fftw_complex*>(out));
}

namespace {

// One ring set: x (gathered) -> F = FFT x / N_phi -> G = (5) F (into x, the unkept orders zero) -> FFT^-1 G.
void filter_ring(const View& v, const Fft& fft, int field, int ir, double* x, double* f) {
  const int na = v.nt * v.np;
  const double* re = v.data + 2 * field * v.n + ir;
  const double* im = re + v.n;
  for (int q = 0; q < na; ++q) {  // grid point q = it + N_theta ip, buffer entry it N_phi + ip
    const int b = q % v.nt * v.np + q / v.nt;
    x[2 * b] = re[Index{v.nr} * q], x[2 * b + 1] = im[Index{v.nr} * q];
  }
  fft.forward(x, f);
  const double scale = 1.0 / v.np;
  for (int q = 0; q < 2 * na; ++q) f[q] *= scale;
  std::fill(x, x + 2 * na, 0.0);
  project(v, v.spin[field], f, x, 0, 1);
  fft.backward(x, f);
  double* out_re = v.data + 2 * field * v.n + ir;
  double* out_im = out_re + v.n;
  for (int q = 0; q < na; ++q) {
    const int b = q % v.nt * v.np + q / v.nt;
    out_re[Index{v.nr} * q] = f[2 * b], out_im[Index{v.nr} * q] = f[2 * b + 1];
  }
}

}  // namespace

void filter_cpu(const View& v, const Fft& fft) {
  const int sets = v.fields * v.nr;
#pragma omp parallel
  {
    const Buffer x(2 * static_cast<std::size_t>(v.nt) * v.np), f(2 * static_cast<std::size_t>(v.nt) * v.np);
#pragma omp for schedule(static)
    for (int s = 0; s < sets; ++s) filter_ring(v, fft, s / v.nr, s % v.nr, x.p, f.p);
  }
}

}  // namespace loom::spectral::rings
