// src/kernel/fusion_source.hpp — the text of a fused function's kernel: the parameters,
// code and reduction pieces of one ElementwiseKernel or ReductionKernel, built from a
// Trace (fusion.hpp). No GPU, no compiler: fusion_program.cpp hands the pieces to the
// user-kernel classes, which generate, compile and launch the program.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "kernel/fusion.hpp"

namespace cunp::fusion {

// One input parameter of the kernel: an array argument, or a scalar (an argument or a
// constant) passed in `dtype`. Weak Python/C++ ints are passed in the dtype of each
// loop that reads them, so that the kernel's argument conversion raises NumPy's
// OverflowError for a value the loop's dtype cannot hold.
struct FusedParam {
  bool array = true;
  int node = -1;
  DType dtype = DType::Float64;
  std::string name;
};

struct FusedKernelText {
  std::vector<FusedParam> params;     // the kernel's inputs, in order
  bool count_param = false;           // mean: a float64 `red_count` (elements per output) follows
  std::string in_params, out_params;  // ElementwiseKernel syntax, fixed dtypes
  std::string preamble;               // includes and the device function of the graph
  std::string operation;              // elementwise: the statement; reduction: the map expression
  std::string reduce_expr, post_map_expr, identity, reduce_type;  // reduction only
};

// The kernel of `results` (nodes of `trace`; one Reduce node, or elementwise nodes)
// writing outputs of `out_dtypes`.
FusedKernelText fused_kernel_text(const Trace& trace, std::span<const int> results,
                                  std::span<const DType> out_dtypes);

}  // namespace cunp::fusion
