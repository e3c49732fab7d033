// src/ufunc/elementwise.hpp — ufunc loops on a CUDA device: one generated kernel per
// (ufunc loop, operand storage dtypes, which operands are scalars, layout class,
// index width). Operands are converted to the loop's dtypes inside the kernel, so
// mixed-dtype inputs and outputs cost no extra pass.
#pragma once

#include <span>

#include "cunp/dtype.hpp"
#include "iter/layout.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::cuda {

// One operand of an elementwise launch. Arrays: `data` is the device address of
// element [0,...] and `dtype` its dtype in memory. Scalars: `is_scalar`, and `value`
// holds the value already converted to the loop's dtype for that operand (a float16
// loop operand holds float16 bits); `dtype` is then the loop dtype.
struct Operand {
  DType dtype = DType::Float64;
  void* data = nullptr;
  bool is_scalar = false;
  alignas(16) unsigned char value[16] = {};
};

// out_k = loop(in...) over `layout`, on the current device and stream. `operands`
// holds uf.nout outputs then uf.nin inputs, in layout's operand order (a scalar's
// stride vector is all zeros and is ignored). Outputs of a dtype other than the
// loop's are written through ops::cast.
void launch_ufunc(const ufunc::Ufunc& uf, const ufunc::Loop& loop, const iter::LoopLayout& layout,
                  std::span<const Operand> operands);

}  // namespace cunp::cuda
