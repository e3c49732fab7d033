// src/linalg/products.cpp — matmul and the products built on it (dot, vdot, inner,
// outer, tensordot), trace, kron and cross.
#include <algorithm>
#include <numeric>
#include <string>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
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

// Integer, bool and small float matmul by the generated GEMM (Notes [Integer GEMM],
// [Small float GEMM]): the operands are read through their byte strides; a batch that
// does not collapse to one stride is copied first.
void generated_matmul(const ndarray& a0, const ndarray& b0, const ndarray& c, std::int64_t batch, std::int64_t m,
                      std::int64_t n, std::int64_t k) {
  const int nbatch = c.ndim() - 2;
  auto batched = [nbatch](const ndarray& x, std::int64_t* byte_stride) {
    if (collapse_batch(x, nbatch, 1, byte_stride)) return x;
    ndarray y = ascontiguousarray(x);
    (void)collapse_batch(y, nbatch, 1, byte_stride);
    return y;
  };
  std::int64_t sa = 0, sb = 0;
  const ndarray a = batched(a0, &sa), b = batched(b0, &sb);
  linalg::detail::IntGemmArgs g{.dtype = c.dtype()};
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.a = a.data(), g.a_batch = sa, g.a_row = a.strides()[nbatch], g.a_col = a.strides()[nbatch + 1];
  g.b = b.data(), g.b_batch = sb, g.b_row = b.strides()[nbatch], g.b_col = b.strides()[nbatch + 1];
  g.c = c.data();
  linalg::detail::int_gemm(c.device(), g);
}

// Products of at most this many multiply-adds (128^3) in float32/float64 run the
// generated GEMM on CUDA devices (Note [Small float GEMM]).
constexpr std::int64_t kSmallFloatGemmWork = std::int64_t{1} << 21;
// ... when their inner dimension is at most this. Note [Long inner dimension]: the
// generated kernel gives each output to one thread and walks k serially (16 per staging
// round), so a product with few outputs and a long k (a dot product of two 10^6-element
// vectors, the Gram-Schmidt projections V @ w of a Krylov solver: 2^21 multiply-adds or
// fewer) is one block's loop of k / 16 rounds; cuBLAS splits k across the device.
constexpr std::int64_t kSmallFloatGemmMaxK = 1024;

// The matmul of operands already at least 2-D, broadcast batch. Note [matmul out=]: the
// product is written straight into `into` when it can take it as it is (the result's
// shape and dtype, C-contiguous, on the device, sharing no memory with an operand);
// otherwise into a new array, which the caller casts into `out`.
ndarray matmul_2d(const ndarray& a0, const ndarray& b0, const ndarray* into = nullptr) {
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
  // The batch shape: the operands' leading axes broadcast (no work for 2-D operands).
  Shape out_shape;
  if (na > 2 || nb > 2) {
    const Shape sa(a0.shape().begin(), a0.shape().end() - 2), sb(b0.shape().begin(), b0.shape().end() - 2);
    const Shape shapes[2] = {sa, sb};
    out_shape = broadcast_shapes(shapes);
  }
  const std::int64_t batch = shape_size(out_shape);
  const std::size_t nbatch = out_shape.size();
  out_shape.push_back(m);
  out_shape.push_back(n);

  const bool blas = is_inexact(rt);
  const DType ct = (rt == DType::Float16 && dev.is_cpu()) ? DType::Float32 : rt;  // compute type
  ndarray c;
  if (into && ct == rt && into->dtype() == rt && into->device() == dev && into->shape() == out_shape &&
      into->is_c_contiguous() && !into->may_share_memory(a0) && !into->may_share_memory(b0))
    c = *into;
  else
    c = empty(out_shape, {.dtype = ct, .device = dev});
  if (c.size() == 0) return ct == rt ? c : c.astype(rt);
  if (k == 0) {
    c.fill(Scalar(0));
    return ct == rt ? c : c.astype(rt);
  }
  // An operand already of the result's batch shape (every 2-D·2-D product) is used as
  // it is; others get a broadcast view.
  auto fit = [&](const ndarray& x0) {
    const ndarray x = x0.dtype() == ct ? x0 : x0.astype(ct);
    const int nx = x.ndim();
    if (static_cast<std::size_t>(nx - 2) == nbatch &&
        std::equal(out_shape.begin(), out_shape.end() - 2, x.shape().begin()))
      return x;
    Shape s(out_shape.begin(), out_shape.end() - 2);
    s.push_back(x.shape()[nx - 2]);
    s.push_back(x.shape()[nx - 1]);
    return x.broadcast_to(s);
  };
  const ndarray a = fit(a0), b = fit(b0);
  // Note [Small float GEMM]: small real products run the generated GEMM, not cuBLAS.
  const bool small_float = dev.is_cuda() && (ct == DType::Float32 || ct == DType::Float64) &&
                           batch * m * n * k <= kSmallFloatGemmWork && k <= kSmallFloatGemmMaxK;
  if (!blas || small_float) {
    generated_matmul(a, b, c, batch, m, n, k);
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

constexpr const char* kMatmulSignature = "(n?,k),(k,m?)->(n?,m?)";

std::string dtype_repr(DType t) { return "dtype('" + std::string(name(t)) + "')"; }

// Note [matmul out=]: NumPy's gufunc rules. The core dimensions of `out` (its last one
// or two axes) must equal the result's; its leading axes may be larger than the
// result's batch shape, which is then broadcast into them (every copy the same product).
void check_matmul_out(const ndarray& out, const Shape& result, int core) {
  if (out.ndim() < core)
    throw ValueError("matmul: Output operand 0 does not have enough dimensions (has " + std::to_string(out.ndim()) +
                     ", gufunc core with signature " + kMatmulSignature + " requires " + std::to_string(core) + ")");
  const int rn = static_cast<int>(result.size());
  for (int i = 0; i < core; ++i) {
    const std::int64_t want = result[rn - core + i], got = out.shape()[out.ndim() - core + i];
    if (want != got)
      throw ValueError("matmul: Output operand 0 has a mismatch in its core dimension " + std::to_string(i) +
                       ", with gufunc signature " + kMatmulSignature + " (size " + std::to_string(got) +
                       " is different from " + std::to_string(want) + ")");
  }
  const Shape ob(out.shape().begin(), out.shape().end() - core), rb(result.begin(), result.end() - core);
  const Shape both[2] = {ob, rb};
  bool fits = rb.size() <= ob.size();
  if (fits) {
    try {
      fits = broadcast_shapes(both) == ob;
    } catch (const ValueError&) {
      fits = false;
    }
  }
  if (!fits)
    throw ValueError("matmul: non-broadcastable output operand with shape " + shape_str(out.shape()) +
                     " doesn't match the broadcast shape " + shape_str(result));
}

// The axes of one operand named by matmul's axes= moved to the end (the core axes).
ndarray core_axes_last(const ndarray& x, const std::vector<int>& axes, int core, const char* what) {
  if (static_cast<int>(axes.size()) != core)
    throw ValueError(std::string("matmul: axes item for ") + what + " should be a tuple with " +
                     std::to_string(core) + " entries, got " + std::to_string(axes.size()));
  std::vector<int> dst;
  for (int i = 0; i < core; ++i) dst.push_back(x.ndim() - core + i);
  return moveaxis(x, axes, dst);
}

ndarray with_shape(const ndarray& x, const Shape& s) { return x.reshape(s); }

// matmul of operands of at least one dimension, already in the computing dtype.
ndarray matmul_core(const ndarray& a, const ndarray& b, const std::optional<ndarray>& out) {
  if (a.ndim() >= 2 && b.ndim() >= 2 && out) {
    // The result's shape is matmul_2d's: out= may be written directly.
    const ndarray r = matmul_2d(a, b, &*out);
    if (r.data() == out->data() && r.shape() == out->shape() && r.dtype() == out->dtype()) return *out;
    return r;
  }
  const ndarray a2 = a.ndim() == 1 ? with_shape(a, {1, a.shape()[0]}) : a;
  const ndarray b2 = b.ndim() == 1 ? with_shape(b, {b.shape()[0], 1}) : b;
  ndarray r = matmul_2d(a2, b2);
  Shape s = r.shape();
  if (b.ndim() == 1) s.erase(s.end() - 1);
  if (a.ndim() == 1) s.erase(s.end() - (b.ndim() == 1 ? 1 : 2));
  if (s != r.shape()) r = r.reshape(s);
  return r;
}

}  // namespace

ndarray matmul(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  return matmul(a, b, MatmulOptions{.out = std::move(out)});
}

ndarray matmul(const ndarray& a0, const ndarray& b0, const MatmulOptions& options) {
  if (a0.ndim() == 0 || b0.ndim() == 0)
    throw ValueError(std::string("matmul: Input operand ") + (a0.ndim() == 0 ? "0" : "1") +
                     " does not have enough dimensions (has 0, gufunc core with signature " + kMatmulSignature +
                     " requires 1)");
  const int core_a = a0.ndim() == 1 ? 1 : 2, core_b = b0.ndim() == 1 ? 1 : 2;
  const int core_r = (core_a - 1) + (core_b - 1);
  ndarray a = a0, b = b0;
  std::optional<ndarray> out = options.out;
  std::vector<int> out_axes;
  if (options.axes) {
    const auto& ax = *options.axes;
    if (ax.size() != 3)  // NumPy counts the signature's output core axes (n?,m?), even when both are absent
      throw ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs can "
                       "only be omitted if none of them has core axes.");
    a = core_axes_last(a, ax[0], core_a, "input 0");
    b = core_axes_last(b, ax[1], core_b, "input 1");
    {
      if (static_cast<int>(ax[2].size()) != core_r)
        throw ValueError("matmul: axes item for the output should be a tuple with " + std::to_string(core_r) +
                         " entries, got " + std::to_string(ax[2].size()));
      out_axes = ax[2];
      if (out) out = core_axes_last(*out, out_axes, core_r, "the output");
    }
  }
  // The loop's dtype: dtype= or the promoted inputs; inputs and out cast under `casting`.
  const DType rt = options.dtype ? *options.dtype : promote_types(a.dtype(), b.dtype());
  const ndarray* in[2] = {&a, &b};
  for (int i = 0; i < 2; ++i)
    if (!can_cast(in[i]->dtype(), rt, options.casting))
      throw TypeError("Cannot cast ufunc 'matmul' input " + std::to_string(i) + " from " +
                      dtype_repr(in[i]->dtype()) + " to " + dtype_repr(rt) + " with casting rule '" +
                      std::string(name(options.casting)) + "'");
  if (out && !can_cast(rt, out->dtype(), options.casting))
    throw TypeError("Cannot cast ufunc 'matmul' output from " + dtype_repr(rt) + " to " + dtype_repr(out->dtype()) +
                    " with casting rule '" + std::string(name(options.casting)) + "'");
  if (out && !out->writeable()) throw ValueError("output array is read-only");
  if (a.dtype() != rt) a = a.astype(rt);
  if (b.dtype() != rt) b = b.astype(rt);
  if (!out) {
    ndarray r = matmul_core(a, b, std::nullopt);
    if (out_axes.empty()) return r;
    std::vector<int> src;
    for (int i = 0; i < core_r; ++i) src.push_back(r.ndim() - core_r + i);
    return moveaxis(r, src, out_axes);
  }
  // The result's shape, to check out= before any work.
  Shape rs;
  {
    const Shape sa(a.shape().begin(), a.shape().end() - core_a), sb(b.shape().begin(), b.shape().end() - core_b);
    const Shape both[2] = {sa, sb};
    rs = broadcast_shapes(both);
    if (core_a == 2) rs.push_back(a.shape()[a.ndim() - 2]);
    if (core_b == 2) rs.push_back(b.shape()[b.ndim() - 1]);
  }
  const std::int64_t ka = a.shape().back(), kb = b.shape()[b.ndim() - core_b];
  if (ka != kb)
    throw ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                     std::string(kMatmulSignature) + " (size " + std::to_string(kb) + " is different from " +
                     std::to_string(ka) + ")");
  check_matmul_out(*out, rs, core_r);
  const ndarray r = matmul_core(a, b, out->shape() == rs ? out : std::nullopt);
  if (r.data() == out->data() && r.shape() == out->shape() && r.dtype() == out->dtype() &&
      r.strides() == out->strides())
    return options.out ? *options.out : r;
  copyto(*out, r, Casting::Unsafe);
  return *options.out;
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
  axes = std::max(axes, 0);  // NumPy: the last N axes of a, range(-N, 0), are none for N < 0
  if (axes > a.ndim() || axes > b.ndim()) throw ValueError("shape-mismatch for sum");
  std::vector<int> xa, xb;
  for (int i = 0; i < axes; ++i) xa.push_back(a.ndim() - axes + i), xb.push_back(i);
  return tensordot(a, b, xa, xb);
}

// Note [dot out=]: NumPy's dot writes its result straight into `out`, so it accepts only
// an out of exactly the result's dtype, number of dimensions and C order (ValueError
// otherwise). The one exception: a 0-d operand of a dtype outside BLAS (float32/64,
// complex64/128) makes dot a multiply, with the ufunc's out= rules (cast, broadcast).
ndarray dot(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  const DType rt = promote_types(a.dtype(), b.dtype());
  const bool blas_type = rt == DType::Float32 || rt == DType::Float64 || rt == DType::Complex64 ||
                         rt == DType::Complex128;
  if ((a.ndim() == 0 || b.ndim() == 0) && !blas_type) {
    UfuncOptions o;
    if (out) o.out.push_back(*out);
    return multiply(a, b, o);
  }
  Shape rs;
  if (a.ndim() == 0 || b.ndim() == 0) {
    rs = a.ndim() == 0 ? b.shape() : a.shape();
  } else {
    const std::int64_t ka = a.shape().back(), kb = b.shape()[b.ndim() >= 2 ? b.ndim() - 2 : 0];
    if (ka != kb) {
      const int da = a.ndim() - 1, db = b.ndim() >= 2 ? b.ndim() - 2 : 0;
      throw ValueError("shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " not aligned: " +
                       std::to_string(ka) + " (dim " + std::to_string(da) + ") != " + std::to_string(kb) + " (dim " +
                       std::to_string(db) + ")");
    }
    rs.assign(a.shape().begin(), a.shape().end() - 1);
    if (b.ndim() >= 2) {
      rs.insert(rs.end(), b.shape().begin(), b.shape().end() - 2);
      rs.push_back(b.shape().back());
    }
  }
  if (out) {
    if (out->dtype() != rt || out->ndim() != static_cast<int>(rs.size()) || !out->is_c_contiguous())
      throw ValueError("output array is not acceptable (must have the right datatype, number of dimensions, and "
                       "be a C-Array)");
    if (out->shape() != rs) throw ValueError("output array has wrong dimensions");
    if (!out->writeable()) throw ValueError("output array is read-only");
  }
  if (a.ndim() == 0 || b.ndim() == 0) {
    UfuncOptions o;
    if (out) o.out.push_back(*out);
    return multiply(a, b, o);
  }
  if (b.ndim() <= 2 || a.ndim() == 1) {
    return matmul(a, b, out);  // the same sums as np.dot for these ranks; out is already of the result's shape
  }
  const int ax_a[1] = {a.ndim() - 1}, ax_b[1] = {b.ndim() - 2};
  const ndarray r = tensordot(a, b, ax_a, ax_b);
  if (!out) return r;
  copyto(*out, r, Casting::Unsafe);
  return *out;
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

ndarray outer(const ndarray& a, const ndarray& b, std::optional<ndarray> out) {
  UfuncOptions o;
  if (out) o.out.push_back(*out);  // np.outer is this multiply: the ufunc's out= rules
  return multiply(a.reshape({-1, 1}), b.reshape({1, -1}), o);
}

ndarray trace(const ndarray& a, std::int64_t offset, int axis1, int axis2, std::optional<DType> dtype,
              std::optional<ndarray> out) {
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
  // The diagonal is a strided view; its sum is a plain reduction (NumPy's sum dtypes:
  // small integers and bool widen to int64/uint64 unless `dtype` says otherwise).
  return sum(diag, {.axis = -1, .dtype = dtype, .out = std::move(out)});
}

ndarray kron(const ndarray& a, const ndarray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  // The shorter shape gets leading 1s; a[i] * b[j] lands at i * b.shape + j, which is
  // the product of a (..., n, 1, ...) and b (..., 1, m, ...) read as (..., n * m, ...).
  const int nd = std::max(a.ndim(), b.ndim());
  Shape sa(static_cast<std::size_t>(nd - a.ndim()), 1), sb(static_cast<std::size_t>(nd - b.ndim()), 1);
  sa.insert(sa.end(), a.shape().begin(), a.shape().end());
  sb.insert(sb.end(), b.shape().begin(), b.shape().end());
  Shape ea, eb, out;
  for (int i = 0; i < nd; ++i) {
    ea.push_back(sa[i]), ea.push_back(1);
    eb.push_back(1), eb.push_back(sb[i]);
    out.push_back(sa[i] * sb[i]);
  }
  return multiply(a.reshape(ea), b.reshape(eb)).reshape(out);
}

ndarray cross(const ndarray& a0, const ndarray& b0, const CrossOptions& options) {
  const int axa = options.axis.value_or(options.axisa), axb = options.axis.value_or(options.axisb);
  const int axc = options.axis.value_or(options.axisc);
  if (a0.ndim() < 1 || b0.ndim() < 1) throw ValueError("At least one array has zero dimension");
  const ndarray a = moveaxis(a0, std::vector<int>{normalize_axis(axa, a0.ndim())}, std::vector<int>{-1});
  const ndarray b = moveaxis(b0, std::vector<int>{normalize_axis(axb, b0.ndim())}, std::vector<int>{-1});
  const std::int64_t na = a.shape().back(), nb = b.shape().back();
  // NumPy 2.5 removed the 2-component vectors that 2.0-2.4 deprecated.
  if (na != 3 || nb != 3)
    throw ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                     std::to_string(na) + " and " + std::to_string(nb) + " dimensional instead.");
  const DType dt = promote_types(a.dtype(), b.dtype());
  auto comp = [dt](const ndarray& x, std::int64_t i) { return x.view({ellipsis, i}).astype(dt, {.copy = false}); };
  const ndarray a_0 = comp(a, 0), a_1 = comp(a, 1), a_2 = comp(a, 2);
  const ndarray b_0 = comp(b, 0), b_1 = comp(b, 1), b_2 = comp(b, 2);
  const ndarray x = subtract(multiply(a_1, b_2), multiply(a_2, b_1));
  const ndarray y = subtract(multiply(a_2, b_0), multiply(a_0, b_2));
  const ndarray z = subtract(multiply(a_0, b_1), multiply(a_1, b_0));
  const ndarray parts[3] = {x, y, z};
  const ndarray c = stack(parts, -1);
  return moveaxis(c, std::vector<int>{-1}, std::vector<int>{normalize_axis(axc, c.ndim())});
}

}  // namespace cunp
