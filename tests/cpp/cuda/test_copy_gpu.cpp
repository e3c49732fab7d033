// copy_cast and fill on a real GPU, checked element by element against the host
// running the same cunp::ops::cast. Skipped without a CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/copy.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "iter/layout.hpp"
#include "ops/cast.h"

namespace cunp::cuda {
namespace {

using Bytes = std::vector<unsigned char>;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

// Calls f(std::type_identity<T>{}) with the ops storage type of `dt`.
template <typename F>
void visit(DType dt, F&& f) {
  switch (dt) {
    case DType::Bool:
      return f(std::type_identity<bool>{});
    case DType::Int8:
      return f(std::type_identity<ops::i8>{});
    case DType::UInt8:
      return f(std::type_identity<ops::u8>{});
    case DType::Int16:
      return f(std::type_identity<ops::i16>{});
    case DType::UInt16:
      return f(std::type_identity<ops::u16>{});
    case DType::Int32:
      return f(std::type_identity<ops::i32>{});
    case DType::UInt32:
      return f(std::type_identity<ops::u32>{});
    case DType::Int64:
      return f(std::type_identity<ops::i64>{});
    case DType::UInt64:
      return f(std::type_identity<ops::u64>{});
    case DType::Float16:
      return f(std::type_identity<ops::half>{});
    case DType::Float32:
      return f(std::type_identity<ops::f32>{});
    case DType::Float64:
      return f(std::type_identity<ops::f64>{});
    case DType::Complex64:
      return f(std::type_identity<ops::c64>{});
    case DType::Complex128:
      return f(std::type_identity<ops::c128>{});
  }
}

std::vector<DType> all_dtypes() {
  std::vector<DType> v;
  for (int i = 0; i < kNumDTypes; ++i) v.push_back(static_cast<DType>(i));
  return v;
}

std::int64_t isize(DType dt) { return static_cast<std::int64_t>(itemsize(dt)); }

// Values that exercise casts: NaN, infinities, -0, out-of-range, fractions, random.
double interesting_value(std::mt19937_64& rng, std::int64_t i) {
  static const double specials[] = {0.0,
                                    -0.0,
                                    1.0,
                                    -1.0,
                                    0.5,
                                    -1.5,
                                    2.5,
                                    127.0,
                                    128.0,
                                    255.0,
                                    256.0,
                                    300.7,
                                    -129.0,
                                    65504.0,
                                    65520.0,
                                    70000.0,
                                    1e-8,
                                    6e-8,
                                    2147483648.0,
                                    -2147483649.0,
                                    4294967296.0,
                                    1e19,
                                    -1e19,
                                    9.3e18,
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN()};
  constexpr std::int64_t n = sizeof(specials) / sizeof(specials[0]);
  if (i % 3 == 0) return specials[(i / 3) % n];
  std::normal_distribution<double> normal(0.0, 1000.0);
  return normal(rng);
}

// A host buffer of `count` random elements of `dt`.
Bytes random_elements(DType dt, std::int64_t count, std::uint64_t seed) {
  Bytes out(static_cast<std::size_t>(count * isize(dt)));
  std::mt19937_64 rng(seed);
  visit(dt, [&]<typename T>(std::type_identity<T>) {
    for (std::int64_t i = 0; i < count; ++i) {
      T v{};
      if constexpr (std::is_same_v<T, bool>) {
        v = (rng() & 1) != 0;
      } else if constexpr (std::is_integral_v<T>) {
        const std::uint64_t bits = rng();
        std::memcpy(&v, &bits, sizeof(T));
      } else if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>) {
        using R = decltype(v.re);
        v.re = ops::cast<R>(interesting_value(rng, i));
        v.im = ops::cast<R>(interesting_value(rng, i + 7));
      } else {
        v = ops::cast<T>(interesting_value(rng, i));
      }
      std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
    }
  });
  return out;
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
bool both_nan_or_equal(F a, F b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(F)) == 0;
}

// Equal bits, except that any two NaNs compare equal (payloads may differ).
bool same_element(DType dt, const unsigned char* a, const unsigned char* b) {
  bool same = false;
  visit(dt, [&]<typename T>(std::type_identity<T>) {
    T x, y;
    std::memcpy(&x, a, sizeof(T));
    std::memcpy(&y, b, sizeof(T));
    if constexpr (std::is_same_v<T, ops::half>) {
      const bool x_nan = (x.bits & 0x7fffu) > 0x7c00u, y_nan = (y.bits & 0x7fffu) > 0x7c00u;
      same = (x_nan && y_nan) || x.bits == y.bits;
    } else if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>) {
      same = both_nan_or_equal(x.re, y.re) && both_nan_or_equal(x.im, y.im);
    } else if constexpr (std::is_floating_point_v<T>) {
      same = both_nan_or_equal(x, y);
    } else {
      same = std::memcmp(&x, &y, sizeof(T)) == 0;
    }
  });
  return same;
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

iter::LoopLayout make(Shape shape, std::vector<Strides> strides) {
  iter::LoopLayout l;
  l.size = 1;
  for (std::int64_t s : shape) l.size *= s;
  l.shape = std::move(shape);
  l.strides = std::move(strides);
  return l;
}

// Calls f(element index, byte offset of each operand) in C order over `l`.
template <typename F>
void walk(const iter::LoopLayout& l, F&& f) {
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(l.noperands()));
  for (std::int64_t i = 0; i < l.size; ++i) {
    std::int64_t rem = i;
    std::fill(offsets.begin(), offsets.end(), 0);
    for (int d = l.ndim() - 1; d >= 0; --d) {
      const std::int64_t c = rem % l.shape[d];
      rem /= l.shape[d];
      for (int op = 0; op < l.noperands(); ++op) offsets[op] += c * l.strides[op][d];
    }
    f(i, offsets);
  }
}

std::string case_name(DType dst, DType src, const std::string& what) {
  return std::string(name(src)) + " -> " + std::string(name(dst)) + " (" + what + ")";
}

void expect_buffers_match(DType dt, const Bytes& got, const Bytes& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  const std::int64_t item = isize(dt);
  int reported = 0;
  for (std::size_t i = 0; i + item <= got.size(); i += item) {
    if (!same_element(dt, got.data() + i, want.data() + i)) {
      ADD_FAILURE() << what << ": element at byte " << i << " differs";
      if (++reported == 5) return;
    }
  }
}

// Runs copy_cast over layout `l`; operand 0 lives at byte `dst_base` of a dst buffer of
// `dst_count` elements, operand 1 at `src_base` of a src buffer of `src_count`.
void check_copy(DType dst_dt, DType src_dt, const iter::LoopLayout& l, std::int64_t dst_count,
                std::int64_t dst_base, std::int64_t src_count, std::int64_t src_base,
                const std::string& what) {
  const std::string label = case_name(dst_dt, src_dt, what);
  const Bytes src = random_elements(src_dt, src_count, 1234 + static_cast<int>(src_dt));
  const Bytes sentinel = random_elements(dst_dt, dst_count, 99);
  Bytes want = sentinel;
  walk(l, [&](std::int64_t, const std::vector<std::int64_t>& off) {
    host_cast(dst_dt, want.data() + dst_base + off[0], src_dt, src.data() + src_base + off[1]);
  });
  DeviceBuffer d_src(src.size()), d_dst(want.size());
  d_src.upload(src);
  d_dst.upload(sentinel);
  copy_cast(l, d_dst.get() + dst_base, dst_dt, d_src.get() + src_base, src_dt);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << label;
  expect_buffers_match(dst_dt, d_dst.download(), want, label);
}

void check_contiguous(DType dst_dt, DType src_dt, std::int64_t n, std::int64_t dst_shift,
                      std::int64_t src_shift) {
  const iter::LoopLayout l =
      n == 1 ? make({}, {{}, {}}) : make({n}, {{isize(dst_dt)}, {isize(src_dt)}});
  check_copy(dst_dt, src_dt, l, n + dst_shift + 3, dst_shift * isize(dst_dt), n + src_shift + 3,
             src_shift * isize(src_dt),
             "n=" + std::to_string(n) + " shifts " + std::to_string(dst_shift) + "," +
                 std::to_string(src_shift));
}

TEST(CopyGpu, ContiguousEveryPair) {
  SKIP_WITHOUT_GPU();
  for (DType s : all_dtypes())
    for (DType d : all_dtypes()) {
      check_contiguous(d, s, 1000, 0, 0);
      check_contiguous(d, s, 1000, 1, 1);  // misaligned alike: scalar head, vector body
      check_contiguous(d, s, 1000, 0, 1);  // misaligned differently: scalar path
      check_contiguous(d, s, 1003, 3, 0);
      check_contiguous(d, s, 5, 0, 0);  // shorter than one pack
      check_contiguous(d, s, 1, 0, 0);  // 0-d
    }
}

TEST(CopyGpu, ContiguousLarge) {
  SKIP_WITHOUT_GPU();
  const std::pair<DType, DType> pairs[] = {
      {DType::Float32, DType::Float32}, {DType::Float64, DType::Float32},
      {DType::Float16, DType::Float32}, {DType::Int8, DType::Complex128},
      {DType::Complex64, DType::Bool},  {DType::Int32, DType::UInt32}};
  for (auto [d, s] : pairs) check_contiguous(d, s, (1 << 20) + 77, 2, 2);
}

TEST(CopyGpu, StridedEveryPair) {
  SKIP_WITHOUT_GPU();
  for (DType s : all_dtypes())
    for (DType d : all_dtypes()) {
      const std::int64_t ds = isize(d), ss = isize(s);
      // Transpose: dst C-contiguous 37x53, src read column-major.
      check_copy(d, s, make({37, 53}, {{53 * ds, ds}, {ss, 37 * ss}}), 37 * 53, 0, 37 * 53, 0,
                 "transpose");
      // Reversed 1-D with a step: src[::-2] into a contiguous dst.
      check_copy(d, s, make({100}, {{ds}, {-2 * ss}}), 100, 0, 200, 199 * ss, "reversed step");
      // 3-D with a broadcast axis (stride 0) in the source.
      check_copy(d, s, make({4, 5, 6}, {{30 * ds, 6 * ds, ds}, {6 * ss, 0, ss}}), 120, 0, 24, 0,
                 "broadcast 3-d");
    }
}

TEST(CopyGpu, StridedHighRank) {
  SKIP_WITHOUT_GPU();
  for (DType d : {DType::Float32, DType::Complex128, DType::Int8})
    for (DType s : {DType::Float64, DType::Float16, DType::Bool}) {
      const std::int64_t ds = isize(d), ss = isize(s);
      // 4-d (exact), 5-d (bucket 8) and 9-d (bucket 16), every axis of size 2 or 3,
      // the source with doubled strides (every other element).
      for (int nd : {4, 5, 9}) {
        Shape shape;
        for (int k = 0; k < nd; ++k) shape.push_back(2 + k % 2);
        Strides dst_strides(nd), src_strides(nd);
        std::int64_t dstep = ds, sstep = 2 * ss, count = 1;
        for (int k = nd - 1; k >= 0; --k) {
          dst_strides[k] = dstep;
          src_strides[k] = sstep;
          dstep *= shape[k];
          sstep *= shape[k];
          count *= shape[k];
        }
        check_copy(d, s, make(shape, {dst_strides, src_strides}), count, 0, 2 * count, 0,
                   "ndim " + std::to_string(nd));
      }
    }
}

TEST(CopyGpu, StridedDestination) {
  SKIP_WITHOUT_GPU();
  // Writes every third element of dst; the gaps must keep their old values.
  for (DType d : all_dtypes())
    check_copy(d, DType::Float64, make({50}, {{3 * isize(d)}, {8}}), 150, 0, 50, 0, "dst step 3");
}

TEST(CopyGpu, Empty) {
  SKIP_WITHOUT_GPU();
  copy_cast(make({0}, {{4}, {8}}), nullptr, DType::Float32, nullptr, DType::Float64);
  copy_cast(make({3, 0}, {{0, 4}, {0, 8}}), nullptr, DType::Float32, nullptr, DType::Float64);
  const float one = 1.0f;
  fill(make({0}, {{4}}), nullptr, DType::Float32, &one);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(CopyGpu, SixtyFourBitStrides) {
  SKIP_WITHOUT_GPU();
  // Byte offsets beyond 2^31 force the 64-bit strided kernel.
  const std::int64_t stride = (std::int64_t{1} << 31) + 64;
  DeviceBuffer src(static_cast<std::size_t>(2 * stride + 8));
  DeviceBuffer dst(3 * sizeof(double));
  const float values[3] = {1.5f, -2.25f, 1e30f};
  for (int k = 0; k < 3; ++k)
    ASSERT_EQ(cudaMemcpy(src.get() + k * stride, &values[k], 4, cudaMemcpyHostToDevice),
              cudaSuccess);
  copy_cast(make({3}, {{8}, {stride}}), dst.get(), DType::Float64, src.get(), DType::Float32);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  double got[3];
  ASSERT_EQ(cudaMemcpy(got, dst.get(), sizeof(got), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(got[k], static_cast<double>(values[k]));
}

TEST(CopyGpu, SixtyFourBitCount) {
  SKIP_WITHOUT_GPU();
  // More than 2^31 elements force the 64-bit contiguous kernel.
  const std::int64_t n = (std::int64_t{1} << 31) + 37;
  DeviceBuffer src(static_cast<std::size_t>(n));
  DeviceBuffer dst(static_cast<std::size_t>(n) * 2);
  ASSERT_EQ(cudaMemset(src.get(), 0xfe, static_cast<std::size_t>(n)), cudaSuccess);  // int8 -2
  ASSERT_EQ(cudaMemset(dst.get(), 0, static_cast<std::size_t>(n) * 2), cudaSuccess);
  copy_cast(make({n}, {{2}, {1}}), dst.get(), DType::Int16, src.get(), DType::Int8);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{1} << 31, n - 1}) {
    std::int16_t v = 0;
    ASSERT_EQ(cudaMemcpy(&v, dst.get() + 2 * i, 2, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(v, -2) << "element " << i;
  }
}

void check_fill(DType dt, const iter::LoopLayout& l, std::int64_t count, std::int64_t base,
                const Bytes& value, const std::string& what) {
  const std::string label = std::string(name(dt)) + " fill (" + what + ")";
  const Bytes sentinel = random_elements(dt, count, 7);
  Bytes want = sentinel;
  walk(l, [&](std::int64_t, const std::vector<std::int64_t>& off) {
    std::memcpy(want.data() + base + off[0], value.data(), value.size());
  });
  DeviceBuffer d_dst(want.size());
  d_dst.upload(sentinel);
  fill(l, d_dst.get() + base, dt, value.data());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << label;
  expect_buffers_match(dt, d_dst.download(), want, label);
}

TEST(CopyGpu, FillEveryDtype) {
  SKIP_WITHOUT_GPU();
  for (DType d : all_dtypes()) {
    const std::int64_t s = isize(d);
    Bytes zero(static_cast<std::size_t>(s), 0);
    Bytes value = random_elements(d, 1, 4242 + static_cast<int>(d));
    Bytes ones(static_cast<std::size_t>(s));
    host_cast(d, ones.data(), DType::Float64, std::array<double, 1>{1.0}.data());
    for (const Bytes* v : {&zero, &value, &ones}) {
      check_fill(d, make({1000}, {{s}}), 1010, 0, *v, "contiguous");
      check_fill(d, make({997}, {{s}}), 1010, 3 * s, *v, "misaligned");
      check_fill(d, make({7}, {{s}}), 10, s, *v, "short");
      check_fill(d, make({}, {{}}), 4, s, *v, "0-d");
      check_fill(d, make({20, 30}, {{60 * s, 2 * s}}), 1200, 0, *v, "every other element");
      check_fill(d, make({40}, {{-s}}), 40, 39 * s, *v, "reversed");
    }
  }
}

}  // namespace
}  // namespace cunp::cuda
