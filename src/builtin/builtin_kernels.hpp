// src/builtin/builtin_kernels.hpp — the list of every kernel the engine itself generates,
// so that a test (without a GPU) can compile them all with NVRTC.
#pragma once

#include <string>
#include <vector>

#include "cuda/copy_source.hpp"
#include "ufunc/elementwise_source.hpp"
#include "runtime/kernel_archive.hpp"
#include "runtime/kernel_cache.hpp"

namespace cunp::cuda {

// A program holding several built-in kernels behind one shared preamble.
struct BuiltinProgram {
  std::string name;  // "cast_f4_f8", "fill_u4", "ufunc_add"
  std::string source;
  std::vector<std::string> kernel_names;  // the extern "C" kernels it defines
  CompileOptions options = {};             // as the engine compiles them (arch aside)
};

// Every copy/cast/fill kernel: all 14x14 cast pairs and the fills, each contiguous
// (32/64-bit index) and strided for every ndim bucket (1, 2, 3, 4, 8, 16, 32, 64) with
// 32/64-bit index.
std::vector<CopyKernelSpec> builtin_copy_specs();

// The ufunc loop kernels listed for `uf`: for each of its loops, all operands arrays of
// the loop's dtypes, contiguous and strided (ndim 2), 32-bit index; for binary ufuncs
// also contiguous with the second input a scalar parameter. A loop that an earlier
// ufunc of the same functor already lists (radians after deg2rad) is left out.
std::vector<ElementwiseSpec> builtin_elementwise_specs(const ufunc::Ufunc& uf);

// Each built-in kernel as the single-kernel program the engine compiles at run time.
std::vector<KernelSource> builtin_kernel_sources();

// The same kernels batched: one program per cast pair, per fill dtype and per ufunc,
// whose text is one preamble followed by the same entries as the single programs. Compiling
// these is how the CI test covers every kernel in reasonable time.
std::vector<BuiltinProgram> builtin_kernel_programs();

// builtin_kernel_programs() with each batch's kernels matched to the single-kernel
// program the engine generates for them (builtin_kernel_sources()). Throws
// std::logic_error when a built-in kernel is in no batch, in two, or its batch is
// compiled with other options: the archive would not serve it.
std::vector<ArchiveProgram> builtin_archive_programs();

}  // namespace cunp::cuda
