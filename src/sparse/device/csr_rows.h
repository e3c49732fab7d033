// src/sparse/device/csr_rows.h — the per-row (and per-entry) work of the sparse
// routines, written once: g++ compiles it into the cpu loops (row_kernels_cpu.cpp) and
// NVRTC, which sees it embedded under this path, into the generated kernels
// (row_kernels_source.cpp). Each function computes item `i` of a launch; the cpu loop
// and the CUDA grid only differ in how the items are spread.
//
// Note [Sparse row kernels]: every function takes its parameters as one plain struct of
// untyped pointers and sizes, the same bytes on both sides, and reads the elements as
// T (data, a src/ops storage type) and I (indices and indptr: int or long long). Values
// are combined with the src/ops functors, so integers wrap, bools add as `or` and
// multiply as `and`, and complex numbers compare as NumPy orders them. Rows are walked
// sequentially in stored order, which is the order SciPy's sparsetools adds in.
//
// The includer provides src/ops' cast.h, ufunc_arith.h and ufunc_compare.h first (NVRTC
// knows them by file name, g++ by path); the parameter structs are in csr_rows_params.h.
#pragma once

#include "sparse/device/csr_rows_params.h"

namespace cunp {
namespace sparse_ops {

using ops::i64;
using ops::u64;

template <typename T>
struct is_complex_t {
  static constexpr bool value = false;
};
template <typename T>
struct is_complex_t<ops::complex<T>> {
  static constexpr bool value = true;
};

// np.sum's accumulator: bool and signed integers add in int64, unsigned in uint64,
// inexact types in themselves.
template <typename T>
struct sum_acc {
  using type = T;
};
template <>
struct sum_acc<bool> {
  using type = i64;
};
template <>
struct sum_acc<ops::i8> {
  using type = i64;
};
template <>
struct sum_acc<ops::i16> {
  using type = i64;
};
template <>
struct sum_acc<ops::i32> {
  using type = i64;
};
template <>
struct sum_acc<ops::u8> {
  using type = u64;
};
template <>
struct sum_acc<ops::u16> {
  using type = u64;
};
template <>
struct sum_acc<ops::u32> {
  using type = u64;
};

template <typename T>
CUNP_HD T zero() {
  return ops::cast<T>(0);
}
template <typename T>
CUNP_HD bool nonzero(T v) {
  return ops::detail::truth(v);
}
template <typename T>
CUNP_HD bool is_nan(T v) {
  return ops::isnan{}(v);
}

// ---- structure -----------------------------------------------------------------

// Item i (a row): out[k] = i for the row's entries (CSR -> COO).
template <typename I>
CUNP_HD void expand_rows(long long i, const ExpandRowsParams& p) {
  const I* ip = static_cast<const I*>(p.indptr);
  I* out = static_cast<I*>(p.out);
  for (I k = ip[i]; k < ip[i + 1]; ++k) out[k] = static_cast<I>(i);
}

// Item k of [0, n]: the indptr (m + 1 entries) of n ascending major indices in [0, m):
// every r with major[k - 1] < r <= major[k] starts at k.
template <typename I>
CUNP_HD void compress_sorted(long long k, const CompressSortedParams& p) {
  const I* mj = static_cast<const I*>(p.major);
  I* ip = static_cast<I*>(p.indptr);
  const long long lo = k == 0 ? 0 : static_cast<long long>(mj[k - 1]) + 1;
  long long hi = k == p.n ? p.m : static_cast<long long>(mj[k]);
  if (hi > p.m) hi = p.m;  // a major index out of range writes nothing outside indptr
  for (long long r = lo < 0 ? 0 : lo; r <= hi; ++r) ip[r] = static_cast<I>(k);
}

// Item i (a row): flags[i] = whether its indices ascend (strictly when `strict`).
template <typename I>
CUNP_HD void rows_sorted(long long i, const RowsSortedParams& p) {
  const I* ip = static_cast<const I*>(p.indptr);
  const I* ix = static_cast<const I*>(p.indices);
  bool ok = true;
  for (I k = ip[i] + 1; k < ip[i + 1]; ++k) {
    if (p.strict ? ix[k] <= ix[k - 1] : ix[k] < ix[k - 1]) {
      ok = false;
      break;
    }
  }
  static_cast<bool*>(p.flags)[i] = ok;
}

// ---- values ----------------------------------------------------------------------

// Item i (a row): adds the row's entries into the zeroed dense out (element strides).
template <typename T, typename I>
CUNP_HD void to_dense_row(long long i, const ToDenseParams& p) {
  const T* d = static_cast<const T*>(p.data);
  const I* ix = static_cast<const I*>(p.indices);
  const I* ip = static_cast<const I*>(p.indptr);
  T* row = static_cast<T*>(p.out) + i * p.row_stride;
  for (I k = ip[i]; k < ip[i + 1]; ++k) {
    T& o = row[static_cast<long long>(ix[k]) * p.col_stride];
    o = ops::add{}(o, d[k]);
  }
}

// Item j (a run): out[j] = the sum, in order, of data[perm[k]] (data[k] when perm is
// null) for k in [starts[j], starts[j + 1]) — the duplicates of sum_duplicates.
template <typename T, typename I>
CUNP_HD void segment_sum(long long j, const SegmentSumParams& p) {
  const T* d = static_cast<const T*>(p.data);
  const I* perm = static_cast<const I*>(p.perm);
  const I* st = static_cast<const I*>(p.starts);
  const I b = st[j], e = st[j + 1];
  T acc = perm ? d[perm[b]] : d[b];
  for (I k = b + 1; k < e; ++k) acc = ops::add{}(acc, perm ? d[perm[k]] : d[k]);
  static_cast<T*>(p.out)[j] = acc;
}

// ---- elementwise operations of two canonical matrices ---------------------------

template <typename T>
CUNP_HD T binop_arith(int op, T a, T b) {
  switch (op) {
    case kBinAdd:
      return ops::add{}(a, b);
    case kBinSubtract:
      if constexpr (ops::kind_of<T>::value == 0)
        return a != b;  // never asked (TypeError first)
      else
        return ops::subtract{}(a, b);
    case kBinMultiply:
      return ops::multiply{}(a, b);
    case kBinMaximum:
      return ops::maximum{}(a, b);
    default:
      return ops::minimum{}(a, b);
  }
}
template <typename T>
CUNP_HD bool binop_compare(int op, T a, T b) {
  switch (op) {
    case kBinNotEqual:
      return ops::not_equal{}(a, b);
    case kBinLess:
      return ops::less{}(a, b);
    default:
      return ops::greater{}(a, b);
  }
}

// Item i (a row): merges row i of A and B (both strictly sorted) and applies `op` to
// every column in either, the absent side reading as zero. The count pass (FILL false)
// writes the number of non-zero results to counts[i] (int64); the fill pass writes them
// from out_indptr[i] (int64) on: out_data as T (arithmetic) or bool (comparisons).
template <typename T, typename I, bool FILL>
CUNP_HD void binop_row(long long i, const BinopParams& p) {
  const T* ad = static_cast<const T*>(p.a_data);
  const I* ai = static_cast<const I*>(p.a_indices);
  const I* ap = static_cast<const I*>(p.a_indptr);
  const T* bd = static_cast<const T*>(p.b_data);
  const I* bi = static_cast<const I*>(p.b_indices);
  const I* bp = static_cast<const I*>(p.b_indptr);
  const bool compare = p.op >= kBinNotEqual;
  I ka = ap[i], kb = bp[i];
  const I ea = ap[i + 1], eb = bp[i + 1];
  long long n = FILL ? static_cast<const i64*>(p.out_indptr)[i] : 0;
  while (ka < ea || kb < eb) {
    I col;
    T av = zero<T>(), bv = zero<T>();
    if (kb == eb || (ka < ea && ai[ka] < bi[kb])) {
      col = ai[ka];
      av = ad[ka++];
    } else if (ka == ea || bi[kb] < ai[ka]) {
      col = bi[kb];
      bv = bd[kb++];
    } else {
      col = ai[ka];
      av = ad[ka++];
      bv = bd[kb++];
    }
    if (compare) {
      if (!binop_compare(p.op, av, bv)) continue;
      if (FILL) static_cast<bool*>(p.out_data)[n] = true;
    } else {
      const T r = binop_arith(p.op, av, bv);
      if (!nonzero(r)) continue;
      if (FILL) static_cast<T*>(p.out_data)[n] = r;
    }
    if (FILL) static_cast<I*>(p.out_indices)[n] = col;
    ++n;
  }
  if (!FILL) static_cast<i64*>(p.counts)[i] = n;
}

// ---- reductions along a row ----------------------------------------------------

// `v` replaces the best value so far `best` of an arg-reduction scanned in order: NaN
// wins once and for all (NumPy's argmax/argmin), else a strictly larger (smaller) value.
template <typename T>
CUNP_HD bool arg_better(bool max, T v, T best) {
  if (is_nan(best)) return false;
  if (is_nan(v)) return true;
  return max ? ops::greater{}(v, best) : ops::less{}(v, best);
}

// Item i (a row of `line` columns): sum (out: sum_acc<T>), max/min (out: T) or
// argmax/argmin (out: int64 column) of the row as the dense row would give it; max,
// min and the arg-reductions need a canonical row. The implicit zeros count unless
// explicit_only; an empty row gives 0.
template <typename T, typename I>
CUNP_HD void row_reduce(long long i, const RowReduceParams& p) {
  const T* d = static_cast<const T*>(p.data);
  const I* ix = static_cast<const I*>(p.indices);
  const I* ip = static_cast<const I*>(p.indptr);
  const I b = ip[i], e = ip[i + 1];
  const bool implicit_zeros = !p.explicit_only && static_cast<long long>(e - b) < p.line;
  if (p.op == kRedSum) {
    using A = typename sum_acc<T>::type;
    A acc = zero<A>();
    for (I k = b; k < e; ++k) acc = ops::add{}(acc, ops::cast<A>(d[k]));
    static_cast<A*>(p.out)[i] = acc;
  } else if (p.op == kRedMax || p.op == kRedMin) {
    T v = zero<T>();
    if (b < e) {
      v = d[b];
      for (I k = b + 1; k < e; ++k)
        v = p.op == kRedMax ? ops::maximum{}(v, d[k]) : ops::minimum{}(v, d[k]);
      if (implicit_zeros)
        v = p.op == kRedMax ? ops::maximum{}(v, zero<T>()) : ops::minimum{}(v, zero<T>());
    }
    static_cast<T*>(p.out)[i] = v;
  } else {
    const bool max = p.op == kRedArgMax;
    long long best_col = -1;
    T best = zero<T>();
    for (I k = b; k < e; ++k) {
      if (best_col < 0 || arg_better(max, d[k], best)) {
        best = d[k];
        best_col = static_cast<long long>(ix[k]);
      }
    }
    long long result = best_col < 0 ? 0 : best_col;
    if (implicit_zeros) {
      // The first column holding no entry (the row is sorted).
      long long z = 0;
      for (I k = b; k < e && static_cast<long long>(ix[k]) == z; ++k) ++z;
      if (best_col < 0 || arg_better(max, zero<T>(), best))
        result = z;
      else if (ops::equal{}(best, zero<T>()) && z < best_col)
        result = z;
    }
    static_cast<i64*>(p.out)[i] = result;
  }
}

// Item i: out[i] = the sum of the entries at (row0 + i, col0 + i) (a diagonal).
template <typename T, typename I>
CUNP_HD void diagonal_entry(long long i, const DiagonalParams& p) {
  const T* d = static_cast<const T*>(p.data);
  const I* ix = static_cast<const I*>(p.indices);
  const I* ip = static_cast<const I*>(p.indptr);
  const long long r = p.row0 + i, c = p.col0 + i;
  T acc = zero<T>();
  for (I k = ip[r]; k < ip[r + 1]; ++k)
    if (static_cast<long long>(ix[k]) == c) acc = ops::add{}(acc, d[k]);
  static_cast<T*>(p.out)[i] = acc;
}

}  // namespace sparse_ops
}  // namespace cunp
