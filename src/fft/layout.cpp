// src/fft/layout.cpp — fitting arrays to plan layouts and running one pass.
#include "fft/layout.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "fft/backend.hpp"

namespace cunp::fft::detail {

std::optional<Layout> describe_layout(const ndarray& v, int nbatch) {
  const std::int64_t isz = v.itemsize();
  if (reinterpret_cast<std::uintptr_t>(v.data()) % static_cast<std::uintptr_t>(isz) != 0) return std::nullopt;
  const Shape& shape = v.shape();
  const Strides& strides = v.strides();
  const int rank = v.ndim() - nbatch;
  Layout l;
  l.embed.assign(static_cast<std::size_t>(rank), 0);
  std::int64_t cur = 1;  // element stride of the axis just inside
  for (int j = rank - 1; j >= 0; --j) {
    const std::size_t ax = static_cast<std::size_t>(nbatch + j);
    if (strides[ax] % isz != 0) return std::nullopt;
    std::int64_t s = strides[ax] / isz;
    if (j == rank - 1) {
      if (shape[ax] == 1) s = 1;  // the stride of a length-1 axis is never used
      if (s <= 0) return std::nullopt;
      l.stride = s;
    } else {
      const std::int64_t inner_n = shape[ax + 1];
      if (shape[ax] == 1) s = cur * inner_n;
      if (s <= 0 || s % cur != 0 || s / cur < inner_n) return std::nullopt;
      l.embed[static_cast<std::size_t>(j + 1)] = s / cur;
    }
    cur = s;
  }
  l.embed[0] = shape[static_cast<std::size_t>(nbatch)];
  // The batch axes must coalesce into one positive stride.
  bool any = false;
  std::int64_t expect = 0;
  for (int i = nbatch - 1; i >= 0; --i) {
    const std::size_t ax = static_cast<std::size_t>(i);
    if (shape[ax] == 1) continue;
    if (strides[ax] % isz != 0) return std::nullopt;
    const std::int64_t s = strides[ax] / isz;
    if (!any) {
      if (s <= 0) return std::nullopt;
      l.dist = s;
      any = true;
    } else if (s != expect) {
      return std::nullopt;
    }
    expect = s * shape[ax];
  }
  if (!any) l.dist = cur * l.embed[0];
  return l;
}

namespace {

// Batch axes in ascending order, then `axes` in their order.
std::vector<int> axes_last_permutation(int ndim, std::span<const int> axes) {
  std::vector<int> perm;
  perm.reserve(static_cast<std::size_t>(ndim));
  for (int i = 0; i < ndim; ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) perm.push_back(i);
  perm.insert(perm.end(), axes.begin(), axes.end());
  return perm;
}

ndarray contiguous_copy(const ndarray& v, DType dtype) {
  ndarray c = empty(v.shape(), {.dtype = dtype, .device = v.device()});
  cunp::detail::copy_elements(c, v);
  return c;
}

}  // namespace

ndarray empty_axes_last(const Shape& shape, DType dtype, Device device, std::span<const int> axes) {
  const std::vector<int> perm = axes_last_permutation(static_cast<int>(shape.size()), axes);
  Shape permuted(shape.size());
  for (std::size_t i = 0; i < perm.size(); ++i) permuted[i] = shape[static_cast<std::size_t>(perm[i])];
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[static_cast<std::size_t>(perm[i])] = static_cast<int>(i);
  return empty(permuted, {.dtype = dtype, .device = device}).transpose(inverse);
}

void run_pass(Kind kind, bool forward, const ndarray& in, const ndarray& out, std::span<const int> axes,
              bool in_disposable) {
  if (in.device() != out.device())
    throw ValueError("FFT input on " + in.device().str() + " and output on " + out.device().str() +
                     " must be on one device");
  const int ndim = in.ndim();
  const int rank = static_cast<int>(axes.size());
  const int nbatch = ndim - rank;
  const std::vector<int> perm = axes_last_permutation(ndim, axes);
  ndarray src = in.transpose(perm);
  ndarray dst = out.transpose(perm);
  std::int64_t batch = 1;
  for (int i = 0; i < nbatch; ++i) batch *= dst.shape()[static_cast<std::size_t>(i)];
  if (batch == 0) return;

  const bool overlap = in.may_share_memory(out);
  bool in_place = overlap && kind == Kind::C2C && in.data() == out.data() && in.strides() == out.strides() &&
                  in.shape() == out.shape();
  std::optional<Layout> li = describe_layout(src, nbatch);
  bool src_copied = false;
  if (!li || (kind == Kind::C2R && !in_disposable)) {
    src = contiguous_copy(src, src.dtype());
    li = describe_layout(src, nbatch);
    in_place = false;
    src_copied = true;
  }
  std::optional<Layout> lo = in_place ? li : describe_layout(dst, nbatch);
  ndarray target = dst;
  bool copy_back = false;
  if (!lo || (overlap && !in_place && !src_copied)) {
    target = empty(dst.shape(), {.dtype = dst.dtype(), .device = dst.device()});
    lo = describe_layout(target, nbatch);
    copy_back = true;
  }

  PlanKey key;
  key.kind = kind;
  key.double_precision = real_dtype(in.dtype()) == DType::Float64;
  key.forward = forward;
  const ndarray& logical = kind == Kind::C2R ? target : src;
  key.n.assign(logical.shape().begin() + nbatch, logical.shape().end());
  key.batch = batch;
  key.in = *li;
  key.out = *lo;
  key.in_place = in_place;
  const Device device = in.device();
  if (device.is_cpu()) execute_cpu_fft(key, src.data(), target.data());
  else execute_cufft(device.index, key, src.data(), target.data());
  if (copy_back) cunp::detail::copy_elements(dst, target);
}

}  // namespace cunp::fft::detail
