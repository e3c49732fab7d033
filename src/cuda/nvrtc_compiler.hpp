// src/cuda/nvrtc_compiler.hpp — CUDA C++ source to cubin with NVRTC. Needs no GPU.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cunp::cuda {

// Options of one NVRTC compilation. Every program sees the headers of src/ops by
// file name (`#include "cast.h"`), compiled in memory; nothing else is on the
// include path, so generated sources stay small and fast to compile.
struct CompileOptions {
  int arch = 90;                              // compute capability, major*10+minor: sm_XX
  int cxx_standard = 17;                      // 17 or 20
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

// NVRTC's version as major*1000 + minor*10 (13.0 -> 13000).
int nvrtc_version();
// The sm_XX targets NVRTC can emit cubin for, ascending (90 for sm_90).
const std::vector<int>& nvrtc_supported_archs();
// The target to compile for a device of compute capability `device_arch`: itself when
// supported, else the newest supported one of the same major (cubin runs on later
// minors). Throws CudaError when NVRTC knows no target of that major.
int nvrtc_target_arch(int device_arch);

}  // namespace cunp::cuda
