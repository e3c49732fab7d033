// src/cuda/ops_types.hpp — the one table from DType to the names generated CUDA
// source uses: the src/ops storage type and a short code for kernel names.
#pragma once

#include <string_view>

#include "cunp/dtype.hpp"

namespace cunp::cuda {

struct OpsTypeNames {
  std::string_view type;  // C++ type in src/ops: "cunp::ops::f32"
  std::string_view code;  // in kernel names: "f4" (NumPy's kind + itemsize)
};

inline constexpr OpsTypeNames kOpsTypeNames[kNumDTypes] = {
    {"bool", "b1"},           {"cunp::ops::i8", "i1"},
    {"cunp::ops::u8", "u1"},  {"cunp::ops::i16", "i2"},
    {"cunp::ops::u16", "u2"}, {"cunp::ops::i32", "i4"},
    {"cunp::ops::u32", "u4"}, {"cunp::ops::i64", "i8"},
    {"cunp::ops::u64", "u8"}, {"cunp::ops::half", "f2"},
    {"cunp::ops::f32", "f4"}, {"cunp::ops::f64", "f8"},
    {"cunp::ops::c64", "c8"}, {"cunp::ops::c128", "c16"},
};

constexpr std::string_view ops_type_name(DType dt) noexcept {
  return kOpsTypeNames[static_cast<int>(dt)].type;
}
constexpr std::string_view ops_type_code(DType dt) noexcept {
  return kOpsTypeNames[static_cast<int>(dt)].code;
}

}  // namespace cunp::cuda
