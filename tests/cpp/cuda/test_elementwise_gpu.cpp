// launch_ufunc on a real GPU, checked element by element against the ufunc's CPU loop
// (loop.cpu) run on the host over the same inputs. Skipped without a CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/copy.hpp"
#include "ufunc/elementwise.hpp"
#include "ufunc/elementwise_source.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/error.hpp"
#include "elementwise_test_functors.hpp"
#include "iter/layout.hpp"
#include "ops/cast.h"
#include "ufunc/registry.hpp"

namespace cunp::cuda {
namespace {

using Bytes = std::vector<unsigned char>;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

template <typename F>
void visit(DType dt, F&& f) {
  switch (dt) {
    case DType::Bool: return f(std::type_identity<bool>{});
    case DType::Int8: return f(std::type_identity<ops::i8>{});
    case DType::UInt8: return f(std::type_identity<ops::u8>{});
    case DType::Int16: return f(std::type_identity<ops::i16>{});
    case DType::UInt16: return f(std::type_identity<ops::u16>{});
    case DType::Int32: return f(std::type_identity<ops::i32>{});
    case DType::UInt32: return f(std::type_identity<ops::u32>{});
    case DType::Int64: return f(std::type_identity<ops::i64>{});
    case DType::UInt64: return f(std::type_identity<ops::u64>{});
    case DType::Float16: return f(std::type_identity<ops::half>{});
    case DType::Float32: return f(std::type_identity<ops::f32>{});
    case DType::Float64: return f(std::type_identity<ops::f64>{});
    case DType::Complex64: return f(std::type_identity<ops::c64>{});
    case DType::Complex128: return f(std::type_identity<ops::c128>{});
  }
}

std::int64_t isize(DType dt) { return static_cast<std::int64_t>(itemsize(dt)); }

// Random elements: small integers (so integer arithmetic stays meaningful), floats with
// a sprinkling of specials.
void random_element(DType dt, std::mt19937_64& rng, unsigned char* out) {
  std::uniform_int_distribution<int> small(-100, 100);
  std::normal_distribution<double> normal(0.0, 50.0);
  const double specials[] = {0.0, -0.0, 1.0, 0.5, -2.5, 65504.0, 1e-6,
                             std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
  const double v = rng() % 16 == 0 ? specials[rng() % 9] : normal(rng);
  visit(dt, [&]<typename T>(std::type_identity<T>) {
    T x{};
    if constexpr (std::is_same_v<T, bool>) {
      x = (rng() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      x = static_cast<T>(small(rng));
    } else if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>) {
      using R = decltype(x.re);
      x.re = static_cast<R>(v);
      x.im = static_cast<R>(normal(rng));
    } else {
      x = ops::cast<T>(v);
    }
    std::memcpy(out, &x, sizeof(T));
  });
}

void host_cast(DType dst_dt, void* dst, DType src_dt, const void* src) {
  visit(dst_dt, [&]<typename D>(std::type_identity<D>) {
    visit(src_dt, [&]<typename S>(std::type_identity<S>) {
      S s;
      std::memcpy(&s, src, sizeof(S));
      const D d = ops::cast<D>(s);
      std::memcpy(dst, &d, sizeof(D));
    });
  });
}

template <typename F>
bool close(F a, F b, double rel) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return std::signbit(a) == std::signbit(b) || a != 0;
  if (rel == 0 || std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <=
         rel * std::max(std::fabs(static_cast<double>(a)), std::fabs(static_cast<double>(b)));
}

// Equal (any two NaNs equal), or within `rel` for floating types when rel > 0.
bool same_element(DType dt, const unsigned char* a, const unsigned char* b, double rel) {
  bool same = false;
  visit(dt, [&]<typename T>(std::type_identity<T>) {
    T x, y;
    std::memcpy(&x, a, sizeof(T));
    std::memcpy(&y, b, sizeof(T));
    if constexpr (std::is_same_v<T, ops::half>) {
      same = close(ops::half_to_f32(x), ops::half_to_f32(y), rel * 3000);
    } else if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>) {
      // Each part within rel of the larger magnitude (parts near zero may differ more
      // in relative terms).
      using R = decltype(x.re);
      const double r = std::is_same_v<R, float> ? rel * 100 : rel;
      const double mag = std::max({std::fabs(static_cast<double>(x.re)), std::fabs(static_cast<double>(x.im)),
                                   std::fabs(static_cast<double>(y.re)), std::fabs(static_cast<double>(y.im))});
      auto part = [&](R a, R b) {
        if (close(a, b, r)) return true;
        return r > 0 && std::isfinite(mag) && std::fabs(static_cast<double>(a) - static_cast<double>(b)) <= r * mag;
      };
      same = part(x.re, y.re) && part(x.im, y.im);
    } else if constexpr (std::is_floating_point_v<T>) {
      same = close(x, y, std::is_same_v<T, float> ? rel * 100 : rel);
    } else {
      same = std::memcmp(&x, &y, sizeof(T)) == 0;
    }
  });
  return same;
}

std::string element_string(DType dt, const unsigned char* p) {
  double v = 0;
  visit(dt, [&]<typename T>(std::type_identity<T>) {
    T x;
    std::memcpy(&x, p, sizeof(T));
    if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>)
      v = static_cast<double>(x.re);
    else
      v = ops::cast<double>(x);
  });
  return std::to_string(v);
}

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) {
      EXPECT_EQ(cudaMalloc(&ptr_, bytes_), cudaSuccess);
    }
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  unsigned char* get() const { return static_cast<unsigned char*>(ptr_); }
  void upload(const Bytes& b) {
    ASSERT_EQ(cudaMemcpy(ptr_, b.data(), b.size(), cudaMemcpyHostToDevice), cudaSuccess);
  }
  Bytes download() const {
    Bytes b(bytes_);
    EXPECT_EQ(cudaMemcpy(b.data(), ptr_, bytes_, cudaMemcpyDeviceToHost), cudaSuccess);
    return b;
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

// ---- test ufuncs built from elementwise_test_functors.hpp ---------------------------

template <typename Op, typename Out, typename... In>
ufunc::Loop loop1() {
  ufunc::Loop l;
  int k = 0;
  ((l.in[static_cast<std::size_t>(k++)] = ufunc::dtype_of_op<In>::value), ...);
  l.out[0] = ufunc::dtype_of_op<Out>::value;
  l.cpu = &ufunc::cpu_loop_1<Op, Out, In...>;
  return l;
}
template <typename Op, typename Out0, typename Out1, typename... In>
ufunc::Loop loop2() {
  ufunc::Loop l;
  int k = 0;
  ((l.in[static_cast<std::size_t>(k++)] = ufunc::dtype_of_op<In>::value), ...);
  l.out[0] = ufunc::dtype_of_op<Out0>::value;
  l.out[1] = ufunc::dtype_of_op<Out1>::value;
  l.cpu = &ufunc::cpu_loop_2<Op, Out0, Out1, In...>;
  return l;
}

ufunc::Ufunc test_ufunc(std::string name, int nin, int nout) {
  ufunc::Ufunc u;
  u.functor = "cunp_ew_test::" + name;
  u.name = "test_" + name;
  u.nin = nin;
  u.nout = nout;
  u.header = kEwTestFunctorSource;
  return u;
}

const ufunc::Ufunc& t_add() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("add", 2, 1);
    namespace o = ops;
    using A = cunp_ew_test::add;
    x.loops = {loop1<A, bool, bool, bool>(),    loop1<A, o::i8, o::i8, o::i8>(),
               loop1<A, o::u8, o::u8, o::u8>(), loop1<A, o::i32, o::i32, o::i32>(),
               loop1<A, o::u64, o::u64, o::u64>(), loop1<A, o::half, o::half, o::half>(),
               loop1<A, o::f32, o::f32, o::f32>(), loop1<A, o::f64, o::f64, o::f64>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_mul() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("mul", 2, 1);
    x.loops = {loop1<cunp_ew_test::mul, ops::f32, ops::f32, ops::f32>(),
               loop1<cunp_ew_test::mul, ops::f64, ops::f64, ops::f64>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_fma3() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("fma3", 3, 1);
    x.loops = {loop1<cunp_ew_test::fma3, ops::f32, ops::f32, ops::f32, ops::f32>(),
               loop1<cunp_ew_test::fma3, ops::f64, ops::f64, ops::f64, ops::f64>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_less() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("less", 2, 1);
    x.loops = {loop1<cunp_ew_test::less, bool, ops::f32, ops::f32>(),
               loop1<cunp_ew_test::less, bool, ops::i64, ops::i64>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_neg() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("neg", 1, 1);
    x.loops = {loop1<cunp_ew_test::neg, ops::i16, ops::i16>(),
               loop1<cunp_ew_test::neg, ops::half, ops::half>(),
               loop1<cunp_ew_test::neg, ops::f64, ops::f64>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_sumdiff() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("sumdiff", 2, 2);
    x.loops = {loop2<cunp_ew_test::sumdiff, ops::i32, ops::i32, ops::i32, ops::i32>(),
               loop2<cunp_ew_test::sumdiff, ops::half, ops::half, ops::half, ops::half>()};
    return x;
  }();
  return u;
}
const ufunc::Ufunc& t_scale_exp() {
  static const ufunc::Ufunc u = [] {
    ufunc::Ufunc x = test_ufunc("scale_exp", 2, 1);
    x.resolution = ufunc::Resolution::PerOperand;
    x.loops = {loop1<cunp_ew_test::scale_exp, ops::f32, ops::f32, ops::i32>(),
               loop1<cunp_ew_test::scale_exp, ops::half, ops::half, ops::i32>()};
    return x;
  }();
  return u;
}

const ufunc::Loop& find_loop(const ufunc::Ufunc& uf, DType first_in) {
  for (const ufunc::Loop& l : uf.loops)
    if (l.in[0] == first_in) return l;
  ADD_FAILURE() << uf.name << " has no loop for " << name(first_in);
  return uf.loops.front();
}

// ---- one checked launch -------------------------------------------------------------

// One operand of a case. Arrays: storage dtype, element strides over the case's shape
// (empty: C-contiguous; 0: broadcast), a leading offset in elements (misalignment).
struct Arg {
  DType dtype = DType::Float32;
  bool scalar = false;
  std::vector<std::int64_t> strides;
  std::int64_t offset = 0;
};
Arg arr(DType dt, std::vector<std::int64_t> strides = {}, std::int64_t offset = 0) {
  return {dt, false, std::move(strides), offset};
}
Arg scalar() { return {DType::Float32, true, {}, 0}; }

// Runs uf/loop over `shape` with `args` (outputs first) on the GPU and on the host and
// compares every output element. `rel`: relative tolerance for floats (0: exact).
void check_case(const ufunc::Ufunc& uf, const ufunc::Loop& loop, const Shape& shape,
                std::vector<Arg> args, double rel = 0, std::uint64_t seed = 1) {
  SCOPED_TRACE(uf.name + " " + loop.signature(uf.nin, uf.nout));
  const int nout = uf.nout, nop = uf.nin + uf.nout;
  ASSERT_EQ(static_cast<int>(args.size()), nop);
  auto loop_dtype = [&](int k) {
    return k < nout ? loop.out[static_cast<std::size_t>(k)]
                    : loop.in[static_cast<std::size_t>(k - nout)];
  };
  std::int64_t size = 1;
  for (std::int64_t d : shape) size *= d;
  const std::size_t nd = shape.size();
  std::mt19937_64 rng(seed);

  // Byte strides, buffers (with a guard band) and host data per operand.
  std::vector<Strides> strides(static_cast<std::size_t>(nop));
  std::vector<Bytes> host(static_cast<std::size_t>(nop));
  std::vector<std::unique_ptr<DeviceBuffer>> dev(static_cast<std::size_t>(nop));
  std::vector<Operand> operands(static_cast<std::size_t>(nop));
  for (int k = 0; k < nop; ++k) {
    Arg& a = args[static_cast<std::size_t>(k)];
    Strides& s = strides[static_cast<std::size_t>(k)];
    Operand& op = operands[static_cast<std::size_t>(k)];
    if (a.scalar) {
      s.assign(nd, 0);
      op.is_scalar = true;
      op.dtype = loop_dtype(k);
      random_element(op.dtype, rng, op.value);
      continue;
    }
    const std::int64_t item = isize(a.dtype);
    if (a.strides.empty()) {
      a.strides.assign(nd, 1);
      for (std::size_t d = nd; d-- > 1;) a.strides[d - 1] = a.strides[d] * shape[d];
    }
    std::int64_t extent = 1;
    for (std::size_t d = 0; d < nd; ++d) {
      s.push_back(a.strides[d] * item);
      if (shape[d] > 0 && a.strides[d] > 0) extent += (shape[d] - 1) * a.strides[d];
    }
    const std::int64_t count = a.offset + extent + 3;
    host[static_cast<std::size_t>(k)].resize(static_cast<std::size_t>(count * item));
    for (std::int64_t i = 0; i < count; ++i)
      random_element(a.dtype, rng, host[static_cast<std::size_t>(k)].data() + i * item);
    dev[static_cast<std::size_t>(k)] = std::make_unique<DeviceBuffer>(static_cast<std::size_t>(count * item));
    dev[static_cast<std::size_t>(k)]->upload(host[static_cast<std::size_t>(k)]);
    op.dtype = a.dtype;
    op.data = dev[static_cast<std::size_t>(k)]->get() + a.offset * item;
  }

  const iter::LoopLayout layout = iter::make_layout(shape, strides);
  launch_ufunc(uf, loop, layout, operands);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  // The host reference: gather every input element (storage -> loop dtype) into
  // contiguous loop-dtype arrays, run loop.cpu, then cast each output to storage.
  std::vector<Bytes> ref(static_cast<std::size_t>(nop));
  for (int k = 0; k < nop; ++k)
    ref[static_cast<std::size_t>(k)].resize(static_cast<std::size_t>(std::max<std::int64_t>(size, 1) * isize(loop_dtype(k))));
  std::vector<std::int64_t> elem_offset(static_cast<std::size_t>(nop * std::max<std::int64_t>(size, 1)));
  std::vector<std::int64_t> idx(nd, 0);
  for (std::int64_t i = 0; i < size; ++i) {
    for (int k = 0; k < nop; ++k) {
      const Arg& a = args[static_cast<std::size_t>(k)];
      const DType ld = loop_dtype(k);
      unsigned char* dst = ref[static_cast<std::size_t>(k)].data() + i * isize(ld);
      if (a.scalar) {
        std::memcpy(dst, operands[static_cast<std::size_t>(k)].value, static_cast<std::size_t>(isize(ld)));
        continue;
      }
      std::int64_t off = a.offset;
      for (std::size_t d = 0; d < nd; ++d) off += idx[d] * a.strides[d];
      elem_offset[static_cast<std::size_t>(k * size + i)] = off;
      if (k >= nout) host_cast(ld, dst, a.dtype, host[static_cast<std::size_t>(k)].data() + off * isize(a.dtype));
    }
    for (std::size_t d = nd; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  if (size > 0) {
    iter::LoopLayout flat;
    flat.shape = {size};
    flat.size = size;
    char* ptrs[ufunc::kMaxIn + ufunc::kMaxOut];
    for (int k = 0; k < nop; ++k) {
      flat.strides.push_back({isize(loop_dtype(k))});
      ptrs[k] = reinterpret_cast<char*>(ref[static_cast<std::size_t>(k)].data());
    }
    loop.cpu(flat, ptrs);
  }

  int failures = 0;
  for (int k = 0; k < nout; ++k) {
    const Arg& a = args[static_cast<std::size_t>(k)];
    const Bytes got = dev[static_cast<std::size_t>(k)]->download();
    const Bytes& before = host[static_cast<std::size_t>(k)];
    std::vector<bool> written(got.size() / static_cast<std::size_t>(isize(a.dtype)), false);
    for (std::int64_t i = 0; i < size; ++i) {
      const std::int64_t off = elem_offset[static_cast<std::size_t>(k * size + i)];
      written[static_cast<std::size_t>(off)] = true;
      unsigned char want[16];
      host_cast(a.dtype, want, loop_dtype(k), ref[static_cast<std::size_t>(k)].data() + i * isize(loop_dtype(k)));
      const unsigned char* g = got.data() + off * isize(a.dtype);
      if (!same_element(a.dtype, g, want, rel) && ++failures <= 5)
        ADD_FAILURE() << "output " << k << " element " << i << ": got " << element_string(a.dtype, g)
                      << ", want " << element_string(a.dtype, want);
    }
    // Everything else (guard bands, gaps of strided outputs) is untouched.
    for (std::size_t e = 0; e < written.size(); ++e) {
      const std::size_t b = e * static_cast<std::size_t>(isize(a.dtype));
      if (!written[e] && std::memcmp(got.data() + b, before.data() + b, static_cast<std::size_t>(isize(a.dtype))) != 0 &&
          ++failures <= 5)
        ADD_FAILURE() << "output " << k << " element at " << e << " was overwritten";
    }
  }
  EXPECT_EQ(failures, 0);
}

// ---- cases --------------------------------------------------------------------------

TEST(ElementwiseGpu, ContiguousEveryDtypeOfATestUfunc) {
  SKIP_WITHOUT_GPU();
  for (const ufunc::Loop& l : t_add().loops) {
    const DType d = l.in[0];
    for (std::int64_t n : {1, 7, 1000, 100003})
      check_case(t_add(), l, {n}, {arr(d), arr(d), arr(d)});
  }
}

TEST(ElementwiseGpu, Misaligned) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  // All operands off by the same element count: a scalar head, then the vector body.
  check_case(t_add(), f, {10007}, {arr(DType::Float32, {}, 1), arr(DType::Float32, {}, 1), arr(DType::Float32, {}, 1)});
  check_case(t_add(), f, {10007}, {arr(DType::Float32, {}, 3), arr(DType::Float32, {}, 3), arr(DType::Float32, {}, 3)});
  // Differently misaligned: everything scalar.
  check_case(t_add(), f, {10007}, {arr(DType::Float32), arr(DType::Float32, {}, 1), arr(DType::Float32, {}, 2)});
  const ufunc::Loop& h = find_loop(t_add(), DType::Float16);
  check_case(t_add(), h, {4099}, {arr(DType::Float16, {}, 5), arr(DType::Float16, {}, 5), arr(DType::Float16, {}, 5)});
  const ufunc::Loop& b = find_loop(t_add(), DType::Int8);
  check_case(t_add(), b, {4099}, {arr(DType::Int8, {}, 9), arr(DType::Int8, {}, 9), arr(DType::Int8, {}, 1)});
}

TEST(ElementwiseGpu, Strided) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  // Every second element; a transposed input; a 3-d block out of a larger array.
  check_case(t_add(), f, {5000}, {arr(DType::Float32, {2}), arr(DType::Float32, {3}), arr(DType::Float32)});
  check_case(t_add(), f, {37, 53}, {arr(DType::Float32), arr(DType::Float32, {1, 37}), arr(DType::Float32)});
  check_case(t_add(), f, {5, 6, 7}, {arr(DType::Float32, {100, 10, 1}), arr(DType::Float32), arr(DType::Float32, {1, 5, 30})});
  // Outputs with gaps: untouched elements must stay.
  const ufunc::Loop& d = find_loop(t_add(), DType::Float64);
  check_case(t_add(), d, {64, 9}, {arr(DType::Float64, {20, 2}), arr(DType::Float64), arr(DType::Float64)});
  // High rank (run-time index loop): 6 dims, each strided.
  check_case(t_add(), f, {2, 3, 2, 3, 2, 5},
             {arr(DType::Float32, {360, 120, 60, 20, 10, 2}), arr(DType::Float32), arr(DType::Float32)});
  // Negative strides.
  check_case(t_neg(), find_loop(t_neg(), DType::Int16), {300},
             {arr(DType::Int16), arr(DType::Int16, {-1}, 299)});
}

TEST(ElementwiseGpu, BroadcastWithZeroStrides) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  check_case(t_add(), f, {300, 257}, {arr(DType::Float32), arr(DType::Float32), arr(DType::Float32, {0, 1})});
  check_case(t_add(), f, {300, 257}, {arr(DType::Float32), arr(DType::Float32, {1, 0}), arr(DType::Float32, {0, 1})});
  check_case(t_add(), f, {1000}, {arr(DType::Float32), arr(DType::Float32, {0}), arr(DType::Float32)});
  check_case(t_fma3(), find_loop(t_fma3(), DType::Float64), {20, 30, 4},
             {arr(DType::Float64), arr(DType::Float64, {0, 4, 1}), arr(DType::Float64, {120, 0, 1}),
              arr(DType::Float64, {0, 0, 1})});
}

TEST(ElementwiseGpu, ScalarOperands) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_mul(), DType::Float32);
  check_case(t_mul(), f, {100003}, {arr(DType::Float32), arr(DType::Float32), scalar()});
  check_case(t_mul(), f, {100003}, {arr(DType::Float32), scalar(), arr(DType::Float32)});
  check_case(t_mul(), f, {33, 17}, {arr(DType::Float32), scalar(), arr(DType::Float32, {1, 33})});
  // Every input a scalar: the output is filled.
  check_case(t_mul(), f, {1000}, {arr(DType::Float32), scalar(), scalar()});
  // A float16 scalar is converted to float once, in the kernel.
  const ufunc::Loop& h = find_loop(t_add(), DType::Float16);
  check_case(t_add(), h, {999}, {arr(DType::Float16), arr(DType::Float16), scalar()});
  check_case(t_fma3(), find_loop(t_fma3(), DType::Float32), {5000},
             {arr(DType::Float32), arr(DType::Float32), scalar(), arr(DType::Float32)});
  check_case(t_scale_exp(), find_loop(t_scale_exp(), DType::Float32), {4000},
             {arr(DType::Float32), arr(DType::Float32), scalar()});
}

TEST(ElementwiseGpu, MixedStorageDtypes) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  // Inputs of other dtypes are cast to the loop's in the kernel.
  check_case(t_add(), f, {10001}, {arr(DType::Float32), arr(DType::Int8), arr(DType::Float64)});
  check_case(t_add(), f, {10001}, {arr(DType::Float32), arr(DType::Float16), arr(DType::UInt16)});
  check_case(t_add(), f, {10001}, {arr(DType::Float32), arr(DType::Bool), arr(DType::Complex64)});
  // Float16 loop from float32 and int32 storage (rounded to half first).
  const ufunc::Loop& h = find_loop(t_add(), DType::Float16);
  check_case(t_add(), h, {3001}, {arr(DType::Float16), arr(DType::Float32), arr(DType::Int32)});
  // Mixed and strided.
  check_case(t_add(), f, {40, 41}, {arr(DType::Float32), arr(DType::Int64, {1, 40}), arr(DType::Float16, {0, 1})});
  check_case(t_less(), find_loop(t_less(), DType::Float32), {2000}, {arr(DType::Bool), arr(DType::Float64), arr(DType::Int16)});
}

TEST(ElementwiseGpu, OutputDtypeDiffersFromLoop) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  // The result is rounded to the loop's dtype first, then cast to the output's.
  check_case(t_add(), f, {10001}, {arr(DType::Float64), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {10001}, {arr(DType::Float16), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {10001}, {arr(DType::Int32), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {10001}, {arr(DType::Complex128), arr(DType::Float64), arr(DType::Float64)});
  check_case(t_less(), find_loop(t_less(), DType::Int64), {999}, {arr(DType::Float32), arr(DType::Int64), arr(DType::Int64)});
  const ufunc::Loop& h = find_loop(t_add(), DType::Float16);
  check_case(t_add(), h, {3001}, {arr(DType::Float64), arr(DType::Float16), arr(DType::Float16)});
}

TEST(ElementwiseGpu, TwoOutputs) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& i = find_loop(t_sumdiff(), DType::Int32);
  check_case(t_sumdiff(), i, {10001}, {arr(DType::Int32), arr(DType::Int32), arr(DType::Int32), arr(DType::Int32)});
  check_case(t_sumdiff(), i, {10001}, {arr(DType::Int64), arr(DType::Int8), arr(DType::Int32), scalar()});
  check_case(t_sumdiff(), i, {50, 60}, {arr(DType::Int32, {1, 50}), arr(DType::Int32), arr(DType::Int32, {0, 1}), arr(DType::Int32)});
  const ufunc::Loop& h = find_loop(t_sumdiff(), DType::Float16);
  check_case(t_sumdiff(), h, {3001}, {arr(DType::Float16), arr(DType::Float32), arr(DType::Float16), arr(DType::Float16)});
}

TEST(ElementwiseGpu, EmptyAndZeroD) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  check_case(t_add(), f, {0}, {arr(DType::Float32), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {3, 0, 5}, {arr(DType::Float32), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {}, {arr(DType::Float32), arr(DType::Float32), arr(DType::Float32)});
  check_case(t_add(), f, {}, {arr(DType::Float64), arr(DType::Float32), scalar()});
  check_case(t_sumdiff(), find_loop(t_sumdiff(), DType::Int32), {},
             {arr(DType::Int32), arr(DType::Int32), arr(DType::Int32), arr(DType::Int32)});
}

TEST(ElementwiseGpu, Forced64BitIndex) {
  SKIP_WITHOUT_GPU();
  set_elementwise_force_index64(true);
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  check_case(t_add(), f, {10007}, {arr(DType::Float32, {}, 1), arr(DType::Float32, {}, 1), arr(DType::Float32, {}, 1)});
  check_case(t_add(), f, {37, 53}, {arr(DType::Float32), arr(DType::Float32, {1, 37}), scalar()});
  check_case(t_add(), f, {2, 3, 2, 3, 2, 5},
             {arr(DType::Float32, {360, 120, 60, 20, 10, 2}), arr(DType::Float32), arr(DType::Float32)});
  set_elementwise_force_index64(false);
}

TEST(ElementwiseGpu, MoreThan2To31Elements) {
  SKIP_WITHOUT_GPU();
  std::size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  const std::int64_t n = (std::int64_t{1} << 31) + 77;
  if (free_bytes < static_cast<std::size_t>(3 * n + (std::int64_t{1} << 30)))
    GTEST_SKIP() << "not enough device memory";
  const ufunc::Loop& l = find_loop(t_add(), DType::UInt8);
  DeviceBuffer a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  ASSERT_EQ(cudaMemset(a.get(), 1, static_cast<std::size_t>(n)), cudaSuccess);
  ASSERT_EQ(cudaMemset(b.get(), 2, static_cast<std::size_t>(n)), cudaSuccess);
  ASSERT_EQ(cudaMemset(out.get(), 0, static_cast<std::size_t>(n)), cudaSuccess);
  iter::LoopLayout layout = iter::make_layout({n}, {{1}, {1}, {1}});
  Operand ops[3];
  ops[0].dtype = ops[1].dtype = ops[2].dtype = DType::UInt8;
  ops[0].data = out.get();
  ops[1].data = a.get();
  ops[2].data = b.get();
  launch_ufunc(t_add(), l, layout, ops);
  // The same through the strided kernel (every second element of the first half).
  DeviceBuffer out2(static_cast<std::size_t>(n));
  ASSERT_EQ(cudaMemset(out2.get(), 0, static_cast<std::size_t>(n)), cudaSuccess);
  iter::LoopLayout strided = iter::make_layout({n / 2}, {{2}, {2}, {1}});
  ops[0].data = out2.get();
  launch_ufunc(t_add(), l, strided, ops);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{12345}, (std::int64_t{1} << 31) - 1,
                         std::int64_t{1} << 31, n - 2, n - 1}) {
    unsigned char v = 0, w = 9;
    ASSERT_EQ(cudaMemcpy(&v, out.get() + i, 1, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(&w, out2.get() + i, 1, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(v, 3) << i;
    EXPECT_EQ(w, (i % 2 == 0 && i < 2 * (n / 2)) ? 3 : 0) << i;
  }
}

TEST(ElementwiseGpu, InPlace) {
  SKIP_WITHOUT_GPU();
  // out is an input: a = a + b.
  const std::int64_t n = 100003;
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  std::vector<float> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<float>(i);
    b[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i % 7);
  }
  DeviceBuffer da(static_cast<std::size_t>(n) * 4), db(static_cast<std::size_t>(n) * 4);
  ASSERT_EQ(cudaMemcpy(da.get(), a.data(), a.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(db.get(), b.data(), b.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
  Operand ops[3];
  ops[0].dtype = ops[1].dtype = ops[2].dtype = DType::Float32;
  ops[0].data = ops[1].data = da.get();
  ops[2].data = db.get();
  launch_ufunc(t_add(), f, iter::make_layout({n}, {{4}, {4}, {4}}), ops);
  std::vector<float> got(static_cast<std::size_t>(n));
  ASSERT_EQ(cudaMemcpy(got.data(), da.get(), got.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)], a[static_cast<std::size_t>(i)] + b[static_cast<std::size_t>(i)]) << i;
}

TEST(ElementwiseGpu, BadOperandsThrow) {
  SKIP_WITHOUT_GPU();
  const ufunc::Loop& f = find_loop(t_add(), DType::Float32);
  Operand ops[3];
  EXPECT_THROW(launch_ufunc(t_add(), f, iter::make_layout({4}, {{4}, {4}}), std::span<const Operand>(ops, 2)),
               ValueError);
  ops[0].is_scalar = true;
  EXPECT_THROW(launch_ufunc(t_add(), f, iter::make_layout({4}, {{4}, {4}, {4}}), ops), ValueError);
}

// Registered ufuncs (when their definitions are linked in): every loop, contiguous and
// strided, against the CPU loops. Transcendental functions may differ in the last bits
// between the device's math library and the host's.
TEST(ElementwiseGpu, RegisteredUfuncs) {
  SKIP_WITHOUT_GPU();
  const char* names[] = {"add",  "multiply", "true_divide", "floor_divide", "sin",
                         "maximum", "less", "divmod", "clip", "_where"};
  int tested = 0;
  for (const char* nm : names) {
    const ufunc::Ufunc* uf = ufunc::find(nm);
    if (uf == nullptr) continue;
    const bool approx = std::string(nm) == "sin";
    for (const ufunc::Loop& l : uf->loops) {
      std::vector<Arg> contiguous, strided;
      for (int k = 0; k < uf->nin + uf->nout; ++k) {
        const DType d = k < uf->nout ? l.out[static_cast<std::size_t>(k)]
                                     : l.in[static_cast<std::size_t>(k - uf->nout)];
        contiguous.push_back(arr(d));
        strided.push_back(k == uf->nout ? arr(d, {1, 31}) : arr(d));
      }
      check_case(*uf, l, {1001}, contiguous, approx ? 1e-6 : 0);
      check_case(*uf, l, {31, 17}, strided, approx ? 1e-6 : 0);
      ++tested;
    }
  }
  std::printf("  %d registered loops checked\n", tested);
}

// ---- measurements (run with --gtest_also_run_disabled_tests) ------------------------

double time_ms(int reps, const std::function<void()>& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();
  cudaEventRecord(start);
  for (int r = 0; r < reps; ++r) f();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / reps;
}

TEST(ElementwiseGpuBench, DISABLED_BandwidthAndHostOverhead) {
  SKIP_WITHOUT_GPU();
  const std::int64_t n = std::int64_t{1} << 27;
  DeviceBuffer a(static_cast<std::size_t>(n) * 4), b(static_cast<std::size_t>(n) * 4), c(static_cast<std::size_t>(n) * 4);
  {
    float one = 0.75f;
    const iter::LoopLayout l1 = iter::make_layout({n}, {{4}});
    fill(l1, a.get(), DType::Float32, &one);
    one = 1.25f;
    fill(l1, b.get(), DType::Float32, &one);
  }
  const iter::LoopLayout l2 = iter::make_layout({n}, {{4}, {4}});
  const iter::LoopLayout l3 = iter::make_layout({n}, {{4}, {4}, {4}});
  Operand ops[3];
  ops[0].dtype = ops[1].dtype = ops[2].dtype = DType::Float32;
  ops[0].data = c.get();
  ops[1].data = a.get();
  ops[2].data = b.get();
  const std::span<const Operand> unary(ops, 2);  // out, a
  const double gb = static_cast<double>(n) * 4 / 1e9;
  const double memcpy_ms = time_ms(20, [&] {
    cudaMemcpyAsync(c.get(), a.get(), static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToDevice, nullptr);
  });
  std::printf("  memcpy f32        %.3f ms  %.0f GB/s\n", memcpy_ms, 2 * gb / memcpy_ms * 1e3);

  const ufunc::Ufunc* add = ufunc::find("add");
  const ufunc::Ufunc& uadd = add ? *add : t_add();
  const ufunc::Loop& fadd = find_loop(uadd, DType::Float32);
  const double add_ms = time_ms(20, [&] { launch_ufunc(uadd, fadd, l3, ops); });
  std::printf("  %s f32 a+b   %.3f ms  %.0f GB/s\n", uadd.name.c_str(), add_ms, 3 * gb / add_ms * 1e3);

  const ufunc::Ufunc* mul = ufunc::find("multiply");
  const ufunc::Ufunc& umul = mul ? *mul : t_mul();
  const ufunc::Loop& fmul = find_loop(umul, DType::Float32);
  Operand sops[3] = {ops[0], ops[1], ops[2]};
  sops[2].is_scalar = true;
  const float k = 2.5f;
  std::memcpy(sops[2].value, &k, 4);
  const double mul_ms = time_ms(20, [&] { launch_ufunc(umul, fmul, l3, sops); });
  std::printf("  %s f32 a*2.5  %.3f ms  %.0f GB/s\n", umul.name.c_str(), mul_ms, 2 * gb / mul_ms * 1e3);

  if (const ufunc::Ufunc* sin = ufunc::find("sin")) {
    const ufunc::Loop& fsin = find_loop(*sin, DType::Float32);
    const double sin_ms = time_ms(20, [&] { launch_ufunc(*sin, fsin, l2, unary); });
    std::printf("  sin f32           %.3f ms  %.0f GB/s\n", sin_ms, 2 * gb / sin_ms * 1e3);
  }
  // The unroll choice (default: 2 packs for float32), for tuning.
  for (int unroll : {1, 4}) {
    set_elementwise_unroll_override(unroll);
    const double u_add = time_ms(20, [&] { launch_ufunc(uadd, fadd, l3, ops); });
    double u_sin = 0;
    if (const ufunc::Ufunc* sin = ufunc::find("sin"))
      u_sin = time_ms(20, [&] { launch_ufunc(*sin, find_loop(*sin, DType::Float32), l2, unary); });
    std::printf("  unroll %d: a+b %.0f GB/s, sin %.0f GB/s\n", unroll, 3 * gb / u_add * 1e3,
                u_sin > 0 ? 2 * gb / u_sin * 1e3 : 0.0);
  }
  set_elementwise_unroll_override(0);
  // Strided and broadcast, for reference.
  const iter::LoopLayout bl = iter::make_layout({n / 8192, 8192}, {{8192 * 4, 4}, {8192 * 4, 4}, {0, 4}});
  const double bc_ms = time_ms(20, [&] { launch_ufunc(uadd, fadd, bl, ops); });
  std::printf("  a+b[None,:] 2-d   %.3f ms  %.0f GB/s (a and out)\n", bc_ms, 2 * gb / bc_ms * 1e3);
  const iter::LoopLayout hl = iter::make_layout({n / 2}, {{4}, {8}, {8}});
  const double st_ms = time_ms(20, [&] { launch_ufunc(uadd, fadd, hl, ops); });
  std::printf("  a[::2]+b[::2]     %.3f ms  %.0f GB/s (bytes touched)\n", st_ms, 5 * gb / 2 / st_ms * 1e3);

  // Host overhead of a small launch: a+b over 1000 elements, kernels cached.
  const iter::LoopLayout small = iter::make_layout({1000}, {{4}, {4}, {4}});
  for (int i = 0; i < 100; ++i) launch_ufunc(uadd, fadd, small, ops);
  cudaDeviceSynchronize();
  constexpr int kReps = 20000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kReps; ++i) launch_ufunc(uadd, fadd, small, ops);
  const auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  std::printf("  host time per 1000-element launch_ufunc: %.2f us\n",
              std::chrono::duration<double, std::micro>(t1 - t0).count() / kReps);
  ElementwiseSpec spec = elementwise_spec(uadd, fadd);
  volatile std::uint64_t sink = 0;
  const auto t2 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000000; ++i) sink = sink + elementwise_kernel_key(spec, 90).op;
  const auto t3 = std::chrono::steady_clock::now();
  std::printf("  key build: %.1f ns\n", std::chrono::duration<double, std::nano>(t3 - t2).count() / 1e6);
}

}  // namespace
}  // namespace cunp::cuda
