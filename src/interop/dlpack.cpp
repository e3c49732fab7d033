// src/interop/dlpack.cpp — DLPack tensors from cunp arrays (to_dlpack) and cunp arrays
// over DLPack tensors (from_dlpack), in both the 1.x and the legacy layout.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cunp/error.hpp"
#include "cunp/interop.hpp"

namespace cunp {
namespace {

using namespace dlpack;

// The C layout of dlpack.h on LP64 platforms; a mismatch here would corrupt every
// tensor exchanged with another library.
static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(sizeof(DLTensor) == 48 && offsetof(DLTensor, device) == 8 &&
              offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
              offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
              offsetof(DLTensor, byte_offset) == 40);
static_assert(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, deleter) == 56);
static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
              offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

DLDataType to_dl_dtype(DType dt) {
  DLDataType t{};
  t.bits = static_cast<std::uint8_t>(itemsize(dt) * 8);
  t.lanes = 1;
  switch (kind(dt)) {
    case DTypeKind::Bool:
      t.code = kDLBool;
      break;
    case DTypeKind::SignedInt:
      t.code = kDLInt;
      break;
    case DTypeKind::UnsignedInt:
      t.code = kDLUInt;
      break;
    case DTypeKind::Float:
      t.code = kDLFloat;
      break;
    case DTypeKind::Complex:
      t.code = kDLComplex;
      break;
  }
  return t;
}

const char* code_name(std::uint8_t code) {
  switch (code) {
    case kDLInt:
      return "kDLInt";
    case kDLUInt:
      return "kDLUInt";
    case kDLFloat:
      return "kDLFloat";
    case kDLOpaqueHandle:
      return "kDLOpaqueHandle";
    case kDLBfloat:
      return "kDLBfloat";
    case kDLComplex:
      return "kDLComplex";
    case kDLBool:
      return "kDLBool";
    default:
      return "unknown";
  }
}

DType from_dl_dtype(DLDataType t) {
  if (t.lanes == 1) {
    switch (t.code) {
      case kDLBool:
        if (t.bits == 8) return DType::Bool;
        break;
      case kDLInt:
        if (t.bits == 8) return DType::Int8;
        if (t.bits == 16) return DType::Int16;
        if (t.bits == 32) return DType::Int32;
        if (t.bits == 64) return DType::Int64;
        break;
      case kDLUInt:
        if (t.bits == 8) return DType::UInt8;
        if (t.bits == 16) return DType::UInt16;
        if (t.bits == 32) return DType::UInt32;
        if (t.bits == 64) return DType::UInt64;
        break;
      case kDLFloat:
        if (t.bits == 16) return DType::Float16;
        if (t.bits == 32) return DType::Float32;
        if (t.bits == 64) return DType::Float64;
        break;
      case kDLComplex:
        if (t.bits == 64) return DType::Complex64;
        if (t.bits == 128) return DType::Complex128;
        break;
      default:
        break;
    }
  }
  throw BufferError(
      "unsupported DLPack dtype: code " + std::to_string(t.code) + " (" + code_name(t.code) +
      "), " + std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) +
      " lanes (cunp reads one-lane bool, int, uint, float16/32/64 and complex64/128)");
}

DLDevice to_dl_device(Device d) {
  if (d.is_cpu()) return {kDLCPU, 0};
  return {kDLCUDA, d.index};
}

Device from_dl_device(DLDevice d) {
  switch (d.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
      return Device::cpu();
    case kDLCUDA:
    case kDLCUDAManaged: {
      const int n = cuda_device_count();
      if (d.device_id < 0 || d.device_id >= n) {
        throw BufferError("the DLPack tensor is on CUDA device " + std::to_string(d.device_id) +
                          ", but " +
                          (n == 0 ? "CUDA is unavailable (" + cuda_unavailable_reason() + ")"
                                  : "there are " + std::to_string(n) + " CUDA devices"));
      }
      return Device::cuda(d.device_id);
    }
    default:
      throw BufferError("unsupported DLPack device type " +
                        std::to_string(static_cast<int>(d.device_type)) +
                        " (cunp reads kDLCPU, kDLCUDA, kDLCUDAHost and kDLCUDAManaged)");
  }
}

// What an exported tensor owns: the array (so its storage outlives the consumer's use)
// and the shape and strides the DLTensor points into.
template <typename Managed>
struct Exported {
  Managed managed{};
  ndarray array;
  // A second owner of the buffer while it is exported: its use count tells that someone
  // outside may read it (Note [Temporary elision], python/src/ufunc_py.cpp).
  std::shared_ptr<Storage> storage;
  std::vector<std::int64_t>
      dims;  // shape, then element strides; never empty, so data() is not null
};

template <typename Managed>
void delete_exported(Managed* self) {
  delete static_cast<Exported<Managed>*>(self->manager_ctx);
}

// The array to export, as `options` ask: a, a copy of it, or its copy on the host.
struct Export {
  ndarray array;
  bool copied = false;
};

Export choose_export(const ndarray& a, const DLPackExportOptions& options) {
  if (!a.defined()) throw ValueError("__dlpack__: the array is undefined");
  const Device target = options.device.value_or(a.device());
  if (target.is_cpu() && options.stream) {
    throw ValueError(
        "__dlpack__: stream must be None for an export to the cpu (the cpu device has no streams)");
  }
  if (target != a.device()) {
    if (!(a.device().is_cuda() && target.is_cpu())) {
      throw BufferError("__dlpack__: unsupported device requested: dl_device " + target.str() +
                        " for an array on " + a.device().str() +
                        " (only its own device, or the cpu for a CUDA array)");
    }
    if (options.copy == false) {
      throw BufferError("__dlpack__: exporting an array on " + a.device().str() +
                        " to the cpu needs a copy, but copy=False");
    }
    return {a.to(Device::cpu(), true), true};  // synchronous: the host holds the values on return
  }
  if (options.copy == true) return {a.copy(Order::C), true};
  return {a, false};
}

template <typename Managed>
Exported<Managed>* make_exported(const ndarray& a, const DLPackExportOptions& options,
                                 bool legacy) {
  Export ex = choose_export(a, options);
  const ndarray& x = ex.array;
  if (legacy && !x.writeable()) {
    throw BufferError(
        "Cannot export readonly array since signalling readonly is unsupported by DLPack "
        "(supported by newer "
        "DLPack version): pass max_version=(1, 0) or copy=True");
  }
  const int nd = x.ndim();
  const std::int64_t isz = x.itemsize();
  auto out = std::make_unique<Exported<Managed>>();
  out->dims.resize(2 * static_cast<std::size_t>(nd) + 1);
  std::int64_t contiguous =
      1;  // the C-contiguous element stride, for axes whose stride is never used
  for (int k = nd - 1; k >= 0; --k) {
    const auto i = static_cast<std::size_t>(k);
    const std::int64_t extent = x.shape()[i], bytes = x.strides()[i];
    out->dims[i] = extent;
    if (bytes % isz == 0) {
      out->dims[static_cast<std::size_t>(nd) + i] = bytes / isz;
    } else if (extent == 1 || x.size() == 0) {
      out->dims[static_cast<std::size_t>(nd) + i] = contiguous;
    } else {
      throw BufferError("DLPack only supports strides which are a multiple of itemsize: axis " +
                        std::to_string(k) + " has a stride of " + std::to_string(bytes) +
                        " bytes for " + std::to_string(isz) + "-byte items");
    }
    contiguous *= std::max<std::int64_t>(extent, 1);
  }
  DLTensor& t = out->managed.dl_tensor;
  t.data = x.data();
  t.device = to_dl_device(x.device());
  t.ndim = nd;
  t.dtype = to_dl_dtype(x.dtype());
  t.shape = out->dims.data();
  t.strides = out->dims.data() + nd;
  t.byte_offset = 0;
  out->managed.manager_ctx = out.get();
  out->managed.deleter = &delete_exported<Managed>;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    out->managed.version = {kMajorVersion, kMinorVersion};
    out->managed.flags = (x.writeable() ? 0 : kFlagReadOnly) | (ex.copied ? kFlagIsCopied : 0);
  }
  // The consumer's stream waits for the work queued on the array (a copy included) on
  // cunp's current stream of the device. A host export was synchronized by the copy.
  if (x.device().is_cuda() && options.synchronize) {
    const int dev = x.device().index;
    const Stream consumer = options.stream ? *options.stream : Stream::legacy(dev);
    if (consumer.device() != dev) {
      throw ValueError("__dlpack__: the consumer's stream is on cuda:" +
                       std::to_string(consumer.device()) + ", the array on " + x.device().str());
    }
    order_streams(current_stream(dev), consumer);
  }
  out->array = std::move(ex.array);
  out->storage = out->array.storage();
  return out.release();
}

// The body shared by both layouts; `release` runs the tensor's deleter.
ndarray import_tensor(const DLTensor& t, bool read_only, std::function<void()> release) {
  const Device device = from_dl_device(t.device);
  const DType dt = from_dl_dtype(t.dtype);
  if (t.ndim < 0 || (t.ndim > 0 && t.shape == nullptr)) {
    throw BufferError("the DLPack tensor has ndim " + std::to_string(t.ndim) +
                      (t.ndim > 0 ? " and no shape" : ""));
  }
  const auto nd = static_cast<std::size_t>(t.ndim);
  Shape shape(t.shape, t.shape + nd);
  for (std::int64_t d : shape) {
    if (d < 0)
      throw BufferError("the DLPack tensor has a negative dimension: shape " + shape_str(shape));
  }
  std::optional<Strides> strides;
  if (t.strides != nullptr) {
    const auto isz = static_cast<std::int64_t>(itemsize(dt));
    Strides st(nd);
    for (std::size_t i = 0; i < nd; ++i) {
      if (__builtin_mul_overflow(t.strides[i], isz, &st[i])) {
        throw BufferError("the DLPack tensor's stride " + std::to_string(t.strides[i]) +
                          " overflows in bytes");
      }
    }
    strides = std::move(st);
  }
  void* data = t.data == nullptr ? nullptr : static_cast<char*>(t.data) + t.byte_offset;
  ndarray a = from_pointer(data, dt, shape, strides, device, std::move(release));
  if (read_only) a.set_writeable(false);
  return a;
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(const ndarray& a, const DLPackExportOptions& options) {
  return &make_exported<DLManagedTensorVersioned>(a, options, false)->managed;
}

DLManagedTensor* to_dlpack_legacy(const ndarray& a, const DLPackExportOptions& options) {
  return &make_exported<DLManagedTensor>(a, options, true)->managed;
}

ndarray from_dlpack(DLManagedTensorVersioned* tensor) {
  if (tensor == nullptr) throw ValueError("from_dlpack: the DLPack tensor is null");
  if (tensor->version.major != kMajorVersion) {
    throw BufferError("from_dlpack: DLPack version " + std::to_string(tensor->version.major) + "." +
                      std::to_string(tensor->version.minor) +
                      " is not supported (cunp reads major version " +
                      std::to_string(kMajorVersion) + ")");
  }
  return import_tensor(tensor->dl_tensor, (tensor->flags & kFlagReadOnly) != 0, [tensor] {
    if (tensor->deleter) tensor->deleter(tensor);
  });
}

ndarray from_dlpack(DLManagedTensor* tensor) {
  if (tensor == nullptr) throw ValueError("from_dlpack: the DLPack tensor is null");
  return import_tensor(tensor->dl_tensor, false, [tensor] {
    if (tensor->deleter) tensor->deleter(tensor);
  });
}

}  // namespace cunp
