// src/kernel/raw_args.hpp — a RawKernel launch's arguments as the bytes of each kernel
// parameter (Note [RawKernel arguments] in raw_args.cpp). Needs no GPU.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/raw_kernel.hpp"

namespace cunp::cuda::raw {

// The argument buffer of one launch: each argument's bytes in a 16-byte-aligned slot of
// its own, and the array of pointers to them that cuLaunchKernel takes.
class PackedArgs {
 public:
  std::size_t count() const noexcept { return offsets_.size(); }
  void** pointers() noexcept { return pointers_.data(); }
  // The bytes of argument i.
  std::string_view bytes(std::size_t i) const noexcept;

  // Appends one argument's bytes (used by pack_args).
  void append(const void* data, std::size_t size);

 private:
  struct alignas(16) Slot {
    unsigned char bytes[16];
  };
  std::vector<Slot> slots_;
  std::vector<std::size_t> offsets_, sizes_;  // slot index and byte count per argument
  std::vector<void*> pointers_;
  friend PackedArgs pack_args(std::span<const RawArg>,
                              const std::optional<std::vector<RawKernelParam>>&, Device,
                              std::string_view);
};

// Converts `args` for a kernel with parameters `params` (nullopt: unknown; every
// argument then passes its natural bytes, as CuPy does) running on `device`. TypeError
// for a wrong argument count or an argument a parameter cannot take, ValueError for an
// array or address on another device, OverflowError for an integer out of its
// parameter's range; each message names the kernel, the argument and the parameter.
PackedArgs pack_args(std::span<const RawArg> args,
                     const std::optional<std::vector<RawKernelParam>>& params, Device device,
                     std::string_view kernel_name);

// "float a, const float* x, float* y, int n", for messages.
std::string params_text(const std::vector<RawKernelParam>& params);

}  // namespace cunp::cuda::raw
