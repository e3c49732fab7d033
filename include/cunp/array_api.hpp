// cunp/array_api.hpp — names NumPy 2 took from the Array API standard and composed
// from other cunp operations: cumulative_sum / cumulative_prod (include_initial),
// vecdot, matvec, vecmat and unstack. (matrix_transpose is swapaxes(x, -1, -2),
// linalg.svdvals is linalg::svd(x, false, false), linalg.matrix_norm and vector_norm
// are linalg::norm with an axis, row_stack is vstack.)
#pragma once

#include <optional>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

struct CumulativeOptions {
  std::optional<int> axis;  // required for more than one dimension (ValueError)
  std::optional<DType> dtype;
  bool include_initial = false;  // start with the identity (0 / 1): one more element
};
// np.cumulative_sum / np.cumulative_prod: cumsum / cumprod along `axis` (the dtype
// rules of sum / prod).
ndarray cumulative_sum(const ndarray& x, const CumulativeOptions& options = {});
ndarray cumulative_prod(const ndarray& x, const CumulativeOptions& options = {});

// np.vecdot: sum(conj(x1) * x2) over `axis` of both operands, the other axes
// broadcast; matmul's result dtype.
ndarray vecdot(const ndarray& x1, const ndarray& x2, int axis = -1);
// np.matvec: the product of the matrices (last two axes) of x1 with the vectors (last
// axis) of x2, broadcasting the rest; signature (m,n),(n)->(m).
ndarray matvec(const ndarray& x1, const ndarray& x2);
// np.vecmat: conj(x1) @ x2 of the vectors of x1 and the matrices of x2; (n),(n,m)->(m).
ndarray vecmat(const ndarray& x1, const ndarray& x2);
// np.unstack: the slices of x along `axis` (views). ValueError for a 0-d x.
std::vector<ndarray> unstack(const ndarray& x, int axis = 0);

}  // namespace cunp
