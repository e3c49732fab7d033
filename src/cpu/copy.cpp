// src/cpu/copy.cpp — casts, copies and fills over strided layouts, instantiated from
// the scalar cast of src/ops for every dtype pair.
#include "cpu/copy.hpp"

#include <cstring>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cpu/strided_loop.hpp"
#include "ops/cast.h"

namespace cunp::cpu {

static void copy_cast_serial(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
                             DType src_dtype);

void copy_cast(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
               DType src_dtype) {
  char* const ptrs[2] = {static_cast<char*>(dst), const_cast<char*>(static_cast<const char*>(src))};
  parallel_split(layout, ptrs, [&](const iter::LoopLayout& sub, char* const* p) {
    copy_cast_serial(sub, p[0], dst_dtype, p[1], src_dtype);
  });
}

static void copy_cast_serial(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* src,
                             DType src_dtype) {
  char* const base[2] = {static_cast<char*>(dst), const_cast<char*>(static_cast<const char*>(src))};
  dispatch_dtype(dst_dtype, [&]<typename To>() {
    dispatch_dtype(src_dtype, [&]<typename From>() {
      for_each_row<2>(layout, base, [](char* const* p, std::int64_t n, const std::int64_t* s) {
        char* d = p[0];
        const char* f = p[1];
        if constexpr (sizeof(To) == sizeof(From) && ops::is_same<To, From>::value) {
          if (s[0] == static_cast<std::int64_t>(sizeof(To)) && s[1] == s[0]) {
            std::memmove(d, f, static_cast<std::size_t>(n) * sizeof(To));
            return;
          }
        }
        for (std::int64_t i = 0; i < n; ++i, d += s[0], f += s[1]) {
          From x;
          std::memcpy(&x, f, sizeof(From));
          const To y = ops::cast<To>(x);
          std::memcpy(d, &y, sizeof(To));
        }
      });
    });
  });
}

void fill(const iter::LoopLayout& layout, void* dst, DType dst_dtype, const void* value) {
  char* const base[1] = {static_cast<char*>(dst)};
  dispatch_dtype(dst_dtype, [&]<typename T>() {
    T v;
    std::memcpy(&v, value, sizeof(T));
    for_each_row<1>(layout, base, [&v](char* const* p, std::int64_t n, const std::int64_t* s) {
      char* d = p[0];
      for (std::int64_t i = 0; i < n; ++i, d += s[0]) std::memcpy(d, &v, sizeof(T));
    });
  });
}

}  // namespace cunp::cpu
