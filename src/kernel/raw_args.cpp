// src/kernel/raw_args.cpp — see raw_args.hpp.
//
// Note [RawKernel arguments]: cuLaunchKernel copies each parameter's bytes from the
// address it is given, as many as the kernel's parameter takes, so an argument of the
// wrong size shifts nothing but reads garbage (or too little). cunp therefore converts
// each argument to its parameter (raw_signature.hpp gives the kinds, the driver's
// layout the sizes):
//  - an array passes its data pointer, to a pointer parameter (any element type, as in
//    C) or a parameter of unknown type; it must be on the kernel's device;
//  - a Python (weak) scalar becomes the parameter's C type by NumPy's same-kind rule:
//    bool to any number, int to integers, floats and complex (OverflowError when out
//    of range), float to floats and complex, complex to complex; an int for a pointer
//    parameter is the address; for a parameter of unknown type it takes the kind's
//    type of the parameter's size (int of 4 bytes is int32), else CuPy's defaults
//    (int64, float64, complex128, bool);
//  - a NumPy (strong) scalar passes its exact bytes, which must be as many as the
//    parameter takes;
//  - an address (MemoryPointer) goes to pointer-sized parameters, raw bytes (a NumPy
//    structured scalar) to parameters of their size.
#include "kernel/raw_args.hpp"

#include <cstring>

#include "cunp/error.hpp"

namespace cunp::cuda::raw {

std::string_view PackedArgs::bytes(std::size_t i) const noexcept {
  return {reinterpret_cast<const char*>(slots_[offsets_[i]].bytes), sizes_[i]};
}

void PackedArgs::append(const void* data, std::size_t size) {
  const std::size_t nslots = std::max<std::size_t>(1, (size + sizeof(Slot) - 1) / sizeof(Slot));
  offsets_.push_back(slots_.size());
  sizes_.push_back(size);
  slots_.resize(slots_.size() + nslots, Slot{});
  if (size > 0) std::memcpy(slots_[offsets_.back()].bytes, data, size);
}

std::string params_text(const std::vector<RawKernelParam>& params) {
  std::string s;
  for (const RawKernelParam& p : params) {
    if (!s.empty()) s += ", ";
    s += p.type.empty() ? "<" + std::to_string(p.size) + " bytes>" : p.type;
    if (!p.name.empty()) s += " " + p.name;
  }
  return s;
}

namespace {

struct ArgContext {
  std::string_view kernel;
  std::size_t index;
  const RawKernelParam* param;  // null when unknown

  std::string prefix() const {
    std::string s = "RawKernel '" + std::string(kernel) + "': args[" + std::to_string(index) + "]";
    if (param != nullptr && !param->type.empty())
      s += " (" + param->type + (param->name.empty() ? "" : " " + param->name) + ")";
    return s + ": ";
  }
  std::size_t size() const { return param != nullptr ? param->size : 0; }
  RawParamKind kind() const { return param != nullptr ? param->kind : RawParamKind::Other; }
};

std::string weak_name(WeakKind k) {
  switch (k) {
    case WeakKind::Bool:
      return "a Python bool";
    case WeakKind::Int:
      return "a Python int";
    case WeakKind::Float:
      return "a Python float";
    case WeakKind::Complex:
      return "a Python complex";
  }
  return "a Python scalar";
}

void check_device(const ArgContext& c, Device got, Device kernel_device, const char* what) {
  if (!(got == kernel_device))
    throw ValueError(c.prefix() + what + " on " + got.str() + ", but the kernel runs on " +
                     kernel_device.str());
}

void put_pointer(PackedArgs& out, std::uintptr_t address) {
  const std::uint64_t v = address;
  out.append(&v, sizeof v);
}

void pointer_sized(const ArgContext& c, const char* what) {
  const RawParamKind k = c.kind();
  const bool ok = k == RawParamKind::Pointer ||
                  (k == RawParamKind::Other && (c.size() == 0 || c.size() == 8)) ||
                  (k == RawParamKind::Scalar && c.param->size == 8 && is_integer(*c.param->dtype));
  if (!ok)
    throw TypeError(c.prefix() + what + " passes an address, but the parameter is not a pointer" +
                    (k == RawParamKind::Scalar ? "; pass a scalar" : ""));
}

// The dtype a weak scalar of kind `k` takes for a parameter of unknown type and `size`
// bytes (0: unknown size): the kind's type of that size, else CuPy's default.
std::optional<DType> dtype_by_size(WeakKind k, std::size_t size, const Scalar& s) {
  switch (k) {
    case WeakKind::Bool:
      if (size == 0 || size == 1) return DType::Bool;
      break;
    case WeakKind::Int:
      switch (size) {
        case 0:
        case 8:
          return s.dtype() == DType::UInt64 ? DType::UInt64 : DType::Int64;
        case 4:
          return DType::Int32;
        case 2:
          return DType::Int16;
        case 1:
          return DType::Int8;
      }
      break;
    case WeakKind::Float:
      switch (size) {
        case 0:
        case 8:
          return DType::Float64;
        case 4:
          return DType::Float32;
        case 2:
          return DType::Float16;
      }
      break;
    case WeakKind::Complex:
      if (size == 0 || size == 16) return DType::Complex128;
      if (size == 8) return DType::Complex64;
      break;
  }
  return std::nullopt;
}

bool same_kind(WeakKind from, DType to) {
  switch (from) {
    case WeakKind::Bool:
      return true;
    case WeakKind::Int:
      return kind(to) != DTypeKind::Bool;
    case WeakKind::Float:
      return is_inexact(to);
    case WeakKind::Complex:
      return is_complex(to);
  }
  return false;
}

void put_weak(PackedArgs& out, const ArgContext& c, const Scalar& s) {
  const WeakKind wk = s.weak_kind();
  std::optional<DType> target;
  switch (c.kind()) {
    case RawParamKind::Pointer:
      if (wk != WeakKind::Int)
        throw TypeError(c.prefix() + weak_name(wk) +
                        " cannot be passed to a pointer parameter (an int passes an "
                        "address, an array its data)");
      if (!s.fits(DType::UInt64))
        throw OverflowError(c.prefix() + "Python integer " + s.str() + " is not an address");
      put_pointer(out, static_cast<std::uintptr_t>(s.to_uint64()));
      return;
    case RawParamKind::Scalar:
      target = *c.param->dtype;
      if (!same_kind(wk, *target))
        throw TypeError(c.prefix() + "cannot convert " + weak_name(wk) +
                        " to the parameter's type " + c.param->type + " (" +
                        std::string(name(*target)) +
                        ") by the same-kind rule; pass a NumPy scalar " + "for its exact bytes");
      break;
    case RawParamKind::Other:
      target = dtype_by_size(wk, c.size(), s);
      if (!target)
        throw TypeError(c.prefix() + "cannot convert " + weak_name(wk) +
                        " to the parameter's type" +
                        (c.param != nullptr && !c.param->type.empty() ? " " + c.param->type : "") +
                        (c.size() == 0 ? std::string(" (not a C scalar type)")
                                       : " of " + std::to_string(c.size()) + " bytes") +
                        "; pass a NumPy scalar or a NumPy structured scalar of its exact bytes");
      break;
  }
  if (s.is_big_int() && is_integer(*target))
    throw OverflowError(c.prefix() + "Python integer out of bounds for " +
                        std::string(name(*target)));
  if (!s.fits(*target))
    throw OverflowError(c.prefix() + "Python integer " + s.str() + " out of bounds for " +
                        std::string(name(*target)));
  alignas(16) unsigned char buf[16];
  s.write_as(*target, buf);
  out.append(buf, itemsize(*target));
}

void put_strong(PackedArgs& out, const ArgContext& c, const Scalar& s) {
  const std::size_t n = itemsize(s.dtype());
  if (c.kind() == RawParamKind::Pointer && !is_integer(s.dtype()))
    throw TypeError(c.prefix() + "a numpy." + std::string(name(s.dtype())) +
                    " cannot be passed to a pointer parameter");
  if (c.size() != 0 && c.size() != n)
    throw TypeError(
        c.prefix() + "a numpy." + std::string(name(s.dtype())) + " is " + std::to_string(n) +
        " bytes, but the parameter takes " + std::to_string(c.size()) +
        (c.param->dtype ? " (numpy." + std::string(name(*c.param->dtype)) + ")" : std::string()));
  alignas(16) unsigned char buf[16];
  s.write_as(s.dtype(), buf);
  out.append(buf, n);
}

}  // namespace

PackedArgs pack_args(std::span<const RawArg> args,
                     const std::optional<std::vector<RawKernelParam>>& params, Device device,
                     std::string_view kernel_name) {
  if (params && params->size() != args.size())
    throw TypeError("RawKernel '" + std::string(kernel_name) + "' takes " +
                    std::to_string(params->size()) + " argument" +
                    (params->size() == 1 ? "" : "s") + " (" + params_text(*params) + ") but " +
                    std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") + " given");
  PackedArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const RawArg& a = args[i];
    const ArgContext c{kernel_name, i, params ? &(*params)[i] : nullptr};
    if (a.is_array()) {
      const ndarray& arr = a.array();
      if (!arr.defined()) throw ValueError(c.prefix() + "the array is undefined");
      check_device(c, arr.device(), device, "the array is");
      if (c.kind() == RawParamKind::Scalar)
        throw TypeError(c.prefix() + "an array cannot be passed to a scalar parameter (" +
                        std::string(name(*c.param->dtype)) + "); pass a scalar");
      pointer_sized(c, "an array");
      put_pointer(out, reinterpret_cast<std::uintptr_t>(arr.data()));
    } else if (a.is_address()) {
      if (a.address().device) check_device(c, *a.address().device, device, "the memory is");
      pointer_sized(c, "a memory pointer");
      put_pointer(out, a.address().value);
    } else if (a.is_bytes()) {
      const std::string& b = a.raw_bytes();
      if (c.size() != 0 && c.size() != b.size())
        throw TypeError(c.prefix() + "a structured scalar of " + std::to_string(b.size()) +
                        " bytes, but the parameter takes " + std::to_string(c.size()));
      out.append(b.data(), b.size());
    } else if (a.scalar().weak()) {
      put_weak(out, c, a.scalar());
    } else {
      put_strong(out, c, a.scalar());
    }
  }
  out.pointers_.reserve(out.offsets_.size());
  for (std::size_t off : out.offsets_) out.pointers_.push_back(out.slots_[off].bytes);
  return out;
}

}  // namespace cunp::cuda::raw
