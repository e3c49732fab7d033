// src/sparse/row_kernels_source.cpp — see row_kernels_source.hpp.
#include "sparse/row_kernels_source.hpp"

#include <string_view>

#include "cuda/ops_types.hpp"

namespace cunp::sparse::detail {
namespace {

struct RowKernelInfo {
  const char* tag;     // in the kernel name
  const char* params;  // the parameter struct of csr_rows_params.h
  const char* call;    // the function; {T} and {I} stand for the element and index types
};

constexpr RowKernelInfo kInfo[kNumRowKernels] = {
    {"expand", "ExpandRowsParams", "expand_rows<{I}>"},
    {"compress", "CompressSortedParams", "compress_sorted<{I}>"},
    {"sorted", "RowsSortedParams", "rows_sorted<{I}>"},
    {"todense", "ToDenseParams", "to_dense_row<{T}, {I}>"},
    {"segsum", "SegmentSumParams", "segment_sum<{T}, {I}>"},
    {"bincount", "BinopParams", "binop_row<{T}, {I}, false>"},
    {"binfill", "BinopParams", "binop_row<{T}, {I}, true>"},
    {"reduce", "RowReduceParams", "row_reduce<{T}, {I}>"},
    {"diag", "DiagonalParams", "diagonal_entry<{T}, {I}>"},
};

const RowKernelInfo& info(RowKernel k) { return kInfo[static_cast<int>(k)]; }

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

std::string row_kernel_name(const RowKernelSpec& spec) {
  std::string n = std::string("cunp_sp_") + info(spec.kernel).tag;
  if (row_kernel_has_data(spec.kernel)) n += "_" + std::string(cuda::ops_type_code(spec.data));
  return n + (spec.index == DType::Int64 ? "_i8" : "_i4");
}

std::string row_kernels_preamble() {
  return "#include \"cast.h\"\n#include \"ufunc_arith.h\"\n#include \"ufunc_compare.h\"\n"
         "#include \"sparse/device/csr_rows.h\"\n";
}

std::string row_kernel_entry(const RowKernelSpec& spec) {
  const RowKernelInfo& k = info(spec.kernel);
  std::string call = replace_all(k.call, "{T}", cuda::ops_type_name(spec.data));
  call = replace_all(call, "{I}", spec.index == DType::Int64 ? "long long" : "int");
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kRowKernelBlock) +
         ") " + row_kernel_name(spec) + "(const __grid_constant__ cunp::sparse_ops::" + k.params +
         " p, long long n) {\n"
         "  const long long stride = (long long)gridDim.x * blockDim.x;\n"
         "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += "
         "stride)\n"
         "    cunp::sparse_ops::" +
         call + "(i, p);\n}\n";
}

// As the ufunc loops: no contraction into fused multiply-adds, so sums and products
// round as the cpu loops round them (Note [Contracted multiply-add] in src/ops).
cuda::CompileOptions row_kernel_compile_options() {
  cuda::CompileOptions options;
  options.extra_options = {"--fmad=false"};
  return options;
}

cuda::KernelSource row_kernel_source(const RowKernelSpec& spec) {
  cuda::KernelSource source;
  source.kernel_name = row_kernel_name(spec);
  source.source = row_kernels_preamble() + row_kernel_entry(spec);
  source.options = row_kernel_compile_options();
  return source;
}

cuda::KernelKey row_kernel_key(const RowKernelSpec& spec, int arch) noexcept {
  cuda::KernelKey key;
  key.op = cuda::op_id("cunp.sparse.row");
  key.variant = static_cast<std::uint64_t>(spec.kernel);
  key.dtypes[0] =
      static_cast<std::uint8_t>(row_kernel_has_data(spec.kernel) ? spec.data : DType::Bool);
  key.dtypes[1] = static_cast<std::uint8_t>(spec.index);
  key.ndim = 1;
  key.layout = cuda::LayoutClass::Contiguous;
  key.index_bits = 64;
  key.arch = static_cast<std::uint16_t>(arch);
  return key;
}

std::vector<DType> row_kernel_data_dtypes() {
  std::vector<DType> out;
  for (int d = 0; d < kNumDTypes; ++d)
    if (static_cast<DType>(d) != DType::Float16) out.push_back(static_cast<DType>(d));
  return out;
}

std::vector<RowKernelSpec> row_kernel_specs() {
  std::vector<RowKernelSpec> specs;
  for (DType index : {DType::Int32, DType::Int64})
    for (int k = 0; k < kNumRowKernels; ++k)
      if (!row_kernel_has_data(static_cast<RowKernel>(k)))
        specs.push_back({.kernel = static_cast<RowKernel>(k), .data = DType::Bool, .index = index});
  for (DType dt : row_kernel_data_dtypes())
    for (DType index : {DType::Int32, DType::Int64})
      for (int k = 0; k < kNumRowKernels; ++k)
        if (row_kernel_has_data(static_cast<RowKernel>(k)))
          specs.push_back({.kernel = static_cast<RowKernel>(k), .data = dt, .index = index});
  return specs;
}

}  // namespace cunp::sparse::detail
