// cunp/nccl.hpp — NCCL collectives between CUDA devices (docs/multi-gpu.md).
//
// libnccl is loaded on the first call (Note [Lazy vendor libraries]); without it, or
// without a GPU, every function here throws CudaError (Python: CUDARuntimeError) saying
// why. A failing NCCL call throws NcclError, which carries NCCL's own message
// (ncclGetErrorString, and ncclGetLastError's detail when it has one).
//
// Shape as cupy.cuda.nccl: one Communicator per rank and device. The array forms take
// cunp arrays on the communicator's device and enqueue on that device's current stream;
// the raw forms take device pointers, an NCCL datatype and a stream, as CuPy's do.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cunp/error.hpp"

namespace cunp {
class ndarray;
}

namespace cunp::cuda::nccl {

// A failed NCCL call: `code()` is the ncclResult_t. Python: cunp.cuda.nccl.NcclError.
class NcclError : public CudaError {
 public:
  NcclError(const std::string& call, int code, const std::string& detail) : CudaError(call, code, detail) {}
};

// ncclDataType_t and ncclRedOp_t values (as NCCL_INT8 ... in Python).
enum class DataType : int {
  int8 = 0,
  uint8 = 1,
  int32 = 2,
  uint32 = 3,
  int64 = 4,
  uint64 = 5,
  float16 = 6,
  float32 = 7,
  float64 = 8,
  bfloat16 = 9,
};
enum class RedOp : int { sum = 0, prod = 1, max = 2, min = 3, avg = 4 };

inline constexpr std::size_t kUniqueIdBytes = 128;  // NCCL_UNIQUE_ID_BYTES
using UniqueId = std::array<char, kUniqueIdBytes>;

// The loaded library's version code (ncclGetVersion: 22803 for 2.28.3).
int get_version();
// The version of the nccl.h cunp was compiled with (0 when it was built without one).
int get_build_version();
// A new id for Communicator (ncclGetUniqueId): made by one rank, passed to all others.
UniqueId get_unique_id();
// Brackets calls on several communicators (one thread, several devices) or several
// send/recv pairs so that NCCL launches them together (ncclGroupStart/End).
void group_start();
void group_end();

class Communicator {
 public:
  // Rank `rank` of `ndev` on the current CUDA device (ncclCommInitRank); blocks until
  // all ranks joined. ValueError for ndev < 1 or rank outside [0, ndev).
  Communicator(int ndev, const UniqueId& id, int rank);
  // One communicator per device in `devices`, in this process (ncclCommInitAll).
  static std::vector<Communicator> init_all(const std::vector<int>& devices);

  int device() const;   // ncclCommCuDevice
  int rank() const;     // ncclCommUserRank
  int size() const;     // ncclCommCount
  void* handle() const noexcept;  // the ncclComm_t (null once destroyed)
  // Frees the communicator now (else the last copy does); later calls raise ValueError.
  void destroy();
  // Aborts outstanding operations and frees the communicator (ncclCommAbort).
  void abort();
  // Throws NcclError when an asynchronous error was reported (ncclCommGetAsyncError).
  void check_async_error() const;

  // ---- on cunp arrays, on the current stream of the communicator's device. `send` and
  // `recv` are C-contiguous, on that device, of one dtype; sizes as NCCL requires
  // (all_gather: recv.size == size() * send.size; reduce_scatter: send.size == size() *
  // recv.size). Reductions need a bool-free real dtype NCCL has (int8/uint8/int32/uint32/
  // int64/uint64/float16/float32/float64; complex with sum or avg); broadcast, all_gather,
  // send and recv move any dtype. ValueError/TypeError name the argument.
  void all_reduce(const ndarray& send, const ndarray& recv, RedOp op = RedOp::sum) const;
  void broadcast(const ndarray& send, const ndarray& recv, int root) const;
  void reduce(const ndarray& send, const ndarray& recv, RedOp op, int root) const;
  void all_gather(const ndarray& send, const ndarray& recv) const;
  void reduce_scatter(const ndarray& send, const ndarray& recv, RedOp op = RedOp::sum) const;
  void send(const ndarray& a, int peer) const;
  void recv(const ndarray& a, int peer) const;

  // ---- raw: device pointers, element counts, stream (a cudaStream_t; 0: legacy default).
  void all_reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, RedOp op,
                  std::uintptr_t stream) const;
  void broadcast(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, int root,
                 std::uintptr_t stream) const;
  void bcast(std::uintptr_t buf, std::size_t count, DataType dtype, int root, std::uintptr_t stream) const;
  void reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, RedOp op, int root,
              std::uintptr_t stream) const;
  void all_gather(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype,
                  std::uintptr_t stream) const;
  void reduce_scatter(std::uintptr_t send, std::uintptr_t recv, std::size_t recv_count, DataType dtype,
                      RedOp op, std::uintptr_t stream) const;
  void send(std::uintptr_t buf, std::size_t count, DataType dtype, int peer, std::uintptr_t stream) const;
  void recv(std::uintptr_t buf, std::size_t count, DataType dtype, int peer, std::uintptr_t stream) const;

  struct Impl;  // opaque

 private:
  explicit Communicator(std::shared_ptr<Impl> impl);
  void* live() const;  // the handle; ValueError once destroyed
  std::shared_ptr<Impl> impl_;
};

}  // namespace cunp::cuda::nccl
