// src/linalg/int_gemm.cpp — integer and bool GEMM (Note [Integer GEMM]): a strided loop
// on the cpu device, the generated kernel (int_gemm_cuda.cpp) on CUDA devices.
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cunp/error.hpp"
#include "linalg/vendor.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg::detail {
namespace {

template <typename T>
T read(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
struct accumulator {
  // make_unsigned is named lazily: it is ill-formed for bool, which GCC 13 rejects even
  // in the branch not taken.
  using type = typename std::conditional_t<(sizeof(T) < 4), std::type_identity<std::uint32_t>,
                                           std::make_unsigned<T>>::type;
};
template <>
struct accumulator<bool> {
  using type = unsigned char;
};

// Row i of C accumulates A[i, l] * B[l, :] over l (B read along its rows), in the
// unsigned type of T's width so that overflow wraps as NumPy's does.
template <typename T>
void int_gemm_cpu(const IntGemmArgs& g) {
  constexpr bool kBool = std::is_same_v<T, bool>;
  using U = typename accumulator<T>::type;
  std::vector<U> row(static_cast<std::size_t>(g.n));
  T* pc = static_cast<T*>(g.c);
  for (std::int64_t q = 0; q < g.batch; ++q) {
    const char* pa = static_cast<const char*>(g.a) + q * g.a_batch;
    const char* pb = static_cast<const char*>(g.b) + q * g.b_batch;
    for (std::int64_t i = 0; i < g.m; ++i, pc += g.n) {
      std::fill(row.begin(), row.end(), U(0));
      for (std::int64_t l = 0; l < g.k; ++l) {
        const char* brow = pb + l * g.b_row;
        if constexpr (kBool) {
          if (read<unsigned char>(pa + i * g.a_row + l * g.a_col) == 0) continue;
          for (std::int64_t j = 0; j < g.n; ++j)
            row[j] |= read<unsigned char>(brow + j * g.b_col) != 0;
        } else {
          const U av = static_cast<U>(read<T>(pa + i * g.a_row + l * g.a_col));
          if (av == 0) continue;
          for (std::int64_t j = 0; j < g.n; ++j)
            row[j] = static_cast<U>(
                row[j] + static_cast<U>(av * static_cast<U>(read<T>(brow + j * g.b_col))));
        }
      }
      for (std::int64_t j = 0; j < g.n; ++j) pc[j] = static_cast<T>(row[j]);
    }
  }
}

}  // namespace

void int_gemm(Device device, const IntGemmArgs& g) {
  if (device.is_cuda()) return int_gemm_cuda(device.index, g);
  switch (g.dtype) {
    case DType::Bool:
      return int_gemm_cpu<bool>(g);
    case DType::Int8:
      return int_gemm_cpu<std::int8_t>(g);
    case DType::UInt8:
      return int_gemm_cpu<std::uint8_t>(g);
    case DType::Int16:
      return int_gemm_cpu<std::int16_t>(g);
    case DType::UInt16:
      return int_gemm_cpu<std::uint16_t>(g);
    case DType::Int32:
      return int_gemm_cpu<std::int32_t>(g);
    case DType::UInt32:
      return int_gemm_cpu<std::uint32_t>(g);
    case DType::Int64:
      return int_gemm_cpu<std::int64_t>(g);
    case DType::UInt64:
      return int_gemm_cpu<std::uint64_t>(g);
    default:
      throw TypeError("integer matmul of " + std::string(name(g.dtype)));
  }
}

}  // namespace cunp::linalg::detail
