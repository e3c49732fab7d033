// src/runtime/nvrtc_compiler.hpp — CUDA C++ source to cubin with NVRTC. Needs no GPU.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cunp::cuda {

// Options of one NVRTC compilation. Every program sees the headers of src/ops by
// file name (`#include "cast.h"`) and those of src/kernel/device_include by path
// (`#include <cunp/complex.cuh>`), compiled in memory; nothing else is on the include
// path unless extra_options add it (user kernels add the toolkit's, see
// toolkit_include_options), so generated sources stay small and fast to compile.
struct CompileOptions {
  int arch = 90;                              // compute capability, major*10+minor: sm_XX
  int cxx_standard = 17;                      // 17 or 20; a -std in extra_options wins
  std::vector<std::string> extra_options;     // passed to NVRTC as given (e.g. "-DN=4")
  std::vector<std::string> name_expressions;  // C++ names to lower (templates, namespaces)
};

struct CompiledProgram {
  std::string cubin;  // the ELF image for sm_<arch>
  std::string log;    // NVRTC's log (warnings), possibly empty
  // (name expression, lowered/mangled name) for each CompileOptions::name_expressions.
  std::vector<std::pair<std::string, std::string>> lowered_names;
};

// Compiles `source` to cubin. `program_name` names the program in NVRTC's messages
// and the error; `source_path` (may be empty) is where the caller saved the source,
// reported by the CompileError. Throws CompileError carrying NVRTC's log when the
// source does not compile, CudaError for other NVRTC failures.
CompiledProgram compile_to_cubin(std::string_view source, std::string_view program_name,
                                 const CompileOptions& options,
                                 const std::string& source_path = {});

// The full option list NVRTC gets for `options` (part of the disk cache key).
std::vector<std::string> nvrtc_option_list(const CompileOptions& options);

// True for an NVRTC option that sets the language standard (-std=c++20, --std c++20).
bool is_std_option(std::string_view option) noexcept;

// Note [Toolkit headers for user kernels]: hand-written kernels include CUDA's own
// headers (<cuda_fp16.h>, <cooperative_groups.h>, <cuComplex.h>, libcu++'s
// <cuda/std/...>), which NVRTC does not ship. They come from the CUDA toolkit's include
// directory, found once: $CUDA_PATH/include, $CUDA_HOME/include, then the toolkit cunp
// was built with; the first holding cuda_fp16.h wins. CCCL's directory beneath it
// (include/cccl, where CUDA 13 keeps cuda/std) follows. The options are
// {"-I<dir>", ...}, empty when no toolkit is found (the headers are then missing, and
// a kernel including them fails to compile with NVRTC's "cannot open source file").
// Generated kernels never take them: they include only the embedded headers.
const std::vector<std::string>& toolkit_include_options();

// NVRTC's version as major*1000 + minor*10 (13.0 -> 13000).
int nvrtc_version();
// The sm_XX targets NVRTC can emit cubin for, ascending (90 for sm_90).
const std::vector<int>& nvrtc_supported_archs();
// The target to compile for a device of compute capability `device_arch`: itself when
// supported, else the newest supported one of the same major (cubin runs on later
// minors). Throws CudaError when NVRTC knows no target of that major.
int nvrtc_target_arch(int device_arch);

}  // namespace cunp::cuda
