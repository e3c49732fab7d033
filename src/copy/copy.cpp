// src/copy/copy.cpp — moving elements: copies, casts, fills, assignment, transfers
// between devices, item() and printing. Every element move goes through
// copy_elements, which dispatches to the cpu or cuda backend.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "copy/copy.hpp"
#include "core/printing.hpp"
#include "cpu/copy.hpp"
#include "cuda/copy.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/errstate.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/stream.hpp"
#include "iter/layout.hpp"

namespace cunp {
namespace {

// Same-device element copy with cast; src already has dst's shape (broadcast strides).
void copy_same_device(const ndarray& dst, const ndarray& src, const Strides& src_strides) {
  const iter::LoopLayout layout = iter::make_layout(dst.shape(), {dst.strides(), src_strides});
  if (dst.device().is_cpu()) {
    cpu::copy_cast(layout, dst.data(), dst.dtype(), src.data(), src.dtype());
  } else {
    cuda::DeviceScope scope(dst.device().index);
    cuda::copy_cast(layout, dst.data(), dst.dtype(), src.data(), src.dtype());
  }
}

// Keeps a host buffer alive until the stream reaches this point (for async copies
// from pinned memory).
void keep_alive_until_done(cudaStream_t stream, const std::shared_ptr<Storage>& storage) {
  auto* holder = new std::shared_ptr<Storage>(storage);
  const cudaError_t err = cudaLaunchHostFunc(
      stream, [](void* p) { delete static_cast<std::shared_ptr<Storage>*>(p); }, holder);
  if (err != cudaSuccess) {
    delete holder;
    cudaStreamSynchronize(stream);
    cuda::check_cuda(err, "cudaLaunchHostFunc");
  }
}

// Makes stream `waiter` of CUDA device `waiter_device` wait for the work enqueued so far
// on stream `on` of CUDA device `device`. Each handle is used with its own device current:
// the null and per-thread stream handles mean a stream of the current device.
void wait_for_stream(int waiter_device, cudaStream_t waiter, int device, cudaStream_t on) {
  cudaEvent_t event = nullptr;
  {
    cuda::DeviceScope scope(device);
    cuda::check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    const cudaError_t err = cudaEventRecord(event, on);
    if (err != cudaSuccess) {
      cudaEventDestroy(event);
      cuda::check_cuda(err, "cudaEventRecord");
    }
  }
  cuda::DeviceScope scope(waiter_device);
  const cudaError_t err = cudaStreamWaitEvent(waiter, event, 0);
  cudaEventDestroy(event);  // released once the recorded work completes
  cuda::check_cuda(err, "cudaStreamWaitEvent");
}

// Note [Copies between GPUs]: a copy between two CUDA devices is one cudaMemcpyPeerAsync
// on the destination's current stream, never a round trip through the host. It uses the
// direct path (NVLink, PCIe P2P) where cudaDeviceCanAccessPeer says so, whether or not
// peer access was enabled, and the driver stages it otherwise. Streams of different
// devices are not ordered against each other (not even the legacy default streams), so
// the copy first waits for the work enqueued on the source's current stream (which
// wrote src), and the source's stream then waits for the copy: the source's memory is
// reused in its own stream's order, which must come after the copy read it.
void peer_copy(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) {
  cudaStream_t src_stream = nullptr;
  {
    cuda::DeviceScope scope(src_device);
    src_stream = cuda::current_stream_handle();
  }
  cuda::DeviceScope scope(dst_device);
  const cudaStream_t dst_stream = cuda::current_stream_handle();
  wait_for_stream(dst_device, dst_stream, src_device, src_stream);
  cuda::check_cuda(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, dst_stream),
                   "cudaMemcpyPeerAsync");
  wait_for_stream(src_device, src_stream, dst_device, dst_stream);
}

// Raw byte transfer of a C-contiguous array to a C-contiguous array of the same
// dtype and size on another device.
void transfer_contiguous(const ndarray& dst, const ndarray& src) {
  const auto nbytes = static_cast<std::size_t>(src.nbytes());
  if (nbytes == 0) return;
  const Device sd = src.device(), dd = dst.device();
  if (sd.is_cpu() && dd.is_cuda()) {
    cuda::DeviceScope scope(dd.index);
    const cudaStream_t s = cuda::current_stream_handle();
    cuda::check_cuda(cudaMemcpyAsync(dst.data(), src.data(), nbytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    // Pageable sources are staged before cudaMemcpyAsync returns; pinned ones are read
    // later by the DMA engine, so the buffer must outlive the copy.
    if (src.storage()->pinned()) keep_alive_until_done(s, src.storage());
  } else if (sd.is_cuda() && dd.is_cpu()) {
    cuda::DeviceScope scope(sd.index);
    const cudaStream_t s = cuda::current_stream_handle();
    cuda::check_cuda(cudaMemcpyAsync(dst.data(), src.data(), nbytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    // The host sees the data only after the copy finished: device-to-host is a sync point.
    cuda::check_cuda(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  } else {
    peer_copy(dst.data(), dd.index, src.data(), sd.index, nbytes);
  }
}

ndarray c_contiguous_on_own_device(const ndarray& a) {
  return a.is_c_contiguous() ? a : a.copy(Order::C);
}

}  // namespace

namespace detail {

void copy_elements(const ndarray& dst, const ndarray& src) {
  if (dst.size() == 0) return;
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  if (dst.device() == src.device()) {
    Strides ss = iter::broadcast_strides(src, dst.shape());
    // Overlapping views (a[1:] = a[:-1]) read through a temporary, as NumPy does.
    if (dst.may_share_memory(src) &&
        !(dst.data() == src.data() && dst.strides() == ss && dst.dtype() == src.dtype())) {
      const ndarray tmp = src.copy(Order::K);
      copy_same_device(dst, tmp, iter::broadcast_strides(tmp, dst.shape()));
      return;
    }
    copy_same_device(dst, src, ss);
    return;
  }
  // Across devices: move src's own elements (never the broadcast expansion) once, in
  // src's dtype, then finish on dst's device.
  iter::broadcast_strides(src, dst.shape());  // shape check before any transfer
  const ndarray packed = c_contiguous_on_own_device(src);
  if (dst.dtype() == src.dtype() && dst.shape() == src.shape() && dst.is_c_contiguous()) {
    transfer_contiguous(dst, packed);
    return;
  }
  const ndarray staged = empty(packed.shape(), {.dtype = packed.dtype(), .device = dst.device()});
  transfer_contiguous(staged, packed);
  copy_same_device(dst, staged, iter::broadcast_strides(staged, dst.shape()));
}

void fill_elements(const ndarray& dst, const Scalar& value) {
  if (dst.size() == 0) return;
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  alignas(16) unsigned char bytes[16] = {};
  value.write_as(dst.dtype(), bytes);
  const iter::LoopLayout layout = iter::make_layout(dst.shape(), {dst.strides()});
  if (dst.device().is_cpu()) {
    cpu::fill(layout, dst.data(), dst.dtype(), bytes);
  } else {
    cuda::DeviceScope scope(dst.device().index);
    cuda::fill(layout, dst.data(), dst.dtype(), bytes);
  }
}

void warn_complex_to_real(DType from, DType to) {
  if (is_complex(from) && !is_complex(to) && to != DType::Bool) {
    warn(WarningKind::Complex, "Casting complex values to real discards the imaginary part");
  }
}

void check_weak_scalar_fits(const Scalar& value, DType dtype) {
  // A Python complex has no real value to store (NumPy: TypeError from float()/int()).
  if (value.weak() && is_complex(value.dtype()) && !is_complex(dtype) && dtype != DType::Bool) {
    throw TypeError(std::string(is_integer(dtype) ? "int" : "float") +
                    "() argument must be a string or a real number, not 'complex'");
  }
  // NEP 50: a Python int that the target integer dtype cannot hold is an error.
  if (value.weak() && value.weak_kind() == WeakKind::Int && is_integer(dtype) && !value.fits(dtype)) {
    std::string text;
    if (value.is_big_int()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.0f", value.to_double());
      text = buf;
    } else {
      text = value.dtype() == DType::UInt64 ? std::to_string(value.to_uint64()) : std::to_string(value.to_int64());
    }
    throw OverflowError("Python integer " + text + " out of bounds for " + std::string(name(dtype)));
  }
}

}  // namespace detail

// Layout strides NumPy's order='K' gives a copy: the source's axis order by
// decreasing |stride|, made contiguous and positive.
static Strides strides_like(const ndarray& a, Order order) {
  if (order == Order::A) order = a.is_f_contiguous() && !a.is_c_contiguous() ? Order::F : Order::C;
  if (order != Order::K) return contiguous_strides(a.shape(), a.itemsize(), order);
  if (a.is_c_contiguous()) return contiguous_strides(a.shape(), a.itemsize(), Order::C);
  if (a.is_f_contiguous()) return contiguous_strides(a.shape(), a.itemsize(), Order::F);
  const int nd = a.ndim();
  std::vector<int> perm(static_cast<std::size_t>(nd));
  for (int i = 0; i < nd; ++i) perm[static_cast<std::size_t>(i)] = i;
  std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) {
    return std::llabs(a.strides()[static_cast<std::size_t>(x)]) > std::llabs(a.strides()[static_cast<std::size_t>(y)]);
  });
  Strides st(static_cast<std::size_t>(nd));
  std::int64_t step = a.itemsize();
  for (int k = nd - 1; k >= 0; --k) {
    const auto ax = static_cast<std::size_t>(perm[static_cast<std::size_t>(k)]);
    st[ax] = step;
    step *= std::max<std::int64_t>(a.shape()[ax], 1);
  }
  return st;
}

ndarray detail::empty_with_layout_of(const ndarray& a, DType dtype, Order order, Device device) {
  Strides st = strides_like(a, order);
  const std::int64_t scale = static_cast<std::int64_t>(cunp::itemsize(dtype));
  for (auto& s : st) s = s / a.itemsize() * scale;
  const std::int64_t n = shape_size(a.shape());
  if (n == 0) st.assign(st.size(), 0);
  return ndarray(allocate(device, static_cast<std::size_t>(n * scale)), dtype, a.shape(), std::move(st), 0);
}

ndarray ndarray::copy(Order order) const {
  check_defined();
  ndarray out = detail::empty_with_layout_of(*this, impl_->dtype, order, device());
  detail::copy_elements(out, *this);
  return out;
}

ndarray ndarray::astype(DType dtype, AstypeOptions options) const {
  check_defined();
  if (!can_cast(impl_->dtype, dtype, options.casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(impl_->dtype)) + "') to dtype('" +
                    std::string(name(dtype)) + "') according to the rule '" +
                    std::string(name(options.casting)) + "'");
  }
  if (!options.copy && dtype == impl_->dtype) {
    const bool layout_ok = options.order == Order::K || options.order == Order::A ||
                           (options.order == Order::C && is_c_contiguous()) ||
                           (options.order == Order::F && is_f_contiguous());
    if (layout_ok) return *this;
  }
  detail::warn_complex_to_real(impl_->dtype, dtype);
  ndarray out = detail::empty_with_layout_of(*this, dtype, options.order, device());
  detail::copy_elements(out, *this);
  return out;
}

ndarray ndarray::to(Device device, bool copy) const {
  check_defined();
  check_device(device);
  if (device == this->device() && !copy) return *this;
  ndarray out = detail::empty_with_layout_of(*this, impl_->dtype, Order::K, device);
  detail::copy_elements(out, *this);
  return out;
}

void ndarray::fill(const Scalar& value) {
  check_defined();
  detail::check_weak_scalar_fits(value, impl_->dtype);
  if (!value.weak()) detail::warn_complex_to_real(value.dtype(), impl_->dtype);
  detail::fill_elements(*this, value);
}

void ndarray::assign(const ndarray& value, Casting casting) {
  check_defined();
  if (!can_cast(value.dtype(), impl_->dtype, casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(name(value.dtype())) +
                    "') to dtype('" + std::string(name(impl_->dtype)) + "') according to the rule '" +
                    std::string(name(casting)) + "'");
  }
  detail::warn_complex_to_real(value.dtype(), impl_->dtype);
  detail::copy_elements(*this, value);
}

void ndarray::assign(const Scalar& value) { fill(value); }

// Note [Byteswap as a byte copy]: the swap is one strided copy between uint8 views,
// the destination's bytes (..., part, byte) read from the source's bytes in reverse
// within each part (stride -1). So both backends reuse copy_elements' loops and
// kernels; an in-place swap overlaps and goes through copy_elements' temporary.
ndarray ndarray::byteswap(bool inplace) const {
  check_defined();
  const std::int64_t part = is_complex(impl_->dtype) ? itemsize() / 2 : itemsize();
  if (part == 1) return inplace ? *this : copy(Order::A);
  ndarray out = inplace ? *this : detail::empty_with_layout_of(*this, impl_->dtype, Order::A, device());
  auto bytes_of = [part](const ndarray& a, bool reversed) {
    Shape sh = a.shape();
    Strides st = a.strides();
    sh.insert(sh.end(), {a.itemsize() / part, part});
    st.insert(st.end(), {part, reversed ? -1 : 1});
    return make_view_as(a, DType::UInt8, std::move(sh), std::move(st), a.offset() + (reversed ? part - 1 : 0));
  };
  detail::copy_elements(bytes_of(out, false), bytes_of(*this, true));
  return out;
}

void ndarray::set_item(std::span<const Index> index, const ndarray& value) { view(index).assign(value); }
void ndarray::set_item(std::span<const Index> index, const Scalar& value) { view(index).fill(value); }

Scalar ndarray::item() const {
  check_defined();
  if (size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
  return item(std::int64_t{0});
}

Scalar ndarray::item(std::int64_t flat_index) const {
  check_defined();
  const std::int64_t n = size();
  if (flat_index < -n || flat_index >= n) {
    // NumPy names the axis when the flat index is the only axis' index.
    throw IndexError("index " + std::to_string(flat_index) + " is out of bounds for " +
                     (ndim() == 1 ? "axis 0 with size " : "size ") + std::to_string(n));
  }
  if (flat_index < 0) flat_index += n;
  // Unravel in C order.
  std::int64_t off = impl_->offset;
  for (int ax = ndim() - 1; ax >= 0; --ax) {
    const auto a = static_cast<std::size_t>(ax);
    off += (flat_index % impl_->shape[a]) * impl_->strides[a];
    flat_index /= impl_->shape[a];
  }
  alignas(16) unsigned char buf[16];
  const char* src = static_cast<const char*>(impl_->storage->data()) + off;
  if (device().is_cpu()) {
    std::memcpy(buf, src, static_cast<std::size_t>(itemsize()));
  } else {
    cuda::DeviceScope scope(device().index);
    const cudaStream_t s = cuda::current_stream_handle();
    cuda::check_cuda(cudaMemcpyAsync(buf, src, static_cast<std::size_t>(itemsize()), cudaMemcpyDeviceToHost, s),
               "cudaMemcpyAsync");
    cuda::check_cuda(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  return Scalar::read(impl_->dtype, buf);
}

Scalar ndarray::item(std::span<const std::int64_t> index) const {
  check_defined();
  if (static_cast<int>(index.size()) != ndim()) throw ValueError("incorrect number of indices for array");
  std::int64_t flat = 0;
  for (int ax = 0; ax < ndim(); ++ax) {
    const auto a = static_cast<std::size_t>(ax);
    std::int64_t i = index[a];
    if (i < -impl_->shape[a] || i >= impl_->shape[a]) {
      throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(ax) +
                       " with size " + std::to_string(impl_->shape[a]));
    }
    if (i < 0) i += impl_->shape[a];
    flat = flat * impl_->shape[a] + i;
  }
  return item(flat);
}

void ndarray::copy_to_host(void* dst) const {
  check_defined();
  auto host = std::make_shared<Storage>(dst, static_cast<std::size_t>(nbytes()), Device::cpu(), nullptr);
  const ndarray out(host, impl_->dtype, impl_->shape, contiguous_strides(impl_->shape, itemsize()), 0);
  detail::copy_elements(out, *this);
}

void ndarray::copy_from_host(const void* src) {
  check_defined();
  auto host = std::make_shared<Storage>(const_cast<void*>(src), static_cast<std::size_t>(nbytes()),
                                        Device::cpu(), nullptr);
  const ndarray in(host, impl_->dtype, impl_->shape, contiguous_strides(impl_->shape, itemsize()), 0);
  detail::copy_elements(*this, in);
}

void copyto(const ndarray& dst, const ndarray& src, Casting casting) {
  ndarray d = dst;
  d.assign(src, casting);
}

static std::vector<unsigned char> host_bytes(const ndarray& a) {
  std::vector<unsigned char> buf(static_cast<std::size_t>(a.nbytes()));
  if (!buf.empty()) a.copy_to_host(buf.data());
  return buf;
}

std::string ndarray::repr() const {
  check_defined();
  const auto buf = host_bytes(*this);
  return detail::format_array(buf.data(), impl_->shape, impl_->dtype, true);
}

std::string ndarray::str() const {
  check_defined();
  const auto buf = host_bytes(*this);
  return detail::format_array(buf.data(), impl_->shape, impl_->dtype, false);
}

}  // namespace cunp
