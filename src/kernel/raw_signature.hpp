// src/kernel/raw_signature.hpp — the parameter types of a hand-written kernel, read from
// its declaration in the source (RawKernel's argument conversion). Needs no GPU.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/raw_kernel.hpp"

namespace cunp::cuda::raw {

// The parameters of the __global__ function `name` declared in `source`.
//
// `name` is an identifier ("saxpy"), optionally qualified ("ns::saxpy") and/or with
// template arguments ("scale<float, 4>"), which are substituted for the template's
// parameters. Object-like macros (#define N 4 in the source, -DN=4 in `options`) and
// simple aliases (typedef float real; using real = float;) are expanded first.
// nullopt when no __global__ declaration of that name is found; a parameter whose type
// cannot be resolved is kind Other with size 0. Never throws for malformed source.
std::optional<std::vector<RawKernelParam>> parse_kernel_params(
    std::string_view source, std::string_view name, std::span<const std::string> options = {});

// The kind, dtype and size of a C type as spelled in a declaration ("const float*",
// "unsigned long long", "cuda::std::int32_t", "complex<double>", "__half", "float4").
RawKernelParam classify_type(std::string_view type);

}  // namespace cunp::cuda::raw
