// cunp/interop.hpp — sharing memory with other libraries: DLPack tensors both ways,
// arrays over external memory (from_pointer), and stream ordering between producers
// and consumers. Python: ndarray.__dlpack__, cunp.from_dlpack, the CUDA Array
// Interface and cunp.cuda.UnownedMemory (docs/interop.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/stream.hpp"

namespace cunp {

// The DLPack ABI, version 1.0 (https://dmlc.github.io/dlpack/latest/): these structs
// have the C layout of dlpack.h, so pointers to them cross library boundaries as they
// are. The enumerators are those of 1.0; later minor versions only add more.
namespace dlpack {

inline constexpr std::uint32_t kMajorVersion = 1;
inline constexpr std::uint32_t kMinorVersion = 0;

// DLDeviceType (an int32 enum in C).
enum DLDeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // page-locked host memory (cudaMallocHost)
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,  // unified memory (cudaMallocManaged)
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
};

struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;
};

// DLDataTypeCode (stored in a uint8 of DLDataType).
enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  std::uint8_t code;  // a DLDataTypeCode
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};

// The pre-1.0 ("legacy") managed tensor: PyCapsule name "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

inline constexpr std::uint64_t kFlagReadOnly = 1ULL << 0;  // DLPACK_FLAG_BITMASK_READ_ONLY
inline constexpr std::uint64_t kFlagIsCopied = 1ULL << 1;  // DLPACK_FLAG_BITMASK_IS_COPIED
inline constexpr std::uint64_t kFlagIsSubbytePadded =
    1ULL << 2;  // DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED

// The 1.x managed tensor: PyCapsule name "dltensor_versioned". `version` comes first
// and `deleter` stays where it is in every major version, so a consumer that does not
// know the major version can still free the tensor.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace dlpack

// What the consumer of a DLPack export asked for (the keywords of ndarray.__dlpack__).
struct DLPackExportOptions {
  // The device the consumer wants the data on (dl_device); nullopt: the array's own.
  // Besides the array's device, only the cpu is possible, for a CUDA array (a copy to
  // the host); any other device throws BufferError.
  std::optional<Device> device;
  // true: always export a copy; false: never (BufferError when one would be needed);
  // nullopt: copy only when needed.
  std::optional<bool> copy;
  // The consumer's stream on the array's CUDA device: it is made to wait for the work
  // cunp has enqueued on the array (see order_streams). nullopt: the legacy default
  // stream. A stream with a cpu export throws ValueError.
  std::optional<Stream> stream;
  // false: the consumer orders the work itself (Python's stream=-1); nothing is synchronized.
  bool synchronize = true;
};

// Exports `a` as a DLPack 1.x tensor sharing its memory (or a copy, per `options`):
// version {1, 0}; flags READ_ONLY for a non-writeable array, IS_COPIED for a copy. The
// tensor keeps the memory alive until its deleter runs; call it exactly once.
// Strides are in elements: BufferError when a byte stride is not a multiple of the item
// size. NumPy: ndarray.__dlpack__(max_version=(1, 0)).
dlpack::DLManagedTensorVersioned* to_dlpack(const ndarray& a,
                                            const DLPackExportOptions& options = {});
// The same as a pre-1.0 DLManagedTensor, which cannot say "read-only": BufferError for
// a non-writeable array unless a copy is exported (NumPy's rule).
dlpack::DLManagedTensor* to_dlpack_legacy(const ndarray& a,
                                          const DLPackExportOptions& options = {});

// An array viewing a DLPack tensor's memory (no copy): shape, element strides (null:
// C-contiguous) and byte_offset as given; READ_ONLY makes it non-writeable. kDLCPU and
// kDLCUDAHost memory becomes a cpu array, kDLCUDA and kDLCUDAManaged memory an array on
// cuda:device_id. On success the array owns the tensor: its deleter runs when the last
// view goes (after the stream that was current at the import has finished, as for
// from_pointer). On failure (BufferError: an unknown major version, device type or
// dtype; ValueError: a null tensor) the tensor is left untouched, still the caller's.
ndarray from_dlpack(dlpack::DLManagedTensorVersioned* tensor);
ndarray from_dlpack(dlpack::DLManagedTensor* tensor);

// An array over memory cunp did not allocate: `data` is the address of element [0, ...]
// on `device` (host memory for cpu), `strides` are in bytes (nullopt: C-contiguous).
// `release` runs once when the last view goes (empty: the caller keeps the memory alive
// for the array's whole life). On a CUDA device it runs after the stream that was current
// when the array was made has finished its work, so the owner may reuse the memory at
// once (Note [Releasing external device memory]). ValueError for a null `data` with a
// non-empty shape, or a device that does not exist. CuPy: UnownedMemory + MemoryPointer.
ndarray from_pointer(void* data, DType dtype, const Shape& shape,
                     const std::optional<Strides>& strides, Device device,
                     std::function<void()> release = {});

// The device owning `ptr` (cudaPointerGetAttributes): cuda:N for device and managed
// memory, cpu for host memory (page-locked or not) and whenever CUDA is unavailable.
Device pointer_device(const void* ptr);

// Makes `consumer` wait for the work enqueued so far on `producer`: an event recorded on
// `producer`, then cudaStreamWaitEvent on `consumer`. Nothing when they are one stream.
// Both must be streams of the same device (ValueError otherwise).
void order_streams(const Stream& producer, const Stream& consumer);

}  // namespace cunp
