// src/runtime/nccl.cpp — NCCL communicators and collectives (cunp/nccl.hpp).
#include "cunp/nccl.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>

#include "runtime/nccl_api.hpp"
#include "runtime/runtime.hpp"
#include "runtime/vendor_lib.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::cuda::nccl {
namespace {

// Every NCCL entry point but the version query needs a GPU: say so before loading the
// library or calling it (NCCL's own message for this is "unhandled cuda error").
void require_gpu(const char* call) {
  if (cuda_device_count() == 0) {
    throw CudaError(call, cudaErrorNoDevice, "NCCL needs a CUDA device, and CUDA is unavailable (" +
                                                 cuda_unavailable_reason() + ")");
  }
}

void check(ncclResult_t r, const char* call, ncclComm_t comm = nullptr) {
  if (r == ncclSuccess) return;
  std::string detail = CUNP_VENDOR(nccl, ncclGetErrorString)(r);
  try {  // ncclGetLastError came with NCCL 2.13
    const char* last = CUNP_VENDOR(nccl, ncclGetLastError)(comm);
    if (last && *last) detail += std::string(": ") + last;
  } catch (const CudaError&) {
  }
  throw NcclError(call, static_cast<int>(r), "NCCL error: " + detail);
}

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

// The NCCL type and element count for a reduction over `count` elements of `dt`.
std::pair<ncclDataType_t, std::size_t> reduction_type(const char* what, DType dt, std::size_t count, RedOp op) {
  switch (dt) {
    case DType::Int8: return {ncclInt8, count};
    case DType::UInt8: return {ncclUint8, count};
    case DType::Int32: return {ncclInt32, count};
    case DType::UInt32: return {ncclUint32, count};
    case DType::Int64: return {ncclInt64, count};
    case DType::UInt64: return {ncclUint64, count};
    case DType::Float16: return {ncclFloat16, count};
    case DType::Float32: return {ncclFloat32, count};
    case DType::Float64: return {ncclFloat64, count};
    case DType::Complex64:
    case DType::Complex128:
      // Sum and average act on real and imaginary parts apart; the others have no
      // complex meaning.
      if (op == RedOp::sum || op == RedOp::avg)
        return {dt == DType::Complex64 ? ncclFloat32 : ncclFloat64, 2 * count};
      break;
    default: break;
  }
  throw TypeError(std::string("nccl ") + what + ": NCCL cannot reduce dtype " + std::string(cunp::name(dt)) +
                  (kind(dt) == DTypeKind::Complex ? " with this op (complex arrays support sum and avg only)" : ""));
}

}  // namespace

struct Communicator::Impl {
  ncclComm_t comm = nullptr;
  int device = -1;
  ~Impl() {
    if (comm) CUNP_VENDOR(nccl, ncclCommDestroy)(comm);  // errors have no one to go to
  }
};

int get_version() {
  int v = 0;
  check(CUNP_VENDOR(nccl, ncclGetVersion)(&v), "ncclGetVersion");
  return v;
}

int get_build_version() {
#ifdef NCCL_VERSION_CODE
  return NCCL_VERSION_CODE;
#else
  return 0;
#endif
}

UniqueId get_unique_id() {
  require_gpu("ncclGetUniqueId");
  ncclUniqueId id;
  check(CUNP_VENDOR(nccl, ncclGetUniqueId)(&id), "ncclGetUniqueId");
  UniqueId out{};
  static_assert(sizeof(id.internal) == kUniqueIdBytes);
  std::memcpy(out.data(), id.internal, kUniqueIdBytes);
  return out;
}

void group_start() {
  require_gpu("ncclGroupStart");
  check(CUNP_VENDOR(nccl, ncclGroupStart)(), "ncclGroupStart");
}

void group_end() {
  require_gpu("ncclGroupEnd");
  check(CUNP_VENDOR(nccl, ncclGroupEnd)(), "ncclGroupEnd");
}

Communicator::Communicator(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

Communicator::Communicator(int ndev, const UniqueId& id, int rank) {
  if (ndev < 1) throw ValueError("NcclCommunicator: ndev must be at least 1, got " + std::to_string(ndev));
  if (rank < 0 || rank >= ndev)
    throw ValueError("NcclCommunicator: rank " + std::to_string(rank) + " is outside [0, " + std::to_string(ndev) +
                     ")");
  require_gpu("ncclCommInitRank");
  ncclUniqueId uid;
  std::memcpy(uid.internal, id.data(), kUniqueIdBytes);
  auto impl = std::make_shared<Impl>();
  impl->device = current_cuda_device();
  check(CUNP_VENDOR(nccl, ncclCommInitRank)(&impl->comm, ndev, uid, rank), "ncclCommInitRank");
  impl_ = std::move(impl);
}

std::vector<Communicator> Communicator::init_all(const std::vector<int>& devices) {
  if (devices.empty()) throw ValueError("NcclCommunicator.initAll: devices is empty");
  require_gpu("ncclCommInitAll");
  for (int d : devices) check_device(Device::cuda(d));
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  check(CUNP_VENDOR(nccl, ncclCommInitAll)(comms.data(), static_cast<int>(devices.size()), devices.data()),
        "ncclCommInitAll");
  std::vector<Communicator> out;
  out.reserve(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    auto impl = std::make_shared<Impl>();
    impl->comm = comms[i];
    impl->device = devices[i];
    out.push_back(Communicator(std::move(impl)));
  }
  return out;
}

void* Communicator::handle() const noexcept { return impl_ ? impl_->comm : nullptr; }

void* Communicator::live() const {
  if (!impl_ || !impl_->comm) throw ValueError("the NCCL communicator was destroyed");
  return impl_->comm;
}

int Communicator::device() const {
  live();
  return impl_->device;
}

int Communicator::rank() const {
  int r = -1;
  const auto comm = static_cast<ncclComm_t>(live());
  check(CUNP_VENDOR(nccl, ncclCommUserRank)(comm, &r), "ncclCommUserRank", comm);
  return r;
}

int Communicator::size() const {
  int n = 0;
  const auto comm = static_cast<ncclComm_t>(live());
  check(CUNP_VENDOR(nccl, ncclCommCount)(comm, &n), "ncclCommCount", comm);
  return n;
}

void Communicator::destroy() {
  if (!impl_ || !impl_->comm) return;
  const auto comm = impl_->comm;
  impl_->comm = nullptr;
  check(CUNP_VENDOR(nccl, ncclCommDestroy)(comm), "ncclCommDestroy");
}

void Communicator::abort() {
  if (!impl_ || !impl_->comm) return;
  const auto comm = impl_->comm;
  impl_->comm = nullptr;
  check(CUNP_VENDOR(nccl, ncclCommAbort)(comm), "ncclCommAbort");
}

void Communicator::check_async_error() const {
  const auto comm = static_cast<ncclComm_t>(live());
  ncclResult_t async = ncclSuccess;
  check(CUNP_VENDOR(nccl, ncclCommGetAsyncError)(comm, &async), "ncclCommGetAsyncError", comm);
  check(async, "ncclCommGetAsyncError", comm);
}

// ---- raw forms

#define CUNP_NCCL_COMM() const auto comm = static_cast<ncclComm_t>(live())

void Communicator::all_reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, RedOp op,
                              std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclAllReduce)(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                                         static_cast<ncclDataType_t>(dtype), static_cast<ncclRedOp_t>(op), comm,
                                         as_stream(stream)),
        "ncclAllReduce", comm);
}

void Communicator::broadcast(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, int root,
                             std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclBroadcast)(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                                         static_cast<ncclDataType_t>(dtype), root, comm, as_stream(stream)),
        "ncclBroadcast", comm);
}

void Communicator::bcast(std::uintptr_t buf, std::size_t count, DataType dtype, int root,
                         std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclBcast)(reinterpret_cast<void*>(buf), count, static_cast<ncclDataType_t>(dtype), root,
                                     comm, as_stream(stream)),
        "ncclBcast", comm);
}

void Communicator::reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype, RedOp op,
                          int root, std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclReduce)(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                                      static_cast<ncclDataType_t>(dtype), static_cast<ncclRedOp_t>(op), root, comm,
                                      as_stream(stream)),
        "ncclReduce", comm);
}

void Communicator::all_gather(std::uintptr_t send, std::uintptr_t recv, std::size_t count, DataType dtype,
                              std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclAllGather)(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                                         static_cast<ncclDataType_t>(dtype), comm, as_stream(stream)),
        "ncclAllGather", comm);
}

void Communicator::reduce_scatter(std::uintptr_t send, std::uintptr_t recv, std::size_t recv_count, DataType dtype,
                                  RedOp op, std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclReduceScatter)(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv),
                                             recv_count, static_cast<ncclDataType_t>(dtype),
                                             static_cast<ncclRedOp_t>(op), comm, as_stream(stream)),
        "ncclReduceScatter", comm);
}

void Communicator::send(std::uintptr_t buf, std::size_t count, DataType dtype, int peer,
                        std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclSend)(reinterpret_cast<const void*>(buf), count, static_cast<ncclDataType_t>(dtype),
                                    peer, comm, as_stream(stream)),
        "ncclSend", comm);
}

void Communicator::recv(std::uintptr_t buf, std::size_t count, DataType dtype, int peer,
                        std::uintptr_t stream) const {
  CUNP_NCCL_COMM();
  check(CUNP_VENDOR(nccl, ncclRecv)(reinterpret_cast<void*>(buf), count, static_cast<ncclDataType_t>(dtype), peer,
                                    comm, as_stream(stream)),
        "ncclRecv", comm);
}

#undef CUNP_NCCL_COMM

// ---- array forms

namespace {

std::uintptr_t ptr(const ndarray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); }

// Checks one array argument of a collective on `device`.
void check_array(const char* what, const char* arg, const ndarray& a, int device, bool written) {
  const std::string name = std::string("nccl ") + what + ": " + arg;
  if (!a.defined()) throw ValueError(name + " is an undefined array");
  if (a.device() != Device::cuda(device))
    throw ValueError(name + " is on " + a.device().str() + ", the communicator on " + Device::cuda(device).str());
  if (!a.is_c_contiguous()) throw ValueError(name + " must be C-contiguous");
  if (written && !a.writeable()) throw ValueError(name + " is read-only");
}

void check_pair(const char* what, const ndarray& send, const ndarray& recv, int device) {
  check_array(what, "sendbuf", send, device, false);
  check_array(what, "recvbuf", recv, device, true);
  if (send.dtype() != recv.dtype())
    throw TypeError(std::string("nccl ") + what + ": sendbuf and recvbuf differ in dtype (" +
                    std::string(cunp::name(send.dtype())) + " and " + std::string(cunp::name(recv.dtype())) + ")");
}

void check_sizes(const char* what, const char* rule, bool ok, const ndarray& send, const ndarray& recv) {
  if (!ok)
    throw ValueError(std::string("nccl ") + what + ": " + rule + " (sendbuf.size=" + std::to_string(send.size()) +
                     ", recvbuf.size=" + std::to_string(recv.size()) + ")");
}

// The current stream of `device`, as NCCL takes it.
std::uintptr_t stream_of(int device) {
  DeviceScope scope(device);
  return reinterpret_cast<std::uintptr_t>(current_stream_handle());
}

std::size_t count_of(const ndarray& a) { return static_cast<std::size_t>(a.size()); }
std::size_t bytes_of(const ndarray& a) { return static_cast<std::size_t>(a.nbytes()); }

}  // namespace

void Communicator::all_reduce(const ndarray& send, const ndarray& recv, RedOp op) const {
  const int dev = device();
  check_pair("all_reduce", send, recv, dev);
  check_sizes("all_reduce", "sendbuf and recvbuf must have one size", send.size() == recv.size(), send, recv);
  const auto [type, count] = reduction_type("all_reduce", send.dtype(), count_of(send), op);
  all_reduce(ptr(send), ptr(recv), count, static_cast<DataType>(type), op, stream_of(dev));
}

void Communicator::reduce(const ndarray& send, const ndarray& recv, RedOp op, int root) const {
  const int dev = device();
  check_pair("reduce", send, recv, dev);
  check_sizes("reduce", "sendbuf and recvbuf must have one size", send.size() == recv.size(), send, recv);
  const auto [type, count] = reduction_type("reduce", send.dtype(), count_of(send), op);
  reduce(ptr(send), ptr(recv), count, static_cast<DataType>(type), op, root, stream_of(dev));
}

void Communicator::reduce_scatter(const ndarray& send, const ndarray& recv, RedOp op) const {
  const int dev = device();
  check_pair("reduce_scatter", send, recv, dev);
  check_sizes("reduce_scatter", "sendbuf.size must be size() * recvbuf.size",
              send.size() == static_cast<std::int64_t>(size()) * recv.size(), send, recv);
  const auto [type, count] = reduction_type("reduce_scatter", recv.dtype(), count_of(recv), op);
  reduce_scatter(ptr(send), ptr(recv), count, static_cast<DataType>(type), op, stream_of(dev));
}

void Communicator::broadcast(const ndarray& send, const ndarray& recv, int root) const {
  const int dev = device();
  check_pair("broadcast", send, recv, dev);
  check_sizes("broadcast", "sendbuf and recvbuf must have one size", send.size() == recv.size(), send, recv);
  broadcast(ptr(send), ptr(recv), bytes_of(send), DataType::int8, root, stream_of(dev));
}

void Communicator::all_gather(const ndarray& send, const ndarray& recv) const {
  const int dev = device();
  check_pair("all_gather", send, recv, dev);
  check_sizes("all_gather", "recvbuf.size must be size() * sendbuf.size",
              recv.size() == static_cast<std::int64_t>(size()) * send.size(), send, recv);
  all_gather(ptr(send), ptr(recv), bytes_of(send), DataType::int8, stream_of(dev));
}

void Communicator::send(const ndarray& a, int peer) const {
  const int dev = device();
  check_array("send", "sendbuf", a, dev, false);
  send(ptr(a), bytes_of(a), DataType::int8, peer, stream_of(dev));
}

void Communicator::recv(const ndarray& a, int peer) const {
  const int dev = device();
  check_array("recv", "recvbuf", a, dev, true);
  recv(ptr(a), bytes_of(a), DataType::int8, peer, stream_of(dev));
}

}  // namespace cunp::cuda::nccl
