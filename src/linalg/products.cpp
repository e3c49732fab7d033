// src/linalg/products.cpp — matmul and the products built on it (dot, vdot, inner,
// outer, tensordot, trace).
#include <algorithm>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/ufunc.hpp"
#include "linalg/vendor.hpp"

namespace cunp {
namespace {

using linalg::detail::GemmArgs;

// One GEMM operand: a batch of matrices that BLAS can read in place.
// Note [GEMM operands]: a row-major matrix with leading dimension ld is, to BLAS, its
// transpose in column-major order; a column-major one (a transposed view) is read with
// the transpose flag. Batch axes that collapse to one stride (0 for broadcast operands)
// need no copy; anything else is copied to C order first.
struct GemmOperand {
  ndarray keep;             // the array whose buffer is read
  bool column_major = false;
  std::int64_t ld = 1;
  std::int64_t batch_stride = 0;  // elements
};

bool collapse_batch(const ndarray& x, int nbatch, std::int64_t es, std::int64_t* stride) {
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;
  for (int i = 0; i < nbatch; ++i)
    if (x.shape()[i] != 1) dims.push_back({x.shape()[i], x.strides()[i]});
  if (dims.empty() || std::all_of(dims.begin(), dims.end(), [](auto d) { return d.second == 0; })) {
    *stride = 0;
    return true;
  }
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    if (dims[i].second != dims[i + 1].second * dims[i + 1].first) return false;
  if (dims.back().second <= 0 || dims.back().second % es) return false;
  *stride = dims.back().second / es;
  return true;
}

bool describe(const ndarray& x, GemmOperand* op) {
  const int nd = x.ndim();
  const std::int64_t es = x.itemsize(), r = x.shape()[nd - 2], c = x.shape()[nd - 1];
  std::int64_t sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if (r == 1) sr = std::max<std::int64_t>(c, 1) * es;
  if (c == 1) sc = es;
  if (sc == es && sr % es == 0 && sr >= std::max<std::int64_t>(c, 1) * es) {
    op->column_major = false;
    op->ld = sr / es;
  } else if (sr == es && sc % es == 0 && sc >= std::max<std::int64_t>(r, 1) * es) {
    op->column_major = true;
    op->ld = sc / es;
  } else {
    return false;
  }
  if (!collapse_batch(x, nd - 2, es, &op->batch_stride)) return false;
  op->keep = x;
  return true;
}

GemmOperand gemm_operand(const ndarray& x) {
  GemmOperand op;
  if (x.size() > 0 && describe(x, &op)) return op;
  const bool ok = describe(ascontiguousarray(x), &op);
  (void)ok;
  return op;
}

// Integer and bool matmul: C = A B over C-ordered host copies, wrapping like NumPy.
template <typename T>
void int_matmul(const ndarray& a, const ndarray& b, const ndarray& c, std::int64_t batch, std::int64_t m,
                std::int64_t n, std::int64_t k) {
  const T* pa = static_cast<const T*>(a.data());
  const T* pb = static_cast<const T*>(b.data());
  T* pc = static_cast<T*>(c.data());
  using U = typename std::conditional_t<std::is_same_v<T, bool>, std::type_identity<bool>, std::make_unsigned<T>>::type;
  for (std::int64_t q = 0; q < batch; ++q, pa += m * k, pb += k * n, pc += m * n)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        U acc{};
        for (std::int64_t l = 0; l < k; ++l) {
          if constexpr (std::is_same_v<T, bool>)
            acc = acc || (pa[i * k + l] && pb[l * n + j]);
          else
            acc = static_cast<U>(acc + static_cast<U>(static_cast<U>(pa[i * k + l]) * static_cast<U>(pb[l * n + j])));
        }
        pc[i * n + j] = static_cast<T>(acc);
      }
}

void integer_matmul(const ndarray& a, const ndarray& b, const ndarray& c, std::int64_t batch, std::int64_t m,
                    std::int64_t n, std::int64_t k) {
  switch (c.dtype()) {
    case DType::Bool: return int_matmul<bool>(a, b, c, batch, m, n, k);
    case DType::Int8: return int_matmul<std::int8_t>(a, b, c, batch, m, n, k);
    case DType::UInt8: return int_matmul<std::uint8_t>(a, b, c, batch, m, n, k);
    case DType::Int16: return int_matmul<std::int16_t>(a, b, c, batch, m, n, k);
    case DType::UInt16: return int_matmul<std::uint16_t>(a, b, c, batch, m, n, k);
    case DType::Int32: return int_matmul<std::int32_t>(a, b, c, batch, m, n, k);
    case DType::UInt32: return int_matmul<std::uint32_t>(a, b, c, batch, m, n, k);
    case DType::Int64: return int_matmul<std::int64_t>(a, b, c, batch, m, n, k);
    case DType::UInt64: return int_matmul<std::uint64_t>(a, b, c, batch, m, n, k);
    default: throw TypeError("integer matmul of " + std::string(name(c.dtype())));
  }
}

// The matmul of operands already at least 2-D, broadcast batch, no out=.
ndarray matmul_2d(const ndarray& a0, const ndarray& b0) {
  const Device dev = a0.device();
  if (!(b0.device() == dev))
    throw ValueError("matmul: arrays are on different devices (" + dev.str() + " and " + b0.device().str() + ")");
  const DType rt = promote_types(a0.dtype(), b0.dtype());
  const int na = a0.ndim(), nb = b0.ndim();
  const std::int64_t m = a0.shape()[na - 2], k = a0.shape()[na - 1], n = b0.shape()[nb - 1];
  if (b0.shape()[nb - 2] != k)
    throw ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(n?,k),(k,m?)->(n?,m?) (size " + std::to_string(b0.shape()[nb - 2]) + " is different from " +
                     std::to_string(k) + ")");
  const Shape sa(a0.shape().begin(), a0.shape().end() - 2), sb(b0.shape().begin(), b0.shape().end() - 2);
  const Shape shapes[2] = {sa, sb};
  Shape batch_shape = broadcast_shapes(shapes);
  const std::int64_t batch = shape_size(batch_shape);
  Shape out_shape = batch_shape;
  out_shape.push_back(m);
  out_shape.push_back(n);

  const bool blas = is_inexact(rt);
  const DType ct = (rt == DType::Float16 && dev.is_cpu()) ? DType::Float32 : rt;  // compute type
  if (!blas && dev.is_cuda())
    throw NotImplementedError("matmul of " + std::string(name(rt)) +
                              " (integer/bool) arrays on CUDA devices is not implemented yet");
  ndarray c = empty(out_shape, {.dtype = ct, .device = dev});
  if (c.size() == 0) return ct == rt ? c : c.astype(rt);
  if (k == 0) {
    c.fill(Scalar(0));
    return ct == rt ? c : c.astype(rt);
  }
  auto full_shape = [&](const ndarray& x) {
    Shape s = batch_shape;
    s.push_back(x.shape()[x.ndim() - 2]);
    s.push_back(x.shape()[x.ndim() - 1]);
    return s;
  };
  const ndarray a = a0.astype(ct, {.copy = false}).broadcast_to(full_shape(a0));
  const ndarray b = b0.astype(ct, {.copy = false}).broadcast_to(full_shape(b0));
  if (!blas) {
    integer_matmul(ascontiguousarray(a), ascontiguousarray(b), c, batch, m, n, k);
    return c;
  }
  GemmOperand A = gemm_operand(a), B = gemm_operand(b);
  // Row-major C = A B is column-major C^T = B^T A^T.
  GemmArgs g{.dtype = ct};
  g.m = n;
  g.n = m;
  g.k = k;
  g.a = B.keep.data(), g.trans_a = B.column_major, g.lda = B.ld, g.stride_a = B.batch_stride;
  g.b = A.keep.data(), g.trans_b = A.column_major, g.ldb = A.ld, g.stride_b = A.batch_stride;
  g.c = c.data(), g.ldc = n, g.stride_c = m * n;
  g.batch = batch;
  if (batch > 1 && B.batch_stride == 0 && !A.column_major && A.ld == k && A.batch_stride == m * k) {
    g.n = batch * m;  // one GEMM: the batch of A stacks into taller rows
    g.batch = 1;
  }
  linalg::detail::gemm(dev, g);
  return ct == rt ? c : c.astype(rt);
}

ndarray to_out(const ndarray& result, std::optional<ndarray> out) {
  if (!out) return result;
  if (out->shape() != result.shape())
    throw ValueError("matmul: output array has wrong dimensions: expected " + shape_str(result.shape()) + ", got " +
                     shape_str(out->shape()));
  copyto(*out, result, Casting::SameKind);
  return *out;
}

ndarray with_shape(const ndarray& x, const Shape& s) { return x.reshape(s); }

}  // namespace

ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  if (a.ndim() == 0 || b.ndim() == 0)
    throw ValueError(std::string("matmul: Input operand ") + (a.ndim() == 0 ? "0" : "1") +
                     " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                     "requires 1)");
  const ndarray a2 = a.ndim() == 1 ? with_shape(a, {1, a.shape()[0]}) : a;
  const ndarray b2 = b.ndim() == 1 ? with_shape(b, {b.shape()[0], 1}) : b;
  ndarray r = matmul_2d(a2, b2);
  Shape s = r.shape();
  if (b.ndim() == 1) s.erase(s.end() - 1);
  if (a.ndim() == 1) s.erase(s.end() - (b.ndim() == 1 ? 1 : 2));
  if (s != r.shape()) r = r.reshape(s);
  return to_out(r, out);
}

ndarray tensordot(const ndarray& a, const ndarray& b, std::span<const int> axes_a, std::span<const int> axes_b) {
  if (axes_a.size() != axes_b.size()) throw ValueError("shape-mismatch for sum");
  std::vector<int> sa, sb;
  for (int x : axes_a) sa.push_back(normalize_axis(x, a.ndim()));
  for (int x : axes_b) sb.push_back(normalize_axis(x, b.ndim()));
  std::int64_t ksize = 1;
  for (std::size_t i = 0; i < sa.size(); ++i) {
    if (a.shape()[sa[i]] != b.shape()[sb[i]]) throw ValueError("shape-mismatch for sum");
    ksize *= a.shape()[sa[i]];
  }
  std::vector<int> perm_a, perm_b;
  Shape free_a, free_b;
  std::int64_t ma = 1, nb = 1;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(sa.begin(), sa.end(), i) == sa.end()) perm_a.push_back(i), free_a.push_back(a.shape()[i]), ma *= a.shape()[i];
  perm_a.insert(perm_a.end(), sa.begin(), sa.end());
  perm_b = sb;
  for (int i = 0; i < b.ndim(); ++i)
    if (std::find(sb.begin(), sb.end(), i) == sb.end()) perm_b.push_back(i), free_b.push_back(b.shape()[i]), nb *= b.shape()[i];
  const ndarray a2 = a.transpose(perm_a).reshape({ma, ksize});
  const ndarray b2 = b.transpose(perm_b).reshape({ksize, nb});
  Shape s = free_a;
  s.insert(s.end(), free_b.begin(), free_b.end());
  return matmul_2d(a2, b2).reshape(s);
}

ndarray tensordot(const ndarray& a, const ndarray& b, int axes) {
  if (axes < 0) throw ValueError("tensordot: axes must be non-negative");
  if (axes > a.ndim() || axes > b.ndim()) throw ValueError("shape-mismatch for sum");
  std::vector<int> xa, xb;
  for (int i = 0; i < axes; ++i) xa.push_back(a.ndim() - axes + i), xb.push_back(i);
  return tensordot(a, b, xa, xb);
}

ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  ndarray r;
  if (a.ndim() == 0 || b.ndim() == 0) {
    r = multiply(a, b);
  } else if (b.ndim() <= 2 || a.ndim() == 1) {
    r = matmul(a, b);  // the same sums as np.dot for these ranks
  } else {
    const int ax_a[1] = {a.ndim() - 1}, ax_b[1] = {b.ndim() - 2};
    if (a.shape()[a.ndim() - 1] != b.shape()[b.ndim() - 2])
      throw ValueError("shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " not aligned: " +
                       std::to_string(a.shape()[a.ndim() - 1]) + " (dim " + std::to_string(a.ndim() - 1) +
                       ") != " + std::to_string(b.shape()[b.ndim() - 2]) + " (dim " + std::to_string(b.ndim() - 2) +
                       ")");
    r = tensordot(a, b, ax_a, ax_b);
  }
  return to_out(r, out);
}

ndarray vdot(const ndarray& a, const ndarray& b) {
  if (a.size() != b.size()) throw ValueError("cannot reshape array of size " + std::to_string(b.size()) + " into shape (" + std::to_string(a.size()) + ",)");
  const ndarray ca = is_complex(a.dtype()) ? conjugate(a.ravel()) : a.ravel();
  return matmul(ca, b.ravel());
}

ndarray inner(const ndarray& a, const ndarray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape().back() != b.shape().back())
    throw ValueError("shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " not aligned");
  const int xa[1] = {a.ndim() - 1}, xb[1] = {b.ndim() - 1};
  return tensordot(a, b, xa, xb);
}

ndarray outer(const ndarray& a, const ndarray& b) {
  return multiply(a.reshape({-1, 1}), b.reshape({1, -1}));
}

ndarray trace(const ndarray& a, std::int64_t offset, int axis1, int axis2, std::optional<DType> dtype) {
  if (a.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int x1 = normalize_axis(axis1, a.ndim()), x2 = normalize_axis(axis2, a.ndim());
  if (x1 == x2) throw ValueError("axis1 and axis2 cannot be the same");
  const int src[2] = {x1, x2}, dst[2] = {-2, -1};
  const ndarray m = moveaxis(a, src, dst);
  const int nd = m.ndim();
  const std::int64_t r = m.shape()[nd - 2], c = m.shape()[nd - 1];
  const std::int64_t len = offset >= 0 ? std::max<std::int64_t>(0, std::min(r, c - offset))
                                       : std::max<std::int64_t>(0, std::min(r + offset, c));
  const std::int64_t row0 = offset >= 0 ? 0 : -offset, col0 = offset >= 0 ? offset : 0;
  Shape s(m.shape().begin(), m.shape().end() - 2);
  Strides st(m.strides().begin(), m.strides().end() - 2);
  s.push_back(len);
  st.push_back(m.strides()[nd - 2] + m.strides()[nd - 1]);
  const std::int64_t off = len ? m.offset() + row0 * m.strides()[nd - 2] + col0 * m.strides()[nd - 1] : m.offset();
  const ndarray diag = m.as_strided(s, st, off);
  DType rt = a.dtype();
  if (dtype) {
    rt = *dtype;
  } else if (rt == DType::Bool || (kind(rt) == DTypeKind::SignedInt && itemsize(rt) < 8)) {
    rt = DType::Int64;
  } else if (kind(rt) == DTypeKind::UnsignedInt && itemsize(rt) < 8) {
    rt = DType::UInt64;
  }
  const ndarray ones_v = ones({len}, {.dtype = rt, .device = a.device()});
  return matmul(diag.astype(rt, {.copy = false}), ones_v);
}

}  // namespace cunp
