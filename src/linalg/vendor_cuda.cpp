// src/linalg/vendor_cuda.cpp — cuBLAS and cuSOLVER (the 64-bit generic "X" API where it
// exists) for CUDA devices.
//
// Note [Linear algebra info]: each call writes LAPACK's info of every matrix of the
// batch into one device array, read back once at the end (one small synchronizing
// read per call), so singular and non-positive-definite inputs raise LinAlgError.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "runtime/vendor_handles.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/memory.hpp"
#include "cunp/stream.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg::detail {
namespace {

using cuda::check_cublas;
using cuda::check_cusolver;
// fn(args...) through the lazily loaded library (Note [Lazy vendor libraries]), checked.
#define CUNP_CUBLAS_CALL(fn, ...) check_cublas(CUNP_VENDOR(cublas, fn)(__VA_ARGS__), #fn)
#define CUNP_CUSOLVER_CALL(fn, ...) check_cusolver(CUNP_VENDOR(cusolver, fn)(__VA_ARGS__), #fn)

// Note [Linear algebra handles] (runtime/vendor_handles.cpp).
cublasHandle_t blas_handle(int device) { return cuda::cublas_handle(device); }
cusolverDnHandle_t solver_handle(int device, cusolverDnParams_t* params = nullptr) {
  return cuda::cusolver_dn_handle(device, params);
}

bool allow_tf32() {
  static const bool allowed = [] {
    const char* v = std::getenv("CUNP_ALLOW_TF32");
    return v && std::strcmp(v, "1") == 0;
  }();
  return allowed;
}

cudaDataType cuda_type(DType dt) {
  switch (dt) {
    case DType::Float16: return CUDA_R_16F;
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    case DType::Complex128: return CUDA_C_64F;
    default: throw TypeError("cuBLAS/cuSOLVER have no routine for " + std::string(name(dt)));
  }
}
cudaDataType cuda_real_type(DType dt) { return cuda_type(real_dtype(dt)); }

// Device scratch memory from the pool, ordered on the current stream.
struct Workspace {
  std::shared_ptr<Storage> storage;
  Workspace(int device, std::size_t nbytes) {
    if (nbytes) storage = allocate(Device::cuda(device), nbytes);
  }
  void* data() const { return storage ? storage->data() : nullptr; }
};

// The batch's info values on the device, read back once.
struct InfoArray {
  Workspace ws;
  std::int64_t batch;
  InfoArray(int device, std::int64_t batch)
      : ws(device, static_cast<std::size_t>(std::max<std::int64_t>(batch, 1)) * sizeof(int)), batch(batch) {
    CUNP_CUDA_CHECK(cudaMemsetAsync(ws.data(), 0, static_cast<std::size_t>(std::max<std::int64_t>(batch, 1)) * sizeof(int),
                                    cuda::current_stream_handle()));
  }
  int* at(std::int64_t i) const { return static_cast<int*>(ws.data()) + i; }
  std::vector<int> read() const {
    std::vector<int> host(static_cast<std::size_t>(batch));
    if (batch == 0) return host;
    cudaStream_t s = cuda::current_stream_handle();
    CUNP_CUDA_CHECK(cudaMemcpyAsync(host.data(), ws.data(), host.size() * sizeof(int), cudaMemcpyDeviceToHost, s));
    CUNP_CUDA_CHECK(cudaStreamSynchronize(s));
    return host;
  }
};

std::size_t elem(DType dt) { return itemsize(dt); }
char* ptr(void* p, std::int64_t i, std::int64_t stride, std::size_t size) {
  return static_cast<char*>(p) + static_cast<std::size_t>(i * stride) * size;
}
const char* ptr(const void* p, std::int64_t i, std::int64_t stride, std::size_t size) {
  return static_cast<const char*>(p) + static_cast<std::size_t>(i * stride) * size;
}

// The device array of the `batch` matrix pointers base + i * stride elements that the
// pointer-array batched routines take (copied from pageable memory: the copy has
// left the host vector when cudaMemcpyAsync returns).
Workspace pointer_array(int device, void* base, std::int64_t batch, std::int64_t stride, std::size_t size) {
  std::vector<void*> host(static_cast<std::size_t>(batch));
  for (std::int64_t i = 0; i < batch; ++i) host[static_cast<std::size_t>(i)] = ptr(base, i, stride, size);
  Workspace w(device, host.size() * sizeof(void*));
  CUNP_CUDA_CHECK(cudaMemcpyAsync(w.data(), host.data(), host.size() * sizeof(void*), cudaMemcpyHostToDevice,
                                  cuda::current_stream_handle()));
  return w;
}

// Calls f(float_tag) with a pointer of the cuBLAS/cuSOLVER element type of dt.
template <typename F>
decltype(auto) dispatch_blas(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32: return f(static_cast<float*>(nullptr));
    case DType::Float64: return f(static_cast<double*>(nullptr));
    case DType::Complex64: return f(static_cast<cuComplex*>(nullptr));
    case DType::Complex128: return f(static_cast<cuDoubleComplex*>(nullptr));
    default: throw TypeError("cuBLAS/cuSOLVER have no routine for " + std::string(name(dt)));
  }
}

// Overloads naming the batched routine of each element type (in vendor library `lib`).
#define CUNP_BATCHED4(fn, lib, s, d, c, z)                                                          \
  template <typename... A> auto fn(float*, A... args) { return CUNP_VENDOR(lib, s)(args...); }    \
  template <typename... A> auto fn(double*, A... args) { return CUNP_VENDOR(lib, d)(args...); }   \
  template <typename... A> auto fn(cuComplex*, A... args) { return CUNP_VENDOR(lib, c)(args...); } \
  template <typename... A> auto fn(cuDoubleComplex*, A... args) { return CUNP_VENDOR(lib, z)(args...); }
CUNP_BATCHED4(getrf_batched, cublas, cublasSgetrfBatched, cublasDgetrfBatched, cublasCgetrfBatched,
              cublasZgetrfBatched)
CUNP_BATCHED4(getrs_batched, cublas, cublasSgetrsBatched, cublasDgetrsBatched, cublasCgetrsBatched,
              cublasZgetrsBatched)
CUNP_BATCHED4(potrf_batched, cusolver, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched, cusolverDnCpotrfBatched,
              cusolverDnZpotrfBatched)
CUNP_BATCHED4(syevj_batched_size, cusolver, cusolverDnSsyevjBatched_bufferSize, cusolverDnDsyevjBatched_bufferSize,
              cusolverDnCheevjBatched_bufferSize, cusolverDnZheevjBatched_bufferSize)
CUNP_BATCHED4(syevj_batched, cusolver, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched, cusolverDnCheevjBatched,
              cusolverDnZheevjBatched)
#undef CUNP_BATCHED4

template <typename T> struct real_of { using type = T; };
template <> struct real_of<cuComplex> { using type = float; };
template <> struct real_of<cuDoubleComplex> { using type = double; };

// syevjBatched (Jacobi, eigenvalues sorted ascending by default) takes matrices up to
// 32 x 32; larger ones, one Xsyevd each.
constexpr std::int64_t kSyevjBatchedMaxN = 32;

// Batches of matrices up to this size factor in one batched call (cuBLAS's batched LU
// and cuSOLVER's batched Cholesky are built for small matrices; past this, one
// 64-bit-API call per matrix keeps the large-matrix kernels).
constexpr std::int64_t kBatchedMaxN = 64;
constexpr std::int64_t kMaxBatchedCount = 0x7fffffff;

}  // namespace

bool lu_batched_cuda(std::int64_t n, std::int64_t batch) {
  return batch > 1 && n > 0 && n <= kBatchedMaxN && batch <= kMaxBatchedCount;
}

void gemm_cuda(int device, const GemmArgs& g) {
  cuda::DeviceScope scope(device);
  cublasHandle_t h = blas_handle(device);
  const cudaDataType t = cuda_type(g.dtype);
  const bool is_double = g.dtype == DType::Float64 || g.dtype == DType::Complex128;
  cublasComputeType_t compute = is_double ? CUBLAS_COMPUTE_64F
                                : (allow_tf32() && g.dtype != DType::Float16) ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                               : CUBLAS_COMPUTE_32F;
  // alpha/beta have the compute type's scalar type: float (also for float16 data),
  // double, or their complex forms.
  const float f1[2] = {1.0f, 0.0f}, f0[2] = {0.0f, 0.0f};
  const double d1[2] = {1.0, 0.0}, d0[2] = {0.0, 0.0};
  const void* alpha = is_double ? static_cast<const void*>(d1) : static_cast<const void*>(f1);
  const void* beta = is_double ? static_cast<const void*>(d0) : static_cast<const void*>(f0);
  const cublasOperation_t op_a = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, op_b = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  constexpr std::int64_t kInt = INT32_MAX;
  if (g.batch == 1 && g.m <= kInt && g.n <= kInt && g.k <= kInt && g.lda <= kInt && g.ldb <= kInt && g.ldc <= kInt) {
    // One matrix (every 2-D product): the plain 32-bit GEMM entry point.
    // cublas_api.h overloads cublasGemmEx in C++ (a cudaDataType compute type): the exported one.
    using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                      const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                      const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
    check_cublas(CUNP_VENDOR_AS(cublas, cublasGemmEx, GemmEx)(
                     h, op_a, op_b, static_cast<int>(g.m), static_cast<int>(g.n), static_cast<int>(g.k), alpha, g.a,
                     t, static_cast<int>(g.lda), g.b, t, static_cast<int>(g.ldb), beta, g.c, t,
                     static_cast<int>(g.ldc), compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
    return;
  }
  CUNP_CUBLAS_CALL(cublasGemmStridedBatchedEx_64,
      h, op_a, op_b, g.m, g.n, g.k, alpha, g.a, t,
      g.lda, g.stride_a, g.b, t, g.ldb, g.stride_b, beta, g.c, t, g.ldc, g.stride_c, g.batch, compute,
      CUBLAS_GEMM_DEFAULT);
}

std::vector<int> getrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* ipiv) {
  cuda::DeviceScope scope(device);
  if (lu_batched_cuda(n, batch)) {
    cublasHandle_t h = blas_handle(device);
    const Workspace ptrs = pointer_array(device, a, batch, n * n, elem(dt));
    InfoArray info(device, batch);
    dispatch_blas(dt, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      check_cublas(getrf_batched(tag, h, static_cast<int>(n), static_cast<T* const*>(ptrs.data()),
                                 static_cast<int>(n), static_cast<int*>(ipiv), info.at(0), static_cast<int>(batch)),
                   "cublas?getrfBatched");
    });
    return info.read();
  }
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXgetrf_bufferSize, h, params, n, n, t, a, lda, t, &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXgetrf, h, params, n, n, t, ptr(a, i, n * n, elem(dt)), lda,
                                         static_cast<std::int64_t*>(ipiv) + i * n, t, work.data(), dev_bytes,
                                         host.data(), host_bytes, info.at(i));
  return info.read();
}

void getrs_cuda(int device, DType dt, std::int64_t n, std::int64_t nrhs, std::int64_t batch, const void* lu,
                const void* ipiv, void* b) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  if (lu_batched_cuda(n, batch)) {
    if (nrhs == 0) return;
    cublasHandle_t blas = blas_handle(device);
    const Workspace lus = pointer_array(device, const_cast<void*>(lu), batch, n * n, elem(dt));
    const Workspace bs = pointer_array(device, b, batch, n * nrhs, elem(dt));
    int host_info = 0;  // reports illegal arguments only
    dispatch_blas(dt, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      check_cublas(getrs_batched(tag, blas, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(nrhs),
                                 static_cast<const T* const*>(lus.data()), static_cast<int>(n),
                                 static_cast<const int*>(ipiv), static_cast<T* const*>(bs.data()),
                                 static_cast<int>(n), &host_info, static_cast<int>(batch)),
                   "cublas?getrsBatched");
    });
    if (host_info != 0)
      throw ValueError("cublas?getrsBatched reported an illegal argument (" + std::to_string(-host_info) + ")");
    return;
  }
  InfoArray info(device, batch);  // only reports illegal arguments: not read
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXgetrs, h, params, CUBLAS_OP_N, n, nrhs, t, ptr(lu, i, n * n, elem(dt)), lda,
                                         static_cast<const std::int64_t*>(ipiv) + i * n, t,
                                         ptr(b, i, n * nrhs, elem(dt)), lda, info.at(i));
}

std::vector<int> potrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, bool lower) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  if (lu_batched_cuda(n, batch)) {  // the same small-batch rule
    const Workspace ptrs = pointer_array(device, a, batch, n * n, elem(dt));
    InfoArray info(device, batch);
    dispatch_blas(dt, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      check_cusolver(potrf_batched(tag, h, uplo, static_cast<int>(n), static_cast<T**>(ptrs.data()),
                                   static_cast<int>(n), info.at(0), static_cast<int>(batch)),
                     "cusolverDn?potrfBatched");
    });
    return info.read();
  }
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXpotrf_bufferSize, h, params, uplo, n, t, a, lda, t, &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXpotrf, h, params, uplo, n, t, ptr(a, i, n * n, elem(dt)), lda, t, work.data(),
                                         dev_bytes, host.data(), host_bytes, info.at(i));
  return info.read();
}

void geqrf_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a, void* tau) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(m, 1), k = std::min(m, n);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXgeqrf_bufferSize, h, params, m, n, t, a, lda, t, tau, t, &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXgeqrf, h, params, m, n, t, ptr(a, i, m * n, elem(dt)), lda, t,
                                         ptr(tau, i, k, elem(dt)), t, work.data(), dev_bytes, host.data(),
                                         host_bytes, info.at(i));
}

namespace {
template <typename T, typename BufferSize, typename Orgqr>
void orgqr_typed(int device, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch, void* a,
                 const void* tau, BufferSize buffer_size, Orgqr orgqr) {
  cusolverDnHandle_t h = solver_handle(device);
  const int M = static_cast<int>(m), N = static_cast<int>(ncols), K = static_cast<int>(k);
  const int lda = std::max(M, 1);
  int lwork = 0;
  check_cusolver(buffer_size(h, M, N, K, static_cast<T*>(a), lda, static_cast<const T*>(tau), &lwork),
                 "cusolverDn?orgqr_bufferSize");
  Workspace work(device, static_cast<std::size_t>(lwork) * sizeof(T));
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    check_cusolver(orgqr(h, M, N, K, static_cast<T*>(a) + i * m * ncols, lda, static_cast<const T*>(tau) + i * k,
                         static_cast<T*>(work.data()), lwork, info.at(i)),
                   "cusolverDn?orgqr");
}
}  // namespace

void orgqr_cuda(int device, DType dt, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch,
                void* a, const void* tau) {
  cuda::DeviceScope scope(device);
  if (m > INT32_MAX || ncols > INT32_MAX) throw ValueError("cusolverDn?orgqr takes 32-bit sizes");
  switch (dt) {
    case DType::Float32:
      return orgqr_typed<float>(device, m, ncols, k, batch, a, tau, CUNP_VENDOR(cusolver, cusolverDnSorgqr_bufferSize),
                                CUNP_VENDOR(cusolver, cusolverDnSorgqr));
    case DType::Float64:
      return orgqr_typed<double>(device, m, ncols, k, batch, a, tau, CUNP_VENDOR(cusolver, cusolverDnDorgqr_bufferSize),
                                 CUNP_VENDOR(cusolver, cusolverDnDorgqr));
    case DType::Complex64:
      return orgqr_typed<cuComplex>(device, m, ncols, k, batch, a, tau,
                                    CUNP_VENDOR(cusolver, cusolverDnCungqr_bufferSize),
                                    CUNP_VENDOR(cusolver, cusolverDnCungqr));
    case DType::Complex128:
      return orgqr_typed<cuDoubleComplex>(device, m, ncols, k, batch, a, tau,
                                          CUNP_VENDOR(cusolver, cusolverDnZungqr_bufferSize),
                                          CUNP_VENDOR(cusolver, cusolverDnZungqr));
    default: throw TypeError("cuSOLVER has no orgqr for " + std::string(name(dt)));
  }
}

double& gesvdp_error_estimate() {
  thread_local double last = 0.0;
  return last;
}

namespace {

// cusolverDn<t>gesvdj (Jacobi, 32-bit sizes): V, not V^H, goes to vt. Stacks of
// matrices up to 32 x 32 whose U is square (job 'A' or 'N', or m == n) run in one
// cusolverDn<t>gesvdjBatched call (its batch layout is vendor.hpp's).
constexpr std::int64_t kGesvdjBatchedMax = 32;

template <typename T, typename Fns>
std::vector<int> gesvdj_typed(int device, std::int64_t m, std::int64_t n, std::int64_t batch, void* a, void* s,
                              void* u, void* vt, char job, Fns fns) {
  using R = typename real_of<T>::type;
  if (m > INT32_MAX || n > INT32_MAX) throw ValueError("cusolverDn?gesvdj takes 32-bit sizes");
  cusolverDnHandle_t h = solver_handle(device);
  gesvdjInfo_t jparams = nullptr;
  CUNP_CUSOLVER_CALL(cusolverDnCreateGesvdjInfo, &jparams);
  const std::unique_ptr<gesvdjInfo, cusolverStatus_t (*)(gesvdjInfo_t)> guard(
      jparams, CUNP_VENDOR(cusolver, cusolverDnDestroyGesvdjInfo));
  CUNP_CUSOLVER_CALL(cusolverDnXgesvdjSetSortEig, jparams, 1);  // descending, as LAPACK (the batched default too)
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = std::min(M, N);
  const bool uv = job != 'N';
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = job == 'A' ? 0 : 1, ucols = job == 'A' ? M : N;
  const bool batched = batch > 1 && batch <= kMaxBatchedCount && m <= kGesvdjBatchedMax && (job != 'S' || m == n);
  // Note [SVD drivers]: gesvdj and gesvdp write to U and V even without vectors
  // (an illegal address on the H200 with null pointers): they get scratch then.
  const std::int64_t scratch_mats = batched ? batch : 1;
  const std::int64_t scratch_elems = scratch_mats * (m * (batched ? m : n) + n * n);
  Workspace scratch(device, uv ? 0 : static_cast<std::size_t>(scratch_elems) * sizeof(T));
  T* A = static_cast<T*>(a);
  R* S = static_cast<R*>(s);
  T* U = uv ? static_cast<T*>(u) : static_cast<T*>(scratch.data());
  T* V = uv ? static_cast<T*>(vt) : U + scratch_mats * m * (batched ? m : n);
  const std::int64_t ustep = uv ? m * ucols : 0, vstep = uv ? n * n : 0;
  int lwork = 0;
  InfoArray info(device, batch);
  if (batched) {
    const int B = static_cast<int>(batch);
    check_cusolver(fns.batched_size(h, jobz, M, N, A, M, S, U, M, V, N, &lwork, jparams, B),
                   "cusolverDn?gesvdjBatched_bufferSize");
    Workspace work(device, static_cast<std::size_t>(lwork) * sizeof(T));
    check_cusolver(fns.batched(h, jobz, M, N, A, M, S, U, M, V, N, static_cast<T*>(work.data()), lwork, info.at(0),
                               jparams, B),
                   "cusolverDn?gesvdjBatched");
    return info.read();
  }
  check_cusolver(fns.size(h, jobz, econ, M, N, A, M, S, U, M, V, N, &lwork, jparams), "cusolverDn?gesvdj_bufferSize");
  Workspace work(device, static_cast<std::size_t>(lwork) * sizeof(T));
  for (std::int64_t i = 0; i < batch; ++i)
    check_cusolver(fns.one(h, jobz, econ, M, N, A + i * m * n, M, S + i * K, U + i * ustep, M, V + i * vstep, N,
                           static_cast<T*>(work.data()), lwork, info.at(i), jparams),
                   "cusolverDn?gesvdj");
  return info.read();
}

template <typename Size, typename One, typename BatchedSize, typename Batched>
struct GesvdjFns {
  Size size;
  One one;
  BatchedSize batched_size;
  Batched batched;
};
template <typename... F>
GesvdjFns<F...> gesvdj_fns(F... f) {
  return {f...};
}

std::vector<int> gesvdj_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                             void* s, void* u, void* vt, char job) {
  switch (dt) {
    case DType::Float32:
      return gesvdj_typed<float>(device, m, n, batch, a, s, u, vt, job,
                                 gesvdj_fns(CUNP_VENDOR(cusolver, cusolverDnSgesvdj_bufferSize),
                                            CUNP_VENDOR(cusolver, cusolverDnSgesvdj),
                                            CUNP_VENDOR(cusolver, cusolverDnSgesvdjBatched_bufferSize),
                                            CUNP_VENDOR(cusolver, cusolverDnSgesvdjBatched)));
    case DType::Float64:
      return gesvdj_typed<double>(device, m, n, batch, a, s, u, vt, job,
                                  gesvdj_fns(CUNP_VENDOR(cusolver, cusolverDnDgesvdj_bufferSize),
                                             CUNP_VENDOR(cusolver, cusolverDnDgesvdj),
                                             CUNP_VENDOR(cusolver, cusolverDnDgesvdjBatched_bufferSize),
                                             CUNP_VENDOR(cusolver, cusolverDnDgesvdjBatched)));
    case DType::Complex64:
      return gesvdj_typed<cuComplex>(device, m, n, batch, a, s, u, vt, job,
                                     gesvdj_fns(CUNP_VENDOR(cusolver, cusolverDnCgesvdj_bufferSize),
                                                CUNP_VENDOR(cusolver, cusolverDnCgesvdj),
                                                CUNP_VENDOR(cusolver, cusolverDnCgesvdjBatched_bufferSize),
                                                CUNP_VENDOR(cusolver, cusolverDnCgesvdjBatched)));
    case DType::Complex128:
      return gesvdj_typed<cuDoubleComplex>(device, m, n, batch, a, s, u, vt, job,
                                           gesvdj_fns(CUNP_VENDOR(cusolver, cusolverDnZgesvdj_bufferSize),
                                                      CUNP_VENDOR(cusolver, cusolverDnZgesvdj),
                                                      CUNP_VENDOR(cusolver, cusolverDnZgesvdjBatched_bufferSize),
                                                      CUNP_VENDOR(cusolver, cusolverDnZgesvdjBatched)));
    default: throw TypeError("cuSOLVER has no gesvdj for " + std::string(name(dt)));
  }
}

// cusolverDnXgesvdp (polar decomposition, then an eigensolver): V, not V^H, goes to
// vt; the largest h_err_sigma of the batch is kept for svd_error_estimate.
std::vector<int> gesvdp_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                             void* s, void* u, void* vt, char job) {
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt), rt = cuda_real_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(m, 1), ldv = std::max<std::int64_t>(n, 1);
  const std::int64_t ucols = job == 'A' ? m : n, k = std::min(m, n);
  const bool uv = job != 'N';
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = job == 'A' ? 0 : 1;
  // Without vectors U and V still get memory (Note [SVD drivers]): one m x n and one n x n.
  Workspace scratch(device, uv ? 0 : static_cast<std::size_t>(m * n + n * n) * elem(dt));
  void* const su = uv ? u : scratch.data();
  void* const sv = uv ? vt : static_cast<char*>(scratch.data()) + m * n * elem(dt);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXgesvdp_bufferSize, h, params, jobz, econ, m, n, t, a, lda, rt, s, t, su, lda, t, sv,
                                                   ldv, t, &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  double worst = 0.0;
  for (std::int64_t i = 0; i < batch; ++i) {
    double err = 0.0;
    CUNP_CUSOLVER_CALL(cusolverDnXgesvdp,
        h, params, jobz, econ, m, n, t, ptr(a, i, m * n, elem(dt)), lda, rt, ptr(s, i, k, elem(real_dtype(dt))), t,
        uv ? ptr(u, i, m * ucols, elem(dt)) : su, lda, t, uv ? ptr(vt, i, n * n, elem(dt)) : sv, ldv, t,
        work.data(), dev_bytes, host.data(), host_bytes, info.at(i), &err);
    worst = std::max(worst, err);
  }
  gesvdp_error_estimate() = worst;
  return info.read();
}

}  // namespace

std::vector<int> gesvd_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                            void* s, void* u, void* vt, char job, SvdDriver driver) {
  cuda::DeviceScope scope(device);
  if (driver == SvdDriver::Gesvdj) return gesvdj_cuda(device, dt, m, n, batch, a, s, u, vt, job);
  if (driver == SvdDriver::Gesvdp) return gesvdp_cuda(device, dt, m, n, batch, a, s, u, vt, job);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt), rt = cuda_real_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(m, 1), ldvt = std::max<std::int64_t>(n, 1);
  const std::int64_t ucols = job == 'A' ? m : n, k = std::min(m, n);
  const signed char j = static_cast<signed char>(job);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXgesvd_bufferSize, h, params, j, j, m, n, t, a, lda, rt, s, t, u, lda, t, vt, ldvt, t,
                                                  &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  const bool uv = job != 'N';
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXgesvd,
        h, params, j, j, m, n, t, ptr(a, i, m * n, elem(dt)), lda, rt, ptr(s, i, k, elem(real_dtype(dt))), t,
        uv ? ptr(u, i, m * ucols, elem(dt)) : nullptr, lda, t, uv ? ptr(vt, i, n * n, elem(dt)) : nullptr, ldvt, t,
        work.data(), dev_bytes, host.data(), host_bytes, info.at(i));
  return info.read();
}

std::vector<int> syevd_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w,
                            bool vectors, bool lower) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt), rt = cuda_real_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  if (batch > 1 && n > 0 && n <= kSyevjBatchedMaxN && batch <= kMaxBatchedCount) {
    syevjInfo_t jparams = nullptr;
    CUNP_CUSOLVER_CALL(cusolverDnCreateSyevjInfo, &jparams);
    const std::unique_ptr<syevjInfo, cusolverStatus_t (*)(syevjInfo_t)> jguard(
        jparams, CUNP_VENDOR(cusolver, cusolverDnDestroySyevjInfo));
    InfoArray info(device, batch);
    dispatch_blas(dt, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      using R = typename real_of<T>::type;
      const int N = static_cast<int>(n), B = static_cast<int>(batch);
      int lwork = 0;
      check_cusolver(syevj_batched_size(tag, h, jobz, uplo, N, static_cast<T*>(a), N, static_cast<R*>(w), &lwork,
                                        jparams, B),
                     "cusolverDn?syevjBatched_bufferSize");
      Workspace work(device, static_cast<std::size_t>(lwork) * sizeof(T));
      check_cusolver(syevj_batched(tag, h, jobz, uplo, N, static_cast<T*>(a), N, static_cast<R*>(w),
                                   static_cast<T*>(work.data()), lwork, info.at(0), jparams, B),
                     "cusolverDn?syevjBatched");
    });
    return info.read();
  }
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXsyevd_bufferSize, h, params, jobz, uplo, n, t, a, lda, rt, w, t, &dev_bytes,
                     &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXsyevd, h, params, jobz, uplo, n, t, ptr(a, i, n * n, elem(dt)), lda, rt,
                                         ptr(w, i, n, elem(real_dtype(dt))), t, work.data(), dev_bytes,
                                         host.data(), host_bytes, info.at(i));
  return info.read();
}

// cusolverDnXgeev arrived with CUDA 12.6 (cuSOLVER 11.7); older toolkits build without eig.
#if defined(CUSOLVER_VERSION) && CUSOLVER_VERSION >= 11700
std::vector<int> geev_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w, void* vr,
                           bool vectors) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  // Real matrices use cuSOLVER's all-real form (vendor.hpp): W is 2n reals, the real
  // parts then the imaginary ones, computed in real arithmetic as LAPACK's ?geev.
  const std::int64_t wstep = is_complex(dt) ? n : 2 * n;
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CALL(cusolverDnXgeev_bufferSize, h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, a, lda, t, w, t,
                                                 nullptr, 1, t, vr, lda, t, &dev_bytes, &host_bytes);
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CALL(cusolverDnXgeev, h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t,
                                        ptr(a, i, n * n, elem(dt)), lda, t, ptr(w, i, wstep, elem(dt)), t, nullptr, 1,
                                        t, vectors ? ptr(vr, i, n * n, elem(dt)) : nullptr, lda, t, work.data(),
                                        dev_bytes, host.data(), host_bytes, info.at(i));
  return info.read();
}

#else
std::vector<int> geev_cuda(int, DType, std::int64_t, std::int64_t, void*, void*, void*, bool) {
  throw NotImplementedError("eig/eigvals on CUDA devices need cusolverDnXgeev (CUDA 12.6 or newer)");
}
#endif

}  // namespace cunp::linalg::detail
