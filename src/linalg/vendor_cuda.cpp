// src/linalg/vendor_cuda.cpp — cuBLAS and cuSOLVER (the 64-bit generic "X" API where it
// exists) for CUDA devices.
//
// Note [Linear algebra handles]: a cuBLAS and a cuSOLVER handle per (device, thread),
// created on first use (so loading the library never needs a GPU), with the device's
// current stream set on the handle at every call. A thread's handles are destroyed when
// the thread exits; errors from a driver already shut down at process exit are ignored.
//
// Note [Linear algebra info]: each call writes LAPACK's info of every matrix of the
// batch into one device array, read back once at the end (one small synchronizing
// read per call), so singular and non-positive-definite inputs raise LinAlgError.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include "cuda/runtime.hpp"
#include "cunp/memory.hpp"
#include "linalg/vendor_cuda.hpp"

namespace cunp::linalg::detail {
namespace {

void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s), std::string(cublasGetStatusName(s)) + ": " + cublasGetStatusString(s));
}
void check_cusolver(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw CudaError(call, static_cast<int>(s), "cusolverStatus_t " + std::to_string(static_cast<int>(s)));
}
#define CUNP_CUBLAS_CHECK(expr) check_cublas((expr), #expr)
#define CUNP_CUSOLVER_CHECK(expr) check_cusolver((expr), #expr)

struct DeviceHandles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  cusolverDnParams_t params = nullptr;
};

struct ThreadHandles {
  std::unordered_map<int, DeviceHandles> by_device;
  ~ThreadHandles() {
    for (auto& [device, h] : by_device) {
      if (cudaSetDevice(device) != cudaSuccess) continue;
      if (h.params) (void)cusolverDnDestroyParams(h.params);
      if (h.solver) (void)cusolverDnDestroy(h.solver);
      if (h.blas) (void)cublasDestroy(h.blas);
    }
  }
};

DeviceHandles& handles(int device) {
  thread_local ThreadHandles t;
  return t.by_device[device];
}

// The calling thread's cuBLAS handle for the current device, bound to its current stream.
cublasHandle_t blas_handle(int device) {
  DeviceHandles& h = handles(device);
  if (!h.blas) {
    CUNP_CUBLAS_CHECK(cublasCreate(&h.blas));
    // Note [TF32]: float32 GEMMs are exact-float32 unless CUNP_ALLOW_TF32=1 (CuPy: CUPY_TF32).
    CUNP_CUBLAS_CHECK(cublasSetMathMode(h.blas, CUBLAS_DEFAULT_MATH));
  }
  CUNP_CUBLAS_CHECK(cublasSetStream(h.blas, cuda::current_stream_handle()));
  return h.blas;
}

cusolverDnHandle_t solver_handle(int device, cusolverDnParams_t* params = nullptr) {
  DeviceHandles& h = handles(device);
  if (!h.solver) {
    CUNP_CUSOLVER_CHECK(cusolverDnCreate(&h.solver));
    CUNP_CUSOLVER_CHECK(cusolverDnCreateParams(&h.params));
  }
  CUNP_CUSOLVER_CHECK(cusolverDnSetStream(h.solver, cuda::current_stream_handle()));
  if (params) *params = h.params;
  return h.solver;
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

}  // namespace

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
  CUNP_CUBLAS_CHECK(cublasGemmStridedBatchedEx_64(
      h, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.m, g.n, g.k, alpha, g.a, t,
      g.lda, g.stride_a, g.b, t, g.ldb, g.stride_b, beta, g.c, t, g.ldc, g.stride_c, g.batch, compute,
      CUBLAS_GEMM_DEFAULT));
}

std::vector<int> getrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* ipiv) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgetrf_bufferSize(h, params, n, n, t, a, lda, t, &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXgetrf(h, params, n, n, t, ptr(a, i, n * n, elem(dt)), lda,
                                         static_cast<std::int64_t*>(ipiv) + i * n, t, work.data(), dev_bytes,
                                         host.data(), host_bytes, info.at(i)));
  return info.read();
}

void getrs_cuda(int device, DType dt, std::int64_t n, std::int64_t nrhs, std::int64_t batch, const void* lu,
                const void* ipiv, void* b) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  InfoArray info(device, batch);  // only reports illegal arguments: not read
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXgetrs(h, params, CUBLAS_OP_N, n, nrhs, t, ptr(lu, i, n * n, elem(dt)), lda,
                                         static_cast<const std::int64_t*>(ipiv) + i * n, t,
                                         ptr(b, i, n * nrhs, elem(dt)), lda, info.at(i)));
}

std::vector<int> potrf_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, bool lower) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(h, params, uplo, n, t, a, lda, t, &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXpotrf(h, params, uplo, n, t, ptr(a, i, n * n, elem(dt)), lda, t, work.data(),
                                         dev_bytes, host.data(), host_bytes, info.at(i)));
  return info.read();
}

void geqrf_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a, void* tau) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(m, 1), k = std::min(m, n);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgeqrf_bufferSize(h, params, m, n, t, a, lda, t, tau, t, &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXgeqrf(h, params, m, n, t, ptr(a, i, m * n, elem(dt)), lda, t,
                                         ptr(tau, i, k, elem(dt)), t, work.data(), dev_bytes, host.data(),
                                         host_bytes, info.at(i)));
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
    case DType::Float32: return orgqr_typed<float>(device, m, ncols, k, batch, a, tau, cusolverDnSorgqr_bufferSize, cusolverDnSorgqr);
    case DType::Float64: return orgqr_typed<double>(device, m, ncols, k, batch, a, tau, cusolverDnDorgqr_bufferSize, cusolverDnDorgqr);
    case DType::Complex64: return orgqr_typed<cuComplex>(device, m, ncols, k, batch, a, tau, cusolverDnCungqr_bufferSize, cusolverDnCungqr);
    case DType::Complex128: return orgqr_typed<cuDoubleComplex>(device, m, ncols, k, batch, a, tau, cusolverDnZungqr_bufferSize, cusolverDnZungqr);
    default: throw TypeError("cuSOLVER has no orgqr for " + std::string(name(dt)));
  }
}

std::vector<int> gesvd_cuda(int device, DType dt, std::int64_t m, std::int64_t n, std::int64_t batch, void* a,
                            void* s, void* u, void* vt, char job) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt), rt = cuda_real_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(m, 1), ldvt = std::max<std::int64_t>(n, 1);
  const std::int64_t ucols = job == 'A' ? m : n, k = std::min(m, n);
  const signed char j = static_cast<signed char>(job);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgesvd_bufferSize(h, params, j, j, m, n, t, a, lda, rt, s, t, u, lda, t, vt, ldvt, t,
                                                  &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  const bool uv = job != 'N';
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXgesvd(
        h, params, j, j, m, n, t, ptr(a, i, m * n, elem(dt)), lda, rt, ptr(s, i, k, elem(real_dtype(dt))), t,
        uv ? ptr(u, i, m * ucols, elem(dt)) : nullptr, lda, t, uv ? ptr(vt, i, n * n, elem(dt)) : nullptr, ldvt, t,
        work.data(), dev_bytes, host.data(), host_bytes, info.at(i)));
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
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(
      cusolverDnXsyevd_bufferSize(h, params, jobz, uplo, n, t, a, lda, rt, w, t, &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXsyevd(h, params, jobz, uplo, n, t, ptr(a, i, n * n, elem(dt)), lda, rt,
                                         ptr(w, i, n, elem(real_dtype(dt))), t, work.data(), dev_bytes,
                                         host.data(), host_bytes, info.at(i)));
  return info.read();
}

std::vector<int> geev_cuda(int device, DType dt, std::int64_t n, std::int64_t batch, void* a, void* w, void* vr,
                           bool vectors) {
  cuda::DeviceScope scope(device);
  cusolverDnParams_t params;
  cusolverDnHandle_t h = solver_handle(device, &params);
  const cudaDataType t = cuda_type(dt);
  const std::int64_t lda = std::max<std::int64_t>(n, 1);
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  std::size_t dev_bytes = 0, host_bytes = 0;
  CUNP_CUSOLVER_CHECK(cusolverDnXgeev_bufferSize(h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, a, lda, t, w, t,
                                                 nullptr, 1, t, vr, lda, t, &dev_bytes, &host_bytes));
  Workspace work(device, dev_bytes);
  std::vector<char> host(host_bytes);
  InfoArray info(device, batch);
  for (std::int64_t i = 0; i < batch; ++i)
    CUNP_CUSOLVER_CHECK(cusolverDnXgeev(h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t,
                                        ptr(a, i, n * n, elem(dt)), lda, t, ptr(w, i, n, elem(dt)), t, nullptr, 1,
                                        t, vectors ? ptr(vr, i, n * n, elem(dt)) : nullptr, lda, t, work.data(),
                                        dev_bytes, host.data(), host_bytes, info.at(i)));
  return info.read();
}

}  // namespace cunp::linalg::detail
