// src/core/printing.hpp — repr/str of arrays and scalars, character for character as
// NumPy 2 prints them with its default print options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cunp/dtype.hpp"

namespace cunp::detail {

// repr(a) (`repr` true) or str(a) (`repr` false) of a C-ordered host buffer holding
// prod(shape) elements of `dtype`, as numpy.array_repr / numpy.array_str give them with
// NumPy 2's defaults: precision 8, threshold 1000, edgeitems 3, linewidth 75,
// floatmode 'maxprec', sign '-', suppress False, legacy False.
// float16 elements are raw IEEE half bits, complex ones (real, imag) pairs, bools one
// byte each. The prefix is always "array(" (what an ndarray, not a subclass, prints).
std::string format_array(const void* data, const std::vector<std::int64_t>& shape, DType dtype,
                         bool repr);

// str() of one element as a NumPy scalar of `dtype` (what str() of a 0-d array gives):
// "1.5", "1e+16", "nan", "-inf", "(1+2j)", "2j", "True", "-7".
std::string format_scalar(const void* data, DType dtype);

}  // namespace cunp::detail
