// Eigenvalues of a dense complex Hermitian matrix (the Bloch matrices of the dispersion analysis, m_s x m_s
// with m_s <= 136): Householder reduction to a real symmetric tridiagonal matrix, then Sturm-sequence
// bisection. Written here so that loom needs no LAPACK; O(n^3), a few milliseconds at n = 136.
#pragma once

#include <complex>
#include <vector>

namespace loom::dec {

// A row-major n x n matrix; only its Hermitian part is used (the lower triangle is read).
struct HermitianMatrix {
  int n = 0;
  std::vector<std::complex<double>> a;

  explicit HermitianMatrix(int size) : n(size), a(static_cast<std::size_t>(size) * size) {}
  std::complex<double>& operator()(int i, int j) { return a[static_cast<std::size_t>(i) * n + j]; }
  const std::complex<double>& operator()(int i, int j) const { return a[static_cast<std::size_t>(i) * n + j]; }
};

// All eigenvalues, ascending, to about 1e-14 of the matrix norm. Takes the matrix by value (it is overwritten
// during the reduction).
std::vector<double> hermitian_eigenvalues(HermitianMatrix m);

// The real symmetric tridiagonal form: diagonal d (n), off-diagonal magnitudes e (n - 1), same eigenvalues.
void tridiagonalize(HermitianMatrix& m, std::vector<double>& d, std::vector<double>& e);
// Eigenvalues of that tridiagonal matrix, ascending, by bisection on the Sturm count.
std::vector<double> tridiagonal_eigenvalues(const std::vector<double>& d, const std::vector<double>& e);

}  // namespace loom::dec
