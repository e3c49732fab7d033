// src/reduce/gpu_reduce.cpp — placeholder replaced below.
#include "reduce/gpu_reduce.hpp"

#include "cunp/error.hpp"

namespace cunp::reduce {
void gpu_reduce(ReduceOp, const ReduceLayout&, const ndarray&, const ndarray&) {
  throw NotImplementedError("reductions on cuda devices");
}
}  // namespace cunp::reduce
