// src/sparse/cpu_products.cpp — SpMV, SpMM and SpGEMM on the cpu device (see
// cpu_loops.hpp). Values combine through the src/ops functors (integers wrap, bools are
// `or` of `and`s, complex products as NumPy rounds them).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/dispatch.hpp"
#include "cpu/parallel.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "ops/cast.h"
#include "ops/ufunc_arith.h"
#include "ops/ufunc_compare.h"
#include "sparse/cpu_loops.hpp"

namespace cunp::sparse::detail {
namespace {

template <typename T>
T conj_if(T v, bool conj) {
  if constexpr (requires { v.im; }) {
    if (conj) return ops::conjugate{}(v);
  }
  return v;
}

template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Calls f.template operator()<T, I>() with the element type of the data and the index type.
template <typename F>
decltype(auto) dispatch_csr(const Csr& a, F&& f) {
  return dispatch_dtype(a.data.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, ops::half>) {
      throw TypeError("sparse products of float16");
      return f.template operator()<float, ops::i32>();
    } else if (a.index == DType::Int64) {
      return f.template operator()<T, ops::i64>();
    } else {
      return f.template operator()<T, ops::i32>();
    }
  });
}

}  // namespace

ndarray matvec_cpu(const Csr& a, const ndarray& x, Operation op) {
  const std::int64_t n_out = op == Operation::N ? a.shape.rows : a.shape.cols;
  ndarray y = zeros({n_out}, {.dtype = a.data.dtype(), .device = a.device});
  dispatch_csr(a, [&]<typename T, typename I>() {
    const T* d = static_cast<const T*>(a.data.data());
    const I* ix = static_cast<const I*>(a.indices.data());
    const I* ip = static_cast<const I*>(a.indptr.data());
    const T* xs = static_cast<const T*>(x.data());
    T* ys = static_cast<T*>(y.data());
    if (op == Operation::N) {
      cpu::parallel_ranges(a.shape.rows, a.nnz() + a.shape.rows,
                           [&](std::int64_t b, std::int64_t e) {
                             for (std::int64_t i = b; i < e; ++i) {
                               T acc = ops::cast<T>(0);
                               for (I k = ip[i]; k < ip[i + 1]; ++k)
                                 acc = ops::add{}(acc, ops::multiply{}(d[k], xs[ix[k]]));
                               ys[i] = acc;
                             }
                           });
    } else {  // scattered into y: csc_matvec's order, one thread
      const bool conj = op == Operation::H;
      for (std::int64_t i = 0; i < a.shape.rows; ++i)
        for (I k = ip[i]; k < ip[i + 1]; ++k)
          ys[ix[k]] = ops::add{}(ys[ix[k]], ops::multiply{}(conj_if(d[k], conj), xs[i]));
    }
  });
  return y;
}

ndarray matmat_cpu(const Csr& a, const ndarray& b, Operation op) {
  const std::int64_t n_out = op == Operation::N ? a.shape.rows : a.shape.cols;
  const std::int64_t k = b.shape()[1];
  const Order order = b.is_f_contiguous() && !b.is_c_contiguous() ? Order::F : Order::C;
  ndarray c = zeros({n_out, k}, {.dtype = a.data.dtype(), .order = order, .device = a.device});
  if (k == 0 || n_out == 0) return c;
  dispatch_csr(a, [&]<typename T, typename I>() {
    const T* d = static_cast<const T*>(a.data.data());
    const I* ix = static_cast<const I*>(a.indices.data());
    const I* ip = static_cast<const I*>(a.indptr.data());
    const char* bs = static_cast<const char*>(b.data());
    const std::int64_t br = b.strides()[0], bc = b.strides()[1];
    char* cs = static_cast<char*>(c.data());
    const std::int64_t cr = c.strides()[0], cc = c.strides()[1];
    auto at = [&](std::int64_t i, std::int64_t j) -> T& {
      return *reinterpret_cast<T*>(cs + i * cr + j * cc);
    };
    if (op == Operation::N) {
      cpu::parallel_ranges(
          a.shape.rows, (a.nnz() + a.shape.rows) * k, [&](std::int64_t rb, std::int64_t re) {
            for (std::int64_t i = rb; i < re; ++i)
              for (I q = ip[i]; q < ip[i + 1]; ++q) {
                const T v = d[q];
                const char* brow = bs + static_cast<std::int64_t>(ix[q]) * br;
                for (std::int64_t j = 0; j < k; ++j)
                  at(i, j) = ops::add{}(at(i, j), ops::multiply{}(v, load<T>(brow + j * bc)));
              }
          });
    } else {  // scattered: rows of C are columns of A; split the right-hand columns
      const bool conj = op == Operation::H;
      cpu::parallel_ranges(k, (a.nnz() + a.shape.rows) * k, [&](std::int64_t jb, std::int64_t je) {
        for (std::int64_t i = 0; i < a.shape.rows; ++i)
          for (I q = ip[i]; q < ip[i + 1]; ++q) {
            const T v = conj_if(d[q], conj);
            const std::int64_t r = ix[q];
            for (std::int64_t j = jb; j < je; ++j)
              at(r, j) = ops::add{}(at(r, j), ops::multiply{}(v, load<T>(bs + i * br + j * bc)));
          }
      });
    }
  });
  return c;
}

Csr matmul_cpu(const Csr& a, const Csr& b, DType index) {
  const std::int64_t m = a.shape.rows, n = b.shape.cols;
  Csr out;
  out.shape = {m, n};
  out.index = index;
  out.device = a.device;
  dispatch_csr(a, [&]<typename T, typename I>() {
    const T* ad = static_cast<const T*>(a.data.data());
    const I* ai = static_cast<const I*>(a.indices.data());
    const I* ap = static_cast<const I*>(a.indptr.data());
    const T* bd = static_cast<const T*>(b.data.data());
    const I* bi = static_cast<const I*>(b.indices.data());
    const I* bp = static_cast<const I*>(b.indptr.data());
    // Each piece of rows is computed into its own buffers (SciPy's csr_matmat: a dense
    // accumulator and the list of touched columns per row), then copied into place.
    struct Piece {
      std::int64_t begin = 0, end = 0;
      std::vector<std::int64_t> counts, cols;
      std::vector<T> vals;
    };
    const std::int64_t work = a.nnz() + b.nnz() + m;
    const std::int64_t pieces =
        work < cpu::kParallelMin
            ? 1
            : std::max<std::int64_t>(1, std::min<std::int64_t>(cpu::hardware_threads(), m));
    std::vector<Piece> parts(static_cast<std::size_t>(std::max<std::int64_t>(pieces, 1)));
    std::int64_t at = 0;
    for (std::int64_t p = 0; p < pieces; ++p) {
      parts[p].begin = at;
      at += m / pieces + (p < m % pieces ? 1 : 0);
      parts[p].end = at;
    }
    cpu::parallel_ranges(pieces, pieces > 1 ? cpu::kParallelMin : 0,
                         [&](std::int64_t pb, std::int64_t pe) {
                           std::vector<T> sums(static_cast<std::size_t>(n), ops::cast<T>(0));
                           std::vector<std::int64_t> mark(static_cast<std::size_t>(n), -1);
                           std::vector<std::int64_t> touched;
                           for (std::int64_t q = pb; q < pe; ++q) {
                             Piece& part = parts[static_cast<std::size_t>(q)];
                             for (std::int64_t i = part.begin; i < part.end; ++i) {
                               touched.clear();
                               for (I x = ap[i]; x < ap[i + 1]; ++x) {
                                 const std::int64_t j = ai[x];
                                 const T v = ad[x];
                                 for (I y = bp[j]; y < bp[j + 1]; ++y) {
                                   const std::int64_t c = bi[y];
                                   if (mark[c] != i) {
                                     mark[c] = i;
                                     touched.push_back(c);
                                     sums[c] = ops::cast<T>(0);
                                   }
                                   sums[c] = ops::add{}(sums[c], ops::multiply{}(v, bd[y]));
                                 }
                               }
                               std::sort(touched.begin(), touched.end());
                               std::int64_t kept = 0;
                               for (std::int64_t c : touched) {
                                 if (!ops::detail::truth(sums[c])) continue;
                                 part.cols.push_back(c);
                                 part.vals.push_back(sums[c]);
                                 ++kept;
                               }
                               part.counts.push_back(kept);
                             }
                           }
                         });
    std::int64_t total = 0;
    for (const Piece& part : parts) total += static_cast<std::int64_t>(part.cols.size());
    out.data = empty({total}, {.dtype = a.data.dtype(), .device = a.device});
    out.indices = empty({total}, {.dtype = index, .device = a.device});
    out.indptr = empty({m + 1}, {.dtype = index, .device = a.device});
    T* od = static_cast<T*>(out.data.data());
    dispatch_dtype(index, [&]<typename J>() {
      if constexpr (std::is_same_v<J, ops::i32> || std::is_same_v<J, ops::i64>) {
        J* oi = static_cast<J*>(out.indices.data());
        J* op = static_cast<J*>(out.indptr.data());
        std::int64_t pos = 0, row = 0;
        op[0] = 0;
        for (const Piece& part : parts) {
          for (std::size_t e = 0; e < part.cols.size(); ++e) {
            oi[pos + static_cast<std::int64_t>(e)] = static_cast<J>(part.cols[e]);
            od[pos + static_cast<std::int64_t>(e)] = part.vals[e];
          }
          std::int64_t start = pos;
          for (std::int64_t cnt : part.counts) {
            start += cnt;
            op[++row] = static_cast<J>(start);
          }
          pos += static_cast<std::int64_t>(part.cols.size());
        }
      }
    });
  });
  return out;
}

}  // namespace cunp::sparse::detail
