// src/signal/scan_plan.cpp — the host side of the blocked IIR scan (Note [Blocked IIR
// scan] in iir_ops.h): the level sizes and the matrix power tables, in complex double
// whatever the data's dtype (filter_cuda.cpp rounds them to it).
#include <algorithm>

#include "ops/complex.h"
#include "signal/engines.hpp"
#include "signal/iir_ops.h"

namespace cunp::signal::detail {
namespace {

using W = std::complex<double>;

Matrix matmul(const Matrix& a, const Matrix& b, int d) {
  Matrix c(a.size());
  for (int r = 0; r < d; ++r)
    for (int k = 0; k < d; ++k) {
      const W v = a[static_cast<std::size_t>(r * d + k)];
      if (v == W{}) continue;
      for (int j = 0; j < d; ++j)
        c[static_cast<std::size_t>(r * d + j)] += v * b[static_cast<std::size_t>(k * d + j)];
    }
  return c;
}

// The state after `chunk` zero-input samples from each unit state (column j from e_j),
// with the filter's own step.
Matrix transition(const IirFilter& f, std::int64_t chunk) {
  const int d = f.dim;
  std::vector<ops::c128> coef(f.host.size());
  for (std::size_t i = 0; i < coef.size(); ++i) coef[i] = {f.host[i].real(), f.host[i].imag()};
  Matrix a(static_cast<std::size_t>(d) * d);
  std::vector<ops::c128> z(static_cast<std::size_t>(d) + 1);
  for (int j = 0; j < d; ++j) {
    std::fill(z.begin(), z.end(), ops::c128{});
    z[static_cast<std::size_t>(j)] = {1.0, 0.0};
    for (std::int64_t t = 0; t < chunk; ++t) {
      if (f.sos)
        signal_ops::iir_step<signal_ops::kDynamic, true>(coef.data(), f.order, z.data(),
                                                         ops::c128{});
      else
        signal_ops::iir_step<signal_ops::kDynamic, false>(coef.data(), f.order, z.data(),
                                                          ops::c128{});
    }
    for (int r = 0; r < d; ++r)
      a[static_cast<std::size_t>(r * d + j)] = {z[static_cast<std::size_t>(r)].re,
                                                z[static_cast<std::size_t>(r)].im};
  }
  return a;
}

}  // namespace

ScanPlan make_scan_plan(std::int64_t n, std::int64_t chunk, int block) {
  ScanPlan plan;
  plan.chunk = chunk;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  plan.nblocks = std::max<std::int64_t>(1, (chunks + block - 1) / block);
  plan.m.push_back(plan.nblocks);
  while (plan.m.back() > 1) plan.m.push_back((plan.m.back() + block - 1) / block);
  return plan;
}

std::vector<std::vector<Matrix>> scan_power_tables(const IirFilter& f, std::int64_t chunk,
                                                   int block, int levels) {
  const int d = f.dim;
  std::vector<std::vector<Matrix>> tables;
  Matrix m = transition(f, chunk);
  for (int l = 0; l < levels; ++l) {
    std::vector<Matrix> pw(static_cast<std::size_t>(block) + 1);
    pw[0].assign(static_cast<std::size_t>(d) * d, W{});
    for (int i = 0; i < d; ++i) pw[0][static_cast<std::size_t>(i * d + i)] = 1.0;
    for (int k = 1; k <= block; ++k)
      pw[static_cast<std::size_t>(k)] = matmul(m, pw[static_cast<std::size_t>(k - 1)], d);
    m = pw.back();
    tables.push_back(std::move(pw));
  }
  return tables;
}

}  // namespace cunp::signal::detail
