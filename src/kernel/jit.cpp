// src/kernel/jit.cpp — the program text of CUNP_JIT_KERNEL (cunp/jit.hpp).
#include "cunp/jit.hpp"

namespace cunp::jit {

std::string kernel_source(std::string_view name, std::string_view preamble, std::string_view params,
                          std::string_view body) {
  std::string src = "// cunp CUNP_JIT_KERNEL '" + std::string(name) + "'\n";
  if (body.find("CUNP_JIT_UNROLL") != std::string_view::npos)
    src += "#define CUNP_JIT_UNROLL _Pragma(\"unroll\")\n";
  const auto mentions = [&](std::string_view word) {
    return params.find(word) != std::string_view::npos ||
           body.find(word) != std::string_view::npos ||
           preamble.find(word) != std::string_view::npos;
  };
  if (mentions("complex")) src += "#include <cunp/complex.cuh>\n";
  if (mentions("__half") || mentions("half2")) src += "#include <cuda_fp16.h>\n";
  src += preamble;
  if (!preamble.empty() && preamble.back() != '\n') src += '\n';
  src += "extern \"C\" __global__ void ";
  src += name;
  src += params;
  src += " {\n";
  src += body;
  src += "\n}\n";
  return src;
}

}  // namespace cunp::jit
