// src/core/dispatch.hpp — calls a generic lambda with the C++ element type of a
// runtime dtype: `dispatch_dtype(dt, [&]<typename T>() { ... })`. The element types
// are the src/ops storage types, so host loops and NVRTC kernels agree bit for bit.
#pragma once

#include "cunp/dtype.hpp"
#include "ops/cast.h"

namespace cunp {

template <typename F>
decltype(auto) dispatch_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::Bool: return f.template operator()<bool>();
    case DType::Int8: return f.template operator()<ops::i8>();
    case DType::UInt8: return f.template operator()<ops::u8>();
    case DType::Int16: return f.template operator()<ops::i16>();
    case DType::UInt16: return f.template operator()<ops::u16>();
    case DType::Int32: return f.template operator()<ops::i32>();
    case DType::UInt32: return f.template operator()<ops::u32>();
    case DType::Int64: return f.template operator()<ops::i64>();
    case DType::UInt64: return f.template operator()<ops::u64>();
    case DType::Float16: return f.template operator()<ops::half>();
    case DType::Float32: return f.template operator()<ops::f32>();
    case DType::Float64: return f.template operator()<ops::f64>();
    case DType::Complex64: return f.template operator()<ops::c64>();
    case DType::Complex128: return f.template operator()<ops::c128>();
  }
  return f.template operator()<ops::f64>();
}

}  // namespace cunp
