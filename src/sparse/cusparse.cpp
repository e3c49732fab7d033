// src/sparse/cusparse.cpp — the cuSPARSE paths of cusparse.hpp: the generic API (SpMV,
// SpMM, SpGEMM, SpSV) and cusparseCsr2cscEx2, through the lazily loaded library (Note
// [Lazy vendor libraries]). The handle is the calling thread's, from src/runtime (Note
// [cuSPARSE handles] in runtime/vendor_handles.cpp).
//
// Workspaces come from cunp's caching allocator and are freed in stream order after the
// call that uses them is enqueued. Scalars (alpha = 1, beta = 0) are host values in the
// compute type. Outputs are zeroed before a beta = 0 call: one memset, so that nothing
// depends on whether a routine reads its output when beta is zero.
//
// Note [cuSPARSE index width]: every matrix whose nnz and dimensions fit in int32 is
// handed to cuSPARSE with 32-bit indices (a copy when its arrays are int64): 32-bit
// indices move half the index bytes of SpMV/SpMM, and SpGEMM and Csr2cscEx2 take no
// other width.
#include "sparse/cusparse.hpp"

#include <cusparse.h>

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "runtime/vendor_handles.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/memory.hpp"
#include "cunp/scalar.hpp"
#include "cunp/sparse.hpp"
#include "cunp/stream.hpp"

namespace cunp::sparse::detail {
namespace {

using cuda::check_cusparse;
#define CUNP_CUSPARSE_CALL(fn, ...) check_cusparse(CUNP_VENDOR(cusparse, fn)(__VA_ARGS__), #fn)

// Note [cuSPARSE handles] (runtime/vendor_handles.cpp).
cusparseHandle_t handle(int device) { return cuda::cusparse_handle(device); }

cudaDataType value_type(DType dt) {
  switch (dt) {
    case DType::Float32:
      return CUDA_R_32F;
    case DType::Float64:
      return CUDA_R_64F;
    case DType::Complex64:
      return CUDA_C_32F;
    case DType::Complex128:
      return CUDA_C_64F;
    default:
      throw TypeError("cuSPARSE has no routine for " + std::string(name(dt)));
  }
}

cusparseIndexType_t index_type(DType index) {
  return index == DType::Int64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
}

cusparseOperation_t operation(Operation op) {
  switch (op) {
    case Operation::N:
      return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case Operation::T:
      return CUSPARSE_OPERATION_TRANSPOSE;
    default:
      return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  }
}

// alpha = 1 and beta = 0 in the compute type (host pointer mode).
struct Scalars {
  alignas(16) unsigned char one[16] = {};
  alignas(16) unsigned char zero[16] = {};
  explicit Scalars(DType dt) {
    Scalar(1.0).write_as(dt, one);
    Scalar(0.0).write_as(dt, zero);
  }
};

struct Workspace {
  std::shared_ptr<Storage> storage;
  Workspace(int device, std::size_t nbytes) {
    if (nbytes) storage = allocate(Device::cuda(device), nbytes);
  }
  void* data() const { return storage ? storage->data() : nullptr; }
};

void* ptr(const ndarray& a) { return a.data(); }

// Note [cuSPARSE index width]: the matrix with int32 indices when it fits them. cuSPARSE
// also refuses (CUSPARSE_STATUS_INVALID_VALUE) a descriptor storing more entries than
// rows x cols, which only duplicates make possible: such a matrix is summed first (the
// products are the same; SciPy's loops add duplicates' products one by one).
Csr narrow(const Csr& m) {
  const bool over_full = m.nnz() > m.shape.rows * m.shape.cols;
  const Csr a = over_full ? prepare(sum_duplicates(m.matrix()), "cusparse") : m;
  if (a.index == DType::Int32 || index_dtype(a.nnz(), a.shape) != DType::Int32) return a;
  return with_index(a, DType::Int32);
}

class SpMat {
 public:
  explicit SpMat(const Csr& a) {
    CUNP_CUSPARSE_CALL(cusparseCreateCsr, &d_, a.shape.rows, a.shape.cols, a.nnz(), ptr(a.indptr),
                       ptr(a.indices), ptr(a.data), index_type(a.index), index_type(a.index),
                       CUSPARSE_INDEX_BASE_ZERO, value_type(a.data.dtype()));
  }
  // An empty CSR of rows x cols whose arrays cuSPARSE fills in (SpGEMM's result).
  SpMat(std::int64_t rows, std::int64_t cols, void* indptr, DType dt) {
    CUNP_CUSPARSE_CALL(cusparseCreateCsr, &d_, rows, cols, 0, indptr, nullptr, nullptr,
                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                       value_type(dt));
  }
  ~SpMat() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseDestroySpMat)(d_);
  }
  SpMat(const SpMat&) = delete;
  SpMat& operator=(const SpMat&) = delete;
  operator cusparseSpMatDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseSpMatDescr_t d_ = nullptr;
};

class DnVec {
 public:
  DnVec(std::int64_t n, void* values, DType dt) {
    CUNP_CUSPARSE_CALL(cusparseCreateDnVec, &d_, n, values, value_type(dt));
  }
  explicit DnVec(const ndarray& a) : DnVec(a.size(), ptr(a), a.dtype()) {}
  ~DnVec() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseDestroyDnVec)(d_);
  }
  DnVec(const DnVec&) = delete;
  DnVec& operator=(const DnVec&) = delete;
  void set(void* values) { CUNP_CUSPARSE_CALL(cusparseDnVecSetValues, d_, values); }
  operator cusparseDnVecDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseDnVecDescr_t d_ = nullptr;
};

// A 2-d array with unit stride along one axis: row-major when C-contiguous, else col-major.
class DnMat {
 public:
  explicit DnMat(const ndarray& a) {
    const std::int64_t r = a.shape()[0], c = a.shape()[1];
    const bool row_major = a.is_c_contiguous();
    CUNP_CUSPARSE_CALL(cusparseCreateDnMat, &d_, r, c,
                       row_major ? std::max<std::int64_t>(c, 1) : std::max<std::int64_t>(r, 1),
                       ptr(a), value_type(a.dtype()),
                       row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL);
  }
  ~DnMat() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseDestroyDnMat)(d_);
  }
  DnMat(const DnMat&) = delete;
  DnMat& operator=(const DnMat&) = delete;
  operator cusparseDnMatDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseDnMatDescr_t d_ = nullptr;
};

class SpGemmDescr {
 public:
  SpGemmDescr() { CUNP_CUSPARSE_CALL(cusparseSpGEMM_createDescr, &d_); }
  ~SpGemmDescr() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseSpGEMM_destroyDescr)(d_);
  }
  SpGemmDescr(const SpGemmDescr&) = delete;
  SpGemmDescr& operator=(const SpGemmDescr&) = delete;
  operator cusparseSpGEMMDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseSpGEMMDescr_t d_ = nullptr;
};

class SpSvDescr {
 public:
  SpSvDescr() { CUNP_CUSPARSE_CALL(cusparseSpSV_createDescr, &d_); }
  ~SpSvDescr() {
    if (d_) (void)CUNP_VENDOR(cusparse, cusparseSpSV_destroyDescr)(d_);
  }
  SpSvDescr(const SpSvDescr&) = delete;
  SpSvDescr& operator=(const SpSvDescr&) = delete;
  operator cusparseSpSVDescr_t() const { return d_; }  // NOLINT(google-explicit-constructor)

 private:
  cusparseSpSVDescr_t d_ = nullptr;
};

}  // namespace

bool cusparse_dtype(DType dt) noexcept {
  return dt == DType::Float32 || dt == DType::Float64 || dt == DType::Complex64 ||
         dt == DType::Complex128;
}

Csr csr_to_csc_cusparse(const Csr& a) {
  const int device = a.device.index;
  cuda::DeviceScope scope(device);
  const DType dt = a.data.dtype();
  Csr out;
  out.shape = {a.shape.cols, a.shape.rows};
  out.index = DType::Int32;
  out.device = a.device;
  out.data = empty_on(a.nnz(), dt, a.device);
  out.indices = empty_on(a.nnz(), DType::Int32, a.device);
  out.indptr = empty_on(a.shape.cols + 1, DType::Int32, a.device);
  cusparseHandle_t h = handle(device);
  const int m = static_cast<int>(a.shape.rows), n = static_cast<int>(a.shape.cols),
            nnz = static_cast<int>(a.nnz());
  const auto* rp = static_cast<const int*>(a.indptr.data());
  const auto* ci = static_cast<const int*>(a.indices.data());
  auto* cp = static_cast<int*>(out.indptr.data());
  auto* ri = static_cast<int*>(out.indices.data());
  std::size_t bytes = 0;
  CUNP_CUSPARSE_CALL(cusparseCsr2cscEx2_bufferSize, h, m, n, nnz, a.data.data(), rp, ci,
                     out.data.data(), cp, ri, value_type(dt), CUSPARSE_ACTION_NUMERIC,
                     CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes);
  Workspace w(device, bytes);
  CUNP_CUSPARSE_CALL(cusparseCsr2cscEx2, h, m, n, nnz, a.data.data(), rp, ci, out.data.data(), cp,
                     ri, value_type(dt), CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                     CUSPARSE_CSR2CSC_ALG1, w.data());
  return out;
}

ndarray matvec_cusparse(const Csr& m, const ndarray& x, Operation op) {
  const int device = m.device.index;
  cuda::DeviceScope scope(device);
  const Csr a = narrow(m);
  const DType dt = a.data.dtype();
  const std::int64_t n_out = op == Operation::N ? a.shape.rows : a.shape.cols;
  ndarray y = zeros({n_out}, {.dtype = dt, .device = a.device});
  cusparseHandle_t h = handle(device);
  const SpMat sa(a);
  const DnVec sx(x), sy(y);
  const Scalars s(dt);
  std::size_t bytes = 0;
  CUNP_CUSPARSE_CALL(cusparseSpMV_bufferSize, h, operation(op), s.one, sa, sx, s.zero, sy,
                     value_type(dt), CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  Workspace w(device, bytes);
  CUNP_CUSPARSE_CALL(cusparseSpMV, h, operation(op), s.one, sa, sx, s.zero, sy, value_type(dt),
                     CUSPARSE_SPMV_ALG_DEFAULT, w.data());
  return y;
}

ndarray matmat_cusparse(const Csr& m, const ndarray& b, Operation op) {
  const int device = m.device.index;
  cuda::DeviceScope scope(device);
  const Csr a = narrow(m);
  const DType dt = a.data.dtype();
  const std::int64_t n_out = op == Operation::N ? a.shape.rows : a.shape.cols;
  const Order order = b.is_c_contiguous() ? Order::C : Order::F;
  ndarray c = zeros({n_out, b.shape()[1]}, {.dtype = dt, .order = order, .device = a.device});
  cusparseHandle_t h = handle(device);
  const SpMat sa(a);
  const DnMat sb(b), sc(c);
  const Scalars s(dt);
  std::size_t bytes = 0;
  CUNP_CUSPARSE_CALL(cusparseSpMM_bufferSize, h, operation(op), CUSPARSE_OPERATION_NON_TRANSPOSE,
                     s.one, sa, sb, s.zero, sc, value_type(dt), CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
  Workspace w(device, bytes);
  CUNP_CUSPARSE_CALL(cusparseSpMM, h, operation(op), CUSPARSE_OPERATION_NON_TRANSPOSE, s.one, sa,
                     sb, s.zero, sc, value_type(dt), CUSPARSE_SPMM_ALG_DEFAULT, w.data());
  return c;
}

Csr matmul_cusparse(const Csr& a, const Csr& b) {
  const int device = a.device.index;
  cuda::DeviceScope scope(device);
  const DType dt = a.data.dtype();
  const cudaDataType type = value_type(dt);
  const cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
  Csr out;
  out.shape = {a.shape.rows, b.shape.cols};
  out.index = DType::Int32;
  out.device = a.device;
  out.indptr = empty_on(out.shape.rows + 1, DType::Int32, a.device);
  cusparseHandle_t h = handle(device);
  const SpMat sa(a), sb(b);
  SpMat sc(out.shape.rows, out.shape.cols, out.indptr.data(), dt);
  const SpGemmDescr g;
  const Scalars s(dt);
  // cuSPARSE's SpGEMM protocol: work estimation, compute (each once for the buffer size,
  // once for real), then the result's nnz, its arrays, and the copy into them.
  std::size_t bytes1 = 0, bytes2 = 0;
  CUNP_CUSPARSE_CALL(cusparseSpGEMM_workEstimation, h, nt, nt, s.one, sa, sb, s.zero, sc, type,
                     CUSPARSE_SPGEMM_DEFAULT, g, &bytes1, nullptr);
  Workspace w1(device, bytes1);
  CUNP_CUSPARSE_CALL(cusparseSpGEMM_workEstimation, h, nt, nt, s.one, sa, sb, s.zero, sc, type,
                     CUSPARSE_SPGEMM_DEFAULT, g, &bytes1, w1.data());
  CUNP_CUSPARSE_CALL(cusparseSpGEMM_compute, h, nt, nt, s.one, sa, sb, s.zero, sc, type,
                     CUSPARSE_SPGEMM_DEFAULT, g, &bytes2, nullptr);
  Workspace w2(device, bytes2);
  CUNP_CUSPARSE_CALL(cusparseSpGEMM_compute, h, nt, nt, s.one, sa, sb, s.zero, sc, type,
                     CUSPARSE_SPGEMM_DEFAULT, g, &bytes2, w2.data());
  std::int64_t rows = 0, cols = 0, nnz = 0;
  CUNP_CUSPARSE_CALL(cusparseSpMatGetSize, sc, &rows, &cols, &nnz);
  // At least one element each, so that cuSPARSE never sees a null array.
  const ndarray data = empty_on(std::max<std::int64_t>(nnz, 1), dt, a.device);
  const ndarray indices = empty_on(std::max<std::int64_t>(nnz, 1), DType::Int32, a.device);
  CUNP_CUSPARSE_CALL(cusparseCsrSetPointers, sc, out.indptr.data(), indices.data(), data.data());
  CUNP_CUSPARSE_CALL(cusparseSpGEMM_copy, h, nt, nt, s.one, sa, sb, s.zero, sc, type,
                     CUSPARSE_SPGEMM_DEFAULT, g);
  out.data = data.view({slice(0, nnz)});
  out.indices = indices.view({slice(0, nnz)});
  return out;
}

ndarray spsolve_triangular_cusparse(const Csr& m, const ndarray& b, bool lower,
                                    bool unit_diagonal) {
  const int device = m.device.index;
  cuda::DeviceScope scope(device);
  const Csr a = narrow(m);
  const DType dt = a.data.dtype();
  const std::int64_t n = a.shape.rows;
  const std::int64_t k = b.ndim() == 2 ? b.shape()[1] : 1;
  // b arrives F-ordered: column j starts j * n elements in.
  ndarray x = empty(b.shape(), {.dtype = dt, .order = Order::F, .device = a.device});
  cusparseHandle_t h = handle(device);
  const SpMat sa(a);
  cusparseFillMode_t fill = lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t diag = unit_diagonal ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  CUNP_CUSPARSE_CALL(cusparseSpMatSetAttribute, sa, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill);
  CUNP_CUSPARSE_CALL(cusparseSpMatSetAttribute, sa, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag);
  auto* bs = static_cast<char*>(b.data());
  auto* xs = static_cast<char*>(x.data());
  const std::size_t column = static_cast<std::size_t>(n) * itemsize(dt);
  DnVec sb(n, bs, dt), sx(n, xs, dt);
  const SpSvDescr sv;
  const Scalars s(dt);
  const cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::size_t bytes = 0;
  CUNP_CUSPARSE_CALL(cusparseSpSV_bufferSize, h, nt, s.one, sa, sb, sx, value_type(dt),
                     CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes);
  Workspace w(device, bytes);
  CUNP_CUSPARSE_CALL(cusparseSpSV_analysis, h, nt, s.one, sa, sb, sx, value_type(dt),
                     CUSPARSE_SPSV_ALG_DEFAULT, sv, w.data());
  for (std::int64_t j = 0; j < k; ++j) {
    if (j > 0) {
      sb.set(bs + static_cast<std::size_t>(j) * column);
      sx.set(xs + static_cast<std::size_t>(j) * column);
    }
    CUNP_CUSPARSE_CALL(cusparseSpSV_solve, h, nt, s.one, sa, sb, sx, value_type(dt),
                       CUSPARSE_SPSV_ALG_DEFAULT, sv);
  }
  return x;
}

}  // namespace cunp::sparse::detail
