// src/sort/gpu_sort.cu — the CUDA backend of the sorts (gpu_sort.hpp): key kernels
// around the CUB sorts of cub_sort.hpp, and the binary-search kernel of searchsorted.
//
// Note [GPU sort passes]: a sort of rows is (1) one pass turning the input into keys
// in a fresh buffer (Note [Sort keys]; floats stay floats with NaNs made positive,
// Note [CUB key types]), (2) the CUB sort of that buffer against a second one, and
// (3) for signed integers and float16 only, one pass turning keys back into values in
// whichever buffer holds the result, which is returned as the array. argsort sorts
// (key, int64 index) pairs, and complex numbers sort three times (Note [Complex
// argsort]). One row is one device-wide radix sort; a few very long rows are one
// radix sort each; many rows of medium length are one block each (Note [Block row
// sort]); other batches are one segmented sort (RowPath, choose_path).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/dispatch.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "runtime/runtime.hpp"
#include "sort/cub_sort.hpp"
#include "sort/gpu_sort.hpp"
#include "sort/sort_keys.h"

namespace cunp::sorting {

// ---- the key each dtype is sorted by on the GPU (Note [CUB key types]). The key
// policies live outside the anonymous namespace: not every member is used by every
// instantiation, which nvcc would warn about there.
template <typename T>
struct GpuKey {
  using type = typename SortKey<T>::type;
  static __device__ type to(T x) { return SortKey<T>::to_key(x); }
  static __device__ T from(type k) { return SortKey<T>::from_key(k); }
  static constexpr bool identity = false;
};
template <typename F>
__device__ F positive_nan();
template <>
__device__ float positive_nan<float>() { return ops::f32_from_bits(0x7fc00000u); }
template <>
__device__ double positive_nan<double>() { return ops::f64_from_bits(0x7ff8000000000000ull); }

template <typename F>
struct FloatGpuKey {
  using type = F;
  static __device__ F to(F x) { return x != x ? positive_nan<F>() : x; }
  static __device__ F from(F k) { return k; }
  static constexpr bool identity = true;
};
template <> struct GpuKey<float> : FloatGpuKey<float> {};
template <> struct GpuKey<double> : FloatGpuKey<double> {};
template <typename U>
struct UnsignedGpuKey {
  using type = U;
  static __device__ U to(U x) { return x; }
  static __device__ U from(U k) { return k; }
  static constexpr bool identity = true;
};
template <> struct GpuKey<ops::u8> : UnsignedGpuKey<ops::u8> {};
template <> struct GpuKey<ops::u16> : UnsignedGpuKey<ops::u16> {};
template <> struct GpuKey<ops::u32> : UnsignedGpuKey<ops::u32> {};
template <> struct GpuKey<ops::u64> : UnsignedGpuKey<ops::u64> {};

// Note [Segmented float keys]: cub::DeviceSegmentedSort sorts short segments with a
// merge sort that compares keys with `<`, which is no order once NaNs are present. So
// float rows bound for the segmented sort use their unsigned keys (Note [Sort keys]):
// canonical ones for argsort (stable across -0.0 and 0.0), and for value sorts keys
// that keep -0.0 (just below 0.0) so that the values come back bit for bit but NaNs.
template <typename F>
struct FloatBitsOf;
template <> struct FloatBitsOf<float> {
  using type = F32Bits;
  static __device__ ops::u32 bits(float x) { return ops::f32_bits(x); }
};
template <> struct FloatBitsOf<double> {
  using type = F64Bits;
  static __device__ ops::u64 bits(double x) { return ops::f64_bits(x); }
};

template <typename F, bool kCanonical>
struct FloatBitsGpuKey {
  using type = typename SortKey<F>::type;
  static __device__ type to(F x) {
    if constexpr (kCanonical) {
      return SortKey<F>::to_key(x);
    } else {
      return FloatBitsOf<F>::type::to_value_key(FloatBitsOf<F>::bits(x));
    }
  }
  static __device__ F from(type k) { return SortKey<F>::from_key(k); }
  static constexpr bool identity = false;
};

// float16 value sorts: keys that keep -0.0 (see FloatBitsKey::to_value_key).
struct HalfValueGpuKey {
  using type = ops::u16;
  static __device__ type to(ops::half x) { return F16Bits::to_value_key(x.bits); }
  static __device__ ops::half from(type k) { return ops::half{F16Bits::from_key(k)}; }
  static constexpr bool identity = false;
};

template <typename T>
constexpr bool is_float_v = ops::is_same<T, float>::value || ops::is_same<T, double>::value;

namespace {

constexpr int kBlock = 256;

unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535LL * 32 ? 65535LL * 32 : blocks));
}

void check_launch(const char* what) { cuda::check_cuda(cudaGetLastError(), what); }

// CUB's key type of a key: the fixed-width names of cub_sort.hpp.
template <typename K> struct CubKey { using type = K; };
template <> struct CubKey<ops::u8> { using type = std::uint8_t; };
template <> struct CubKey<ops::u16> { using type = std::uint16_t; };
template <> struct CubKey<ops::u32> { using type = std::uint32_t; };
template <> struct CubKey<ops::u64> { using type = std::uint64_t; };

// ---- kernels
template <typename T, typename Key>
__global__ void to_keys_kernel(const T* in, typename Key::type* out, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = Key::to(in[i]);
  }
}

template <typename T, typename Key>
__global__ void from_keys_kernel(const typename Key::type* in, T* out, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = Key::from(in[i]);
  }
}

__global__ void widen32_kernel(const std::int32_t* in, std::int64_t* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

// Index within the row: the values argsort sorts along with the keys (V: int64, or
// int32 for one row, Note [32-bit argsort indices]).
template <typename V>
__global__ void row_iota_kernel(V* out, std::int64_t total, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = static_cast<V>(n == total ? i : i % n);  // no 64-bit division for one row
  }
}

__global__ void row_offsets_kernel(std::int64_t* out, std::int64_t nseg, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i <= nseg;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = i * n;
  }
}

// One sort key of complex elements read through a row permutation (identity when perm
// is null): the imaginary or real part as a float key, or the NaN category (u8).
enum class ComplexKeyPart { Imag, Real, Category };

template <typename R, typename Key, typename K>
__global__ void complex_keys_kernel(const ops::complex<R>* in, const std::int64_t* perm, K* out,
                                    std::int64_t total, std::int64_t n, ComplexKeyPart part) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const ops::complex<R> x = in[perm == nullptr ? i : i - i % n + perm[i]];
    if constexpr (ops::is_same<K, ops::u8>::value) {
      out[i] = complex_category(x);
    } else {
      out[i] = Key::to(part == ComplexKeyPart::Imag ? x.im : x.re);
    }
  }
}

template <typename T>
__global__ void gather_rows_kernel(const T* in, const std::int64_t* perm, T* out, std::int64_t total,
                                   std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    out[i] = in[i - i % n + perm[i]];
  }
}

template <typename T>
__global__ void searchsorted_kernel(const T* a, const std::int64_t* sorter, std::int64_t n, const T* v,
                                    std::int64_t m, bool right, std::int64_t* out) {
  for (std::int64_t q = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; q < m;
       q += std::int64_t(gridDim.x) * blockDim.x) {
    const T x = v[q];
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + ((hi - lo) >> 1);
      const T y = sorter == nullptr ? a[mid] : a[sorter[mid]];
      const bool go_right = right ? !sort_less(x, y) : sort_less(y, x);
      if (go_right) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[q] = lo;
  }
}

// ---- host side
struct RowShape {
  std::int64_t n;
  std::int64_t nseg;
  std::int64_t total;
};

RowShape row_shape(const ndarray& rows) {
  const std::int64_t n = rows.ndim() == 0 ? 1 : rows.shape().back();
  return {n, n == 0 ? 0 : rows.size() / n, rows.size()};
}

ndarray like(const ndarray& rows, DType dt) { return empty(rows.shape(), {.dtype = dt, .device = rows.device()}); }

bool block_rows_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("CUNP_SORT_BLOCK_ROWS");
    return v == nullptr || std::string(v) != "0";
  }();
  return enabled;
}

// How a batch of rows is sorted (Note [GPU sort passes]); `key_bytes` is the width of
// the sort key.
enum class RowPath { Radix, LongRows, Block, Segmented };

RowPath choose_path(const RowShape& s, std::size_t key_bytes) {
  if (s.nseg == 1) return RowPath::Radix;
  if (key_bytes >= 4 && s.n >= kBlockSortMinRow && s.n <= kBlockSortMaxRow && block_rows_enabled()) {
    return RowPath::Block;
  }
  if (s.n >= (std::int64_t{1} << 20) && s.nseg <= 32) return RowPath::LongRows;
  return RowPath::Segmented;
}

// Sorts the keys (and values) of every row; returns the buffer index holding them.
// With `row_iota` the values are the index within the row, written here (or made by
// the block sort itself) rather than read from vals0.
template <typename K>
int sort_keys(K* k0, K* k1, std::int64_t* v0, std::int64_t* v1, bool row_iota, const RowShape& s,
              const Device& dev, cudaStream_t stream) {
  using CK = typename CubKey<K>::type;
  auto* c0 = reinterpret_cast<CK*>(k0);
  auto* c1 = reinterpret_cast<CK*>(k1);
  const RowPath path = choose_path(s, sizeof(K));
  if constexpr (sizeof(K) >= 4) {
    if (path == RowPath::Block) {
      cub_block_sort_rows<CK>(c0, c1, row_iota ? nullptr : v0, v0 ? v1 : nullptr, s.n, s.nseg, stream);
      return 1;
    }
  }
  if (v0 != nullptr && row_iota) {
    row_iota_kernel<<<grid_for(s.total), kBlock, 0, stream>>>(v0, s.total, s.n);
    check_launch("row_iota_kernel");
  }
  if (path == RowPath::Radix) return cub_radix_sort<CK>(c0, c1, v0, v1, s.n, stream);
  if (path == RowPath::LongRows) {
    // One device-wide sort per row; rows whose result lands in the other buffer are
    // copied to where the first row's result is.
    int first = -1;
    for (std::int64_t r = 0; r < s.nseg; ++r) {
      const std::int64_t off = r * s.n;
      const int sel = cub_radix_sort<CK>(c0 + off, c1 + off, v0 ? v0 + off : nullptr, v1 ? v1 + off : nullptr,
                                         s.n, stream);
      if (first < 0) first = sel;
      if (sel != first) {
        CK* keys[2] = {c0, c1};
        CUNP_CUDA_CHECK(cudaMemcpyAsync(keys[first] + off, keys[sel] + off, sizeof(CK) * s.n,
                                        cudaMemcpyDeviceToDevice, stream));
        if (v0 != nullptr) {
          std::int64_t* vals[2] = {v0, v1};
          CUNP_CUDA_CHECK(cudaMemcpyAsync(vals[first] + off, vals[sel] + off, sizeof(std::int64_t) * s.n,
                                          cudaMemcpyDeviceToDevice, stream));
        }
      }
    }
    return first;
  }
  if constexpr (is_float_v<K>) {
    throw Error("internal: float keys reached the segmented sort");  // Note [Segmented float keys]
  } else {
      ndarray offsets = empty({s.nseg + 1}, {.dtype = DType::Int64, .device = dev});
    auto* off = static_cast<std::int64_t*>(offsets.data());
    row_offsets_kernel<<<grid_for(s.nseg + 1), kBlock, 0, stream>>>(off, s.nseg, s.n);
    check_launch("row_offsets_kernel");
    return cub_segmented_sort<CK>(c0, c1, v0, v1, s.total, s.nseg, off, stream);
  }
}

// Sorted copy of the rows of a real dtype T, sorted by the keys of `Key`.
template <typename T, typename Key>
ndarray sort_rows_by(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  using K = typename Key::type;
  static_assert(sizeof(K) == sizeof(T));
  ndarray buf[2] = {like(rows, rows.dtype()), like(rows, rows.dtype())};
  K* keys[2] = {static_cast<K*>(buf[0].data()), static_cast<K*>(buf[1].data())};
  to_keys_kernel<T, Key><<<grid_for(s.total), kBlock, 0, stream>>>(static_cast<const T*>(rows.data()), keys[0],
                                                                   s.total);
  check_launch("to_keys_kernel");
  const int sel = sort_keys<K>(keys[0], keys[1], nullptr, nullptr, false, s, rows.device(), stream);
  if constexpr (!Key::identity) {
    from_keys_kernel<T, Key><<<grid_for(s.total), kBlock, 0, stream>>>(keys[sel], static_cast<T*>(buf[sel].data()),
                                                                       s.total);
    check_launch("from_keys_kernel");
  }
  return buf[sel];
}

template <typename T>
ndarray sort_real_rows(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  if constexpr (ops::is_same<T, ops::half>::value) return sort_rows_by<T, HalfValueGpuKey>(rows, s, stream);
  if constexpr (is_float_v<T>) {
    if (choose_path(s, sizeof(T)) == RowPath::Segmented) return sort_rows_by<T, FloatBitsGpuKey<T, false>>(rows, s, stream);
  }
  return sort_rows_by<T, GpuKey<T>>(rows, s, stream);
}

ndarray int64_rows(const ndarray& rows) { return like(rows, DType::Int64); }

// Note [32-bit argsort indices]: one row of fewer than 2^31 elements with 4- or 8-byte
// keys is sorted with int32 values, widened to int64 at the end: each of the radix
// passes moves 4 + 4 bytes per element instead of 4 + 8 (float32), for one extra
// 4 + 8-byte pass.
template <typename K>
ndarray argsort_one_row_index32(K* k0, K* k1, const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  using CK = typename CubKey<K>::type;
  ndarray idx[2] = {like(rows, DType::Int32), like(rows, DType::Int32)};
  std::int32_t* vals[2] = {static_cast<std::int32_t*>(idx[0].data()), static_cast<std::int32_t*>(idx[1].data())};
  row_iota_kernel<<<grid_for(s.n), kBlock, 0, stream>>>(vals[0], s.n, s.n);
  check_launch("row_iota_kernel");
  const int sel =
      cub_radix_sort<CK>(reinterpret_cast<CK*>(k0), reinterpret_cast<CK*>(k1), vals[0], vals[1], s.n, stream);
  ndarray out = int64_rows(rows);
  widen32_kernel<<<grid_for(s.n), kBlock, 0, stream>>>(vals[sel], static_cast<std::int64_t*>(out.data()), s.n);
  check_launch("widen32_kernel");
  return out;
}

template <typename T, typename Key>
ndarray argsort_rows_by(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  using K = typename Key::type;
  ndarray buf[2] = {like(rows, rows.dtype()), like(rows, rows.dtype())};
  K* keys[2] = {static_cast<K*>(buf[0].data()), static_cast<K*>(buf[1].data())};
  to_keys_kernel<T, Key><<<grid_for(s.total), kBlock, 0, stream>>>(static_cast<const T*>(rows.data()), keys[0],
                                                                   s.total);
  check_launch("to_keys_kernel");
  if constexpr (sizeof(K) >= 4) {
    if (choose_path(s, sizeof(K)) == RowPath::Radix && s.n <= INT32_MAX)
      return argsort_one_row_index32<K>(keys[0], keys[1], rows, s, stream);
  }
  ndarray idx[2] = {int64_rows(rows), int64_rows(rows)};
  std::int64_t* vals[2] = {static_cast<std::int64_t*>(idx[0].data()), static_cast<std::int64_t*>(idx[1].data())};
  return idx[sort_keys<K>(keys[0], keys[1], vals[0], vals[1], true, s, rows.device(), stream)];
}

template <typename T>
ndarray argsort_real_rows(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  if constexpr (is_float_v<T>) {
    if (choose_path(s, sizeof(T)) == RowPath::Segmented) return argsort_rows_by<T, FloatBitsGpuKey<T, true>>(rows, s, stream);
  }
  return argsort_rows_by<T, GpuKey<T>>(rows, s, stream);
}

// Note [Complex argsort]: three stable passes, least significant first: imaginary
// keys, real keys, then the NaN category (complex_category in sort_keys.h), each pass
// reading the elements through the permutation of the previous one.
template <typename R, typename Key>
ndarray argsort_complex_rows_by(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  using K = typename Key::type;
  const DType real = real_dtype(rows.dtype());
  ndarray buf[2] = {like(rows, real), like(rows, real)};
  K* keys[2] = {static_cast<K*>(buf[0].data()), static_cast<K*>(buf[1].data())};
  ndarray idx[2] = {int64_rows(rows), int64_rows(rows)};
  std::int64_t* vals[2] = {static_cast<std::int64_t*>(idx[0].data()), static_cast<std::int64_t*>(idx[1].data())};
  const auto* in = static_cast<const ops::complex<R>*>(rows.data());
  const Device dev = rows.device();
  complex_keys_kernel<R, Key, K><<<grid_for(s.total), kBlock, 0, stream>>>(in, nullptr, keys[0], s.total, s.n,
                                                                           ComplexKeyPart::Imag);
  check_launch("complex_keys_kernel");
  int cur = sort_keys<K>(keys[0], keys[1], vals[0], vals[1], true, s, dev, stream);  // vals[cur]: permutation
  complex_keys_kernel<R, Key, K><<<grid_for(s.total), kBlock, 0, stream>>>(in, vals[cur], keys[0], s.total, s.n,
                                                                           ComplexKeyPart::Real);
  check_launch("complex_keys_kernel");
  cur = sort_keys<K>(keys[0], keys[1], vals[cur], vals[1 - cur], false, s, dev, stream) == 0 ? cur : 1 - cur;
  ndarray cats[2] = {like(rows, DType::UInt8), like(rows, DType::UInt8)};
  ops::u8* cat[2] = {static_cast<ops::u8*>(cats[0].data()), static_cast<ops::u8*>(cats[1].data())};
  complex_keys_kernel<R, Key, ops::u8><<<grid_for(s.total), kBlock, 0, stream>>>(in, vals[cur], cat[0], s.total,
                                                                                 s.n, ComplexKeyPart::Category);
  check_launch("complex_keys_kernel");
  cur = sort_keys<ops::u8>(cat[0], cat[1], vals[cur], vals[1 - cur], false, s, dev, stream) == 0 ? cur : 1 - cur;
  return idx[cur];
}

template <typename R>
ndarray argsort_complex_rows(const ndarray& rows, const RowShape& s, cudaStream_t stream) {
  if (choose_path(s, sizeof(R)) == RowPath::Segmented) {
    return argsort_complex_rows_by<R, FloatBitsGpuKey<R, true>>(rows, s, stream);
  }
  return argsort_complex_rows_by<R, GpuKey<R>>(rows, s, stream);
}

// dispatch_dtype with bool sorted as its 0/1 bytes (u8).
template <typename F>
decltype(auto) dispatch_sort_dtype(DType dt, F&& f) {
  return dispatch_dtype(dt, [&]<typename T>() -> decltype(auto) {
    if constexpr (ops::is_same<T, bool>::value) {
      return f.template operator()<ops::u8>();
    } else {
      return f.template operator()<T>();
    }
  });
}

template <typename T>
constexpr bool is_complex_v = ops::is_same<T, ops::c64>::value || ops::is_same<T, ops::c128>::value;

}  // namespace

ndarray gpu_argsort_rows(const ndarray& rows) {
  const RowShape s = row_shape(rows);
  cuda::DeviceScope scope(rows.device().index);
  const cudaStream_t stream = cuda::current_stream_handle();
  return dispatch_sort_dtype(rows.dtype(), [&]<typename T>() -> ndarray {
    if constexpr (is_complex_v<T>) {
      return argsort_complex_rows<decltype(T{}.re)>(rows, s, stream);
    } else {
      return argsort_real_rows<T>(rows, s, stream);
    }
  });
}

ndarray gpu_sort_rows(const ndarray& rows) {
  const RowShape s = row_shape(rows);
  cuda::DeviceScope scope(rows.device().index);
  const cudaStream_t stream = cuda::current_stream_handle();
  return dispatch_sort_dtype(rows.dtype(), [&]<typename T>() -> ndarray {
    if constexpr (is_complex_v<T>) {
      const ndarray perm = argsort_complex_rows<decltype(T{}.re)>(rows, s, stream);
      ndarray out = like(rows, rows.dtype());
      gather_rows_kernel<T><<<grid_for(s.total), kBlock, 0, stream>>>(
          static_cast<const T*>(rows.data()), static_cast<const std::int64_t*>(perm.data()),
          static_cast<T*>(out.data()), s.total, s.n);
      check_launch("gather_rows_kernel");
      return out;
    } else {
      return sort_real_rows<T>(rows, s, stream);
    }
  });
}

void gpu_searchsorted(const ndarray& a, const ndarray& v, Side side, const std::optional<ndarray>& sorter,
                      const ndarray& out) {
  cuda::DeviceScope scope(a.device().index);
  const cudaStream_t stream = cuda::current_stream_handle();
  const std::int64_t m = v.size();
  dispatch_sort_dtype(a.dtype(), [&]<typename T>() {
    // bool sorts as its 0/1 byte, which sort_less<u8> orders the same way.
    searchsorted_kernel<T><<<grid_for(m), kBlock, 0, stream>>>(
        static_cast<const T*>(a.data()), sorter ? static_cast<const std::int64_t*>(sorter->data()) : nullptr,
        a.size(), static_cast<const T*>(v.data()), m, side == Side::Right, static_cast<std::int64_t*>(out.data()));
    check_launch("searchsorted_kernel");
  });
}

}  // namespace cunp::sorting
