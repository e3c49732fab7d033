// Small ufunc functors for the elementwise kernel tests, written once: the macro body
// is compiled by g++ (the CPU reference loops) and its text, through the stringizing
// below, is the "header" NVRTC compiles into the kernels (ElementwiseSpec::header
// accepts functor source text).
#pragma once

#include "ops/cast.h"

#define CUNP_EW_TEST_FUNCTORS(...)  \
  namespace cunp_ew_test {          \
  __VA_ARGS__                       \
  }                                 \
  inline constexpr const char* kEwTestFunctorSource = \
      "\n// cunp elementwise test functors\nnamespace cunp_ew_test {\n" #__VA_ARGS__ "\n}\n";

CUNP_EW_TEST_FUNCTORS(
struct add {
  template <typename T>
  CUNP_HD T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
struct mul {
  template <typename T>
  CUNP_HD T operator()(T a, T b) const { return static_cast<T>(a * b); }
};
struct fma3 {
  template <typename T>
  CUNP_HD T operator()(T a, T b, T c) const { return static_cast<T>(a * b + c); }
};
struct less {
  template <typename T>
  CUNP_HD bool operator()(T a, T b) const { return a < b; }
};
struct neg {
  template <typename T>
  CUNP_HD T operator()(T a) const { return static_cast<T>(-a); }
};
struct sumdiff {
  template <typename T>
  CUNP_HD void operator()(T a, T b, T& s, T& d) const {
    s = static_cast<T>(a + b);
    d = static_cast<T>(a - b);
  }
};
struct scale_exp {
  template <typename T>
  CUNP_HD T operator()(T x, int e) const {
    T r = x;
    for (int i = 0; i < (e & 7); ++i) r = r * T(2);
    return r;
  }
};
)

#undef CUNP_EW_TEST_FUNCTORS
