// The middle of SpinFilter (spin_filter.hpp, eqs. 4-5 and the phi synthesis), one ring set at a time: a ring
// set is one triad field at one radius, N_theta x N_phi complex values. Each backend has its own form of the phi
// transform, the theta projection (5) is shared:
//   CPU: the ring set gathered into a contiguous buffer, phi by FFTW (N_theta transforms of length N_phi), (5),
//        phi synthesis by FFTW; one OpenMP thread per ring set (spin_filter_rings_cpu.cpp);
//   GPU: one block per ring set, the ring set and its phi coefficients in shared memory, the phi sums direct
//        (N_phi <= 2 l_max + 2 is small), (5), synthesis written back (spin_filter_rings_cuda.cu).
// The data: ring set (field f, radius ir) holds re at data[2 f N + ir + N_r q], im at data[(2 f + 1) N + ...],
// q = it + N_theta ip; filtered in place. Internal to the spectral module.
#pragma once

#include <memory>

#include "loom/core/host_device.hpp"

namespace loom::spectral::rings {

struct View {
  Index n;             // points of the shell
  int nr, nt, np, L;   // extents and l_keep
  int fields;          // triad fields held in data
  const int* spin;     // spin weight per field
  const double* proj;  // SpinFilter's projector table (5): [(s + 3) (2 L + 1) + m + L] N_theta^2
  const double* tw;    // e^{-i m phi_j}: [(m + L) N_phi + j] (re, im)
  double* data;
};

// The phi coefficients of one ring set, [it N_phi + (m mod N_phi)] complex interleaved (FFTW's order; only
// |m| <= L is read), projected by (5) into `out` in the same order, for the (it, m) pairs lane, lane + lanes, ...
LOOM_HOST_DEVICE inline void project(const View& v, int spin, const double* in, double* out, int lane, int lanes) {
  const int orders = 2 * v.L + 1;
  for (int job = lane; job < v.nt * orders; job += lanes) {
    const int k = job % v.nt, m = job / v.nt - v.L, column = (m + v.np) % v.np;
    const double* P = v.proj + ((spin + 3) * orders + m + v.L) * v.nt * v.nt + k * v.nt;
    double re = 0, im = 0;
    for (int i = 0; i < v.nt; ++i) {
      re += P[i] * in[2 * (i * v.np + column)];
      im += P[i] * in[2 * (i * v.np + column) + 1];
    }
    out[2 * (k * v.np + column)] = re;
    out[2 * (k * v.np + column) + 1] = im;
  }
}

// FFTW's plans for one ring set's N_theta transforms (forward, backward), made once on the host.
class Fft {
 public:
  Fft(int nt, int np);
  ~Fft();
  Fft(const Fft&) = delete;
  Fft& operator=(const Fft&) = delete;
  void forward(double* in, double* out) const;
  void backward(double* in, double* out) const;

 private:
  struct Plans;
  std::unique_ptr<Plans> plans_;
};

// Every ring set of v filtered in place, on the host (OpenMP over ring sets) and on the device (a block each).
void filter_cpu(const View& v, const Fft& fft);
void filter_cuda(const View& v);

}  // namespace loom::spectral::rings
