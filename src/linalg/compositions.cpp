// src/linalg/compositions.cpp — numpy.linalg functions made of the others: multi_dot
// (matrix-chain order over matmul), tensorsolve and tensorinv (reshapes around solve
// and inv).
#include <algorithm>
#include <limits>
#include <string>

#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"

namespace cunp::linalg {
namespace {

// The product of arrays[i..j] in the order `split` gives (split[i][j] is the last
// array of the left factor).
ndarray chain(std::span<const ndarray> arrays, const std::vector<std::vector<std::size_t>>& split,
              std::size_t i, std::size_t j) {
  if (i == j) return arrays[i];
  return matmul(chain(arrays, split, i, split[i][j]), chain(arrays, split, split[i][j] + 1, j));
}

}  // namespace

ndarray multi_dot(std::span<const ndarray> arrays_in) {
  const std::size_t n = arrays_in.size();
  if (n < 2) throw ValueError("Expecting at least two arrays.");
  if (n == 2) return dot(arrays_in[0], arrays_in[1]);
  std::vector<ndarray> arrays(arrays_in.begin(), arrays_in.end());
  const bool row = arrays.front().ndim() == 1, col = arrays.back().ndim() == 1;
  if (row) arrays.front() = arrays.front().reshape({1, -1});
  if (col) arrays.back() = arrays.back().reshape({-1, 1});
  for (const ndarray& x : arrays)
    if (x.ndim() != 2)
      throw LinAlgError(std::to_string(x.ndim()) +
                        "-dimensional array given. Array must be two-dimensional");
  // Matrix-chain order: cost[i][j] is the fewest scalar multiplications for i..j.
  std::vector<std::int64_t> p;
  for (const ndarray& x : arrays) p.push_back(x.shape()[0]);
  p.push_back(arrays.back().shape()[1]);
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
  std::vector<std::vector<std::size_t>> split(n, std::vector<std::size_t>(n, 0));
  for (std::size_t len = 1; len < n; ++len)
    for (std::size_t i = 0; i + len < n; ++i) {
      const std::size_t j = i + len;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t k = i; k < j; ++k) {
        const double c = cost[i][k] + cost[k + 1][j] +
                         static_cast<double>(p[i]) * static_cast<double>(p[k + 1]) *
                             static_cast<double>(p[j + 1]);
        if (c < cost[i][j]) cost[i][j] = c, split[i][j] = k;
      }
    }
  const ndarray r = chain(arrays, split, 0, n - 1);
  if (row && col) return r.reshape({});
  if (row || col) return r.reshape({-1});
  return r;
}

ndarray tensorsolve(const ndarray& a0, const ndarray& b, std::optional<std::vector<int>> axes) {
  ndarray a = a0;
  const int an = a.ndim();
  if (axes) {
    std::vector<int> all(static_cast<std::size_t>(an));
    for (int i = 0; i < an; ++i) all[static_cast<std::size_t>(i)] = i;
    for (int k : *axes) {
      const int ax = normalize_axis(k, an);
      auto it = std::find(all.begin(), all.end(), ax);
      if (it == all.end()) throw ValueError("tensorsolve: repeated axis " + std::to_string(k));
      all.erase(it);
      all.push_back(ax);
    }
    a = a.transpose(all);
  }
  // NumPy's a.shape[-(a.ndim - b.ndim):], where -0 means the whole shape.
  const int lead = an - b.ndim();
  const std::size_t from = lead > 0 && lead <= an ? static_cast<std::size_t>(an - lead) : 0;
  const Shape old(a.shape().begin() + static_cast<std::ptrdiff_t>(from), a.shape().end());
  const std::int64_t prod = shape_size(old);
  if (a.size() != prod * prod)
    throw LinAlgError(
        "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
        "prod(a.shape[:b.ndim])");
  return solve(a.reshape({prod, prod}), b.reshape({-1})).reshape(old);
}

ndarray tensorinv(const ndarray& a, int ind) {
  if (ind <= 0) throw ValueError("Invalid ind argument.");
  const Shape& s = a.shape();
  const std::size_t split = std::min(static_cast<std::size_t>(ind), s.size());
  Shape inv_shape(s.begin() + static_cast<std::ptrdiff_t>(split), s.end());
  const std::int64_t prod = shape_size(inv_shape);
  if (a.size() != prod * prod)
    throw LinAlgError(
        "Input arrays must satisfy the requirement prod(a.shape[ind:]) == prod(a.shape[:ind])");
  inv_shape.insert(inv_shape.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(split));
  return inv(a.reshape({prod, -1})).reshape(inv_shape);
}

}  // namespace cunp::linalg
