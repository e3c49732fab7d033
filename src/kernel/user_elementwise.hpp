// src/kernel/user_elementwise.hpp — the pieces of ElementwiseKernel (cunp/kernel.hpp)
// that need no GPU: parameter parsing, type resolution and source generation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "runtime/kernel_cache.hpp"
#include "cunp/dtype.hpp"
#include "cunp/kernel.hpp"

namespace cunp::cuda::user {

// A parsed parameter list: inputs then outputs; placeholders numbered by first use.
struct Signature {
  std::vector<KernelParam> params;  // nin inputs, then nout outputs
  std::vector<int> placeholder;     // per param: index into placeholders, or -1 (fixed dtype)
  std::vector<std::string> placeholders;
  int nin = 0;
  int nout = 0;
};

// Parses CuPy's parameter syntax. ValueError for syntax errors, unknown keywords,
// non-canonical dtype names (`float`, `f4`), reserved or duplicate names.
Signature parse_signature(std::string_view in_params, std::string_view out_params);
// True for a valid C identifier.
bool is_identifier(std::string_view s) noexcept;

// What type resolution sees of one argument.
struct ArgType {
  enum class Kind : std::uint8_t { Absent, Array, Scalar };
  Kind kind = Kind::Absent;
  DType dtype = DType::Float64;
  bool weak = false;  // Python / C++ scalar
};

// The dtype of every parameter (inputs then outputs) for these arguments (one per
// parameter, Absent for outputs not given). Given outputs bind first, then input
// arrays; both must match their parameter's dtype exactly. Placeholders seen only
// with scalars take np.result_type of those scalars. TypeError naming the parameter
// and the placeholder when arguments disagree or a placeholder stays undecided.
std::vector<DType> resolve_types(const Signature& sig, std::span<const ArgType> args,
                                 std::string_view kernel_name);

// resolve_types for the arguments of a call (outputs not given are Absent), then the
// check that each Python/C++ scalar fits its parameter's dtype. ValueError naming the
// argument (after `prefix`) for an undefined array, OverflowError for a scalar out of
// its dtype's range.
std::vector<DType> resolve_arg_types(const Signature& sig, std::span<const KernelArg> args,
                                     std::string_view kernel_name, const std::string& prefix);

// The C++ spelling of a dtype inside user kernels: "float", "long long",
// "complex<float>", "float16", "bool".
std::string_view kernel_type_name(DType dt) noexcept;

// How one parameter reaches the generated kernel.
enum class ArgKind : std::uint8_t { Array, Scalar, Raw };
struct ParamBinding {
  ArgKind kind = ArgKind::Array;
  DType dtype = DType::Float64;
  int raw_ndim = 0;             // Raw: the array's ndim (0-d counts as 1)
  bool raw_contiguous = false;  // Raw: C-contiguous, indexed as a flat pointer
};

// The loop: contiguous (every non-raw array walked with unit stride) or strided with
// `ndim` axes, 32- or 64-bit index arithmetic.
struct LoopShape {
  bool contiguous = true;
  int ndim = 0;
  bool index64 = false;
};

// What the source of one kernel depends on besides the bindings.
struct KernelText {
  std::string_view name;
  std::string_view operation;
  std::string_view preamble;
  std::string_view loop_prep;
  std::string_view after_loop;
};

// The support code a user kernel program starts with (namespace cunp_ek: indexer, raw
// arrays), plus the float16 and complex<T> types and their functions when the program
// uses them. ReductionKernel programs start with it too.
std::string support_source(bool uses_half, bool uses_complex);

// The C type of parameter p: its placeholder's typedef name, or the dtype's type.
std::string param_type(const Signature& sig, std::size_t p, DType dt);

// The whole program of one kernel.
std::string generate_source(const Signature& sig, const KernelText& text,
                            std::span<const ParamBinding> bindings, const LoopShape& loop);
// The program with its name and NVRTC options, ready for the kernel cache.
KernelSource make_kernel_source(const Signature& sig, const KernelText& text,
                                std::span<const ParamBinding> bindings, const LoopShape& loop,
                                const std::vector<std::string>& options);

// A user kernel object's compiled kernel for `memo_key`: looked up in the object's own
// table (`kernels` under `mutex`), else `make_source()` goes through the process-wide
// kernel cache under a key hashed from the source, its name and options and `family`
// ("cunp.user.elementwise", "cunp.user.reduction"), and is remembered.
KernelKey user_kernel_key(const KernelSource& source, std::string_view family, int arch);
template <typename MakeSource>
Kernel memoized_kernel(std::shared_mutex& mutex, std::unordered_map<std::string, Kernel>& kernels,
                       const std::string& memo_key, std::string_view family, int arch, MakeSource&& make_source) {
  {
    std::shared_lock lock(mutex);
    if (const auto it = kernels.find(memo_key); it != kernels.end()) return it->second;
  }
  const KernelSource source = make_source();
  const Kernel kernel = get_kernel(user_kernel_key(source, family, arch), [&source] { return source; });
  std::unique_lock lock(mutex);
  return kernels.try_emplace(memo_key, kernel).first->second;
}

// Storage for kernel arguments whose addresses the launch reads.
struct alignas(16) ArgSlot {
  unsigned char bytes[16];
};

}  // namespace cunp::cuda::user
