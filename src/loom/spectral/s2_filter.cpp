#include "loom/spectral/s2_filter.hpp"

#include <vector>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral {

CsrMatrix heaviside_coupling(const SphereBasis& sphere, int l_keep, Index components) {
  const Index ns = sphere.spectral_size();
  std::vector<int> start{0}, column;
  for (Index c = 0; c < components; ++c)
    for (int l = 0; l <= sphere.l_max(); ++l)
      for (int m = -l; m <= l; ++m) {
        if (l <= l_keep) column.push_back(static_cast<int>(c * ns + SphereBasis::index(l, m)));
        start.push_back(static_cast<int>(column.size()));
      }
  CsrMatrix out;
  out.rows = out.cols = components * ns;
  out.nonzeros = static_cast<Index>(column.size());
  out.row_start = core::Array<int>::from(start);
  out.column = core::Array<int>::from(column);
  out.value = core::Array<double>(column.size(), 1.0);
  return out;
}

void spmm(core::Backend backend, const CsrMatrix& c, Index columns, const double* x, double* y) {
  const core::Where w = core::where(backend);
  const int* start = c.row_start.read(w);
  const int* column = c.column.read(w);
  const double* value = c.value.read(w);
  if (backend == core::Backend::cuda)
    return gpu::csr_spmm(c.rows, c.cols, c.nonzeros, start, column, value, columns, x, y);
  core::parallel_for(core::Backend::cpu, c.rows, [=](Index r) {
    for (Index j = 0; j < columns; ++j) y[r * columns + j] = 0;
    for (int k = start[r]; k < start[r + 1]; ++k)
      for (Index j = 0; j < columns; ++j) y[r * columns + j] += value[k] * x[Index{column[k]} * columns + j];
  });
}

// The spectral array per component is N_r x (L+1)^2 with r fastest: row-major with rows (component, l, m) and
// N_r columns, the layout the coupling multiplies.
CsrFilter::CsrFilter(const Shell& shell, const FilterSpec& spec, Index components)
    : shell_(shell),
      components_(components),
      coupling_(heaviside_coupling(shell.sphere(), spec.l_keep < 0 ? shell.sphere().l_max() - 1 : spec.l_keep,
                                   components)),
      radial_(shell.radial_filter(spec)),
      to_spectral_(shell.angular_transform(true)),
      to_physical_(shell.angular_transform(false)) {}

void CsrFilter::apply(Strategy s, OperatorCache& cache, Tensor& field) const {
  LOOM_REQUIRE(s != Strategy::fused && s != Strategy::cluster,
               "filter_csr: the fused and cluster strategies cannot hold the transforms");
  LOOM_REQUIRE(field.components() == components_, "filter_csr: the coupling was built for another tensor");
  const core::Where w = core::where(backend_of(s));
  const Index ne = components_;
  core::Array<double> a(static_cast<std::size_t>(ne * shell_.size())),
      b(static_cast<std::size_t>(ne * to_spectral_.shape.output_size())),
      c(static_cast<std::size_t>(ne * to_spectral_.shape.output_size()));
  spectral::apply(s, cache, radial_, ne, field.data.read(w), a.write(w));
  spectral::apply(s, cache, to_spectral_, ne, a.read(w), b.write(w));
  spmm(backend_of(s), coupling_, shell_.radial().size(), b.read(w), c.write(w));
  spectral::apply(s, cache, to_physical_, ne, c.read(w), field.data.write(w));
}

void filter_csr(const Shell& shell, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field) {
  CsrFilter(shell, spec, field.components()).apply(s, cache, field);
}

perf::Work filter_csr_work(const Shell& shell, const FilterSpec& spec, Index components) {
  const int l_keep = spec.l_keep < 0 ? shell.sphere().l_max() - 1 : spec.l_keep;
  const double nonzeros = double(components) * (l_keep + 1) * (l_keep + 1), nr = shell.radial().size();
  const double rows = double(components) * shell.sphere().spectral_size();
  return matrix_work(shell.radial_filter(spec), components) + matrix_work(shell.angular_transform(true), components) +
         perf::Work{8 * (2 * rows * nr + 2 * nonzeros), 2 * nonzeros * nr} +
         matrix_work(shell.angular_transform(false), components);
}

}  // namespace loom::spectral
