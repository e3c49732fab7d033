// src/builtin/builtin_kernels.cpp — see builtin_kernels.hpp.
#include "builtin/builtin_kernels.hpp"

#include <stdexcept>
#include <unordered_map>

#include "cuda/ops_types.hpp"
#include "creation/range.hpp"
#include "index/at_source.hpp"     // ufunc.at kernels
#include "index/index_source.hpp"  // indexing kernels
#include "linalg/int_gemm_source.hpp"  // integer/bool matmul
#include "random/random_cuda.hpp"
#include "reduce/gpu_reduce_source.hpp"
#include "reduce/gpu_scan_source.hpp"  // scans
#include "signal/upfirdn_source.hpp"     // upfirdn
#include "sparse/row_kernels_source.hpp"  // sparse row kernels
#include "stats/bins_source.hpp"  // histogram / bincount / digitize kernels
#include "ufunc/ufunc.hpp"

namespace cunp::cuda {
namespace {

constexpr int kNdimVariants[] = {0, 1, 2, 3, 4, 8, 16, 32, 64};

// The dtypes fills are generated for: fills run as the unsigned integer of the
// element width (complex128 as itself), see copy.cpp.
constexpr DType kFillDTypes[] = {DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64,
                                 DType::Complex128};

void add_variants(std::vector<CopyKernelSpec>& out, CopyKind kind, DType dst, DType src) {
  for (int ndim : kNdimVariants)
    for (bool index64 : {false, true})
      out.push_back({.kind = kind, .dst = dst, .src = src, .ndim = ndim, .index64 = index64});
}

}  // namespace

std::vector<ElementwiseSpec> builtin_elementwise_specs(const ufunc::Ufunc& uf) {
  // Ufuncs that share a functor (radians and deg2rad) share their kernels: a loop is
  // listed by the first ufunc (in registry order) that has it.
  std::vector<ElementwiseSpec> specs;
  const std::vector<const ufunc::Ufunc*> ufuncs = ufunc::all();
  auto listed_before = [&](const ufunc::Loop& loop) {
    for (const ufunc::Ufunc* other : ufuncs) {
      if (other == &uf) return false;
      if (other->header != uf.header) continue;
      for (const ufunc::Loop& l : other->loops)
        if (l.in == loop.in && l.out == loop.out &&
            std::string_view(other->functor_for(l)) == std::string_view(uf.functor_for(loop)))
          return true;
    }
    return false;
  };
  for (const ufunc::Loop& loop : uf.loops) {
    if (listed_before(loop)) continue;
    ElementwiseSpec spec = elementwise_spec(uf, loop);
    specs.push_back(spec);
    if (uf.nin == 2) {
      ElementwiseSpec scalar = spec;
      scalar.scalar_mask = static_cast<std::uint8_t>(1u << (uf.nout + 1));
      specs.push_back(scalar);
    }
    spec.ndim = 2;
    specs.push_back(spec);
  }
  return specs;
}

std::vector<CopyKernelSpec> builtin_copy_specs() {
  std::vector<CopyKernelSpec> specs;
  for (int s = 0; s < kNumDTypes; ++s)
    for (int d = 0; d < kNumDTypes; ++d)
      add_variants(specs, CopyKind::Cast, static_cast<DType>(d), static_cast<DType>(s));
  for (DType d : kFillDTypes) add_variants(specs, CopyKind::Fill, d, d);
  return specs;
}

std::vector<KernelSource> builtin_kernel_sources() {
  std::vector<KernelSource> sources;
  for (const CopyKernelSpec& spec : builtin_copy_specs())
    sources.push_back(copy_kernel_source(spec));
  for (const TransposeKernelSpec& spec : transpose_kernel_specs()) sources.push_back(transpose_kernel_source(spec));
  for (int unit : concat_unit_sizes()) sources.push_back(concat_kernel_source(unit));
  for (int d = 0; d < kNumDTypes; ++d) {
    const auto dt = static_cast<DType>(d);
    sources.push_back(arange_kernel_source(dt, arange_mode(dt)));
  }
  for (const ufunc::Ufunc* uf : ufunc::all())
    for (const ElementwiseSpec& spec : builtin_elementwise_specs(*uf))
      sources.push_back(elementwise_kernel_source(spec));
  for (const random::RandomKernelSpec& spec : random::random_kernel_specs())
    sources.push_back(random::random_kernel_source(spec));
  for (const reduce::ReduceKernelSpec& spec : reduce::builtin_reduce_specs())
    sources.push_back(reduce::reduce_kernel_source(spec));
  for (const reduce::ScanKernelSpec& spec : reduce::builtin_scan_specs())
    sources.push_back(reduce::scan_kernel_source(spec));
  // indexing kernels (src/index/index_source.cpp)
  for (const index::IndexKernelSpec& spec : index::index_kernel_specs())
    sources.push_back(index::index_kernel_source(spec));
  // histogram, bincount and digitize kernels (src/stats/bins_source.cpp)
  for (const stats::BinKernelSpec& spec : stats::bin_kernel_specs())
    sources.push_back(stats::bin_kernel_source(spec));
  // integer/bool matmul (src/linalg/int_gemm_source.cpp)
  for (linalg::detail::IntGemmTile tile : {linalg::detail::IntGemmTile::Large, linalg::detail::IntGemmTile::Small})
    for (DType dt : linalg::detail::int_gemm_dtypes())
      sources.push_back(linalg::detail::int_gemm_kernel_source(dt, tile));
  // ufunc.at kernels (src/index/at_source.cpp)
  for (const index::AtKernelSpec& spec : index::builtin_at_specs()) sources.push_back(index::at_kernel_source(spec));
  // upfirdn (src/signal/upfirdn_source.cpp)
  for (DType dt : signal::upfirdn_kernel_dtypes()) sources.push_back(signal::upfirdn_kernel_source(dt));
  // sparse row kernels (src/sparse/row_kernels_source.cpp)
  for (const sparse::detail::RowKernelSpec& spec : sparse::detail::row_kernel_specs())
    sources.push_back(sparse::detail::row_kernel_source(spec));
  return sources;
}

std::vector<BuiltinProgram> builtin_kernel_programs() {
  std::vector<BuiltinProgram> programs;
  for (const CopyKernelSpec& spec : builtin_copy_specs()) {
    const std::string group = spec.kind == CopyKind::Cast
                                  ? "cast_" + std::string(ops_type_code(spec.src)) + "_" +
                                        std::string(ops_type_code(spec.dst))
                                  : "fill_" + std::string(ops_type_code(spec.dst));
    if (programs.empty() || programs.back().name != group)
      programs.push_back(
          {.name = group, .source = std::string(copy_kernels_preamble()), .kernel_names = {}});
    programs.back().source += copy_kernel_entry(spec);
    programs.back().kernel_names.push_back(copy_kernel_name(spec));
  }
  // The tiled transpose and the single-kernel concatenate (copy_source.cpp), one program.
  BuiltinProgram layout{.name = "copy_layout", .source = std::string(copy_kernels_preamble()), .kernel_names = {}};
  for (const TransposeKernelSpec& spec : transpose_kernel_specs()) {
    layout.source += transpose_kernel_entry(spec);
    layout.kernel_names.push_back(transpose_kernel_name(spec));
  }
  for (int unit : concat_unit_sizes()) {
    layout.source += concat_kernel_entry(unit);
    layout.kernel_names.push_back(concat_kernel_name(unit));
  }
  programs.push_back(std::move(layout));
  for (int d = 0; d < kNumDTypes; ++d) {
    const auto dt = static_cast<DType>(d);
    KernelSource k = arange_kernel_source(dt, arange_mode(dt));
    programs.push_back({.name = k.kernel_name, .source = k.source, .kernel_names = {k.kernel_name}});
  }
  for (const ufunc::Ufunc* uf : ufunc::all()) {
    BuiltinProgram program{.name = "ufunc_" + uf->name,
                           .source = elementwise_preamble(uf->header),
                           .kernel_names = {},
                           .options = elementwise_compile_options()};
    for (const ElementwiseSpec& spec : builtin_elementwise_specs(*uf)) {
      program.source += elementwise_kernel_entry(spec);
      program.kernel_names.push_back(elementwise_kernel_name(spec));
    }
    if (!program.kernel_names.empty()) programs.push_back(std::move(program));
  }
  BuiltinProgram rng{.name = "random", .source = std::string(random::random_kernels_preamble()), .kernel_names = {}};
  for (const random::RandomKernelSpec& spec : random::random_kernel_specs()) {
    rng.source += random::random_kernel_entry(spec);
    rng.kernel_names.push_back(random::random_kernel_name(spec));
  }
  programs.push_back(std::move(rng));
  // Reductions: one program per (operation, input dtype).
  for (const reduce::ReduceKernelSpec& spec : reduce::builtin_reduce_specs()) {
    const std::string group = "reduce_" + reduce::reduce_kernel_name(
                                              {.op = spec.op, .in = spec.in, .acc = spec.in, .kind = {}, .center = spec.center});
    if (programs.back().name != group)
      programs.push_back({.name = group,
                          .source = reduce::reduce_preamble(),
                          .kernel_names = {},
                          .options = reduce::reduce_compile_options()});
    programs.back().source += reduce::reduce_kernel_entry(spec);
    programs.back().kernel_names.push_back(reduce::reduce_kernel_name(spec));
  }
  // Scans: one program per (operation, input dtype).
  for (const reduce::ScanKernelSpec& spec : reduce::builtin_scan_specs()) {
    reduce::ScanKernelSpec first = spec;
    first.acc = spec.in;
    first.kind = {};
    const std::string group = "scan_" + reduce::scan_kernel_name(first);
    if (programs.back().name != group)
      programs.push_back({.name = group,
                          .source = reduce::scan_preamble(),
                          .kernel_names = {},
                          .options = reduce::scan_compile_options()});
    programs.back().source += reduce::scan_kernel_entry(spec);
    programs.back().kernel_names.push_back(reduce::scan_kernel_name(spec));
  }
  // indexing kernels (src/index/index_source.cpp), one program
  BuiltinProgram ix{.name = "index", .source = std::string(index::index_kernels_preamble()), .kernel_names = {}};
  for (const index::IndexKernelSpec& spec : index::index_kernel_specs()) {
    ix.source += index::index_kernel_entry(spec);
    ix.kernel_names.push_back(index::index_kernel_name(spec));
  }
  programs.push_back(std::move(ix));
  // histogram, bincount and digitize kernels (src/stats/bins_source.cpp): one program
  // per kind and data dtype
  for (const stats::BinKernelSpec& spec : stats::bin_kernel_specs()) {
    const std::string group = "stats_" + std::to_string(static_cast<int>(spec.kind)) + "_" +
                              std::string(ops_type_code(spec.data));
    if (programs.back().name != group)
      programs.push_back({.name = group,
                          .source = std::string(stats::bin_kernels_preamble()),
                          .kernel_names = {},
                          .options = stats::bin_compile_options()});
    programs.back().source += stats::bin_kernel_entry(spec);
    programs.back().kernel_names.push_back(stats::bin_kernel_name(spec));
  }
  // integer/bool matmul (src/linalg/int_gemm_source.cpp), one program
  BuiltinProgram igemm{.name = "int_gemm", .source = linalg::detail::int_gemm_preamble(), .kernel_names = {}};
  for (linalg::detail::IntGemmTile tile : {linalg::detail::IntGemmTile::Large, linalg::detail::IntGemmTile::Small}) {
    for (DType dt : linalg::detail::int_gemm_dtypes()) {
      igemm.source += linalg::detail::int_gemm_kernel_entry(dt, tile);
      igemm.kernel_names.push_back(linalg::detail::int_gemm_kernel_name(dt, tile));
    }
  }
  programs.push_back(std::move(igemm));
  // ufunc.at kernels (src/index/at_source.cpp), one program per functor header
  for (const index::AtKernelSpec& spec : index::builtin_at_specs()) {
    const std::string group = "at_" + std::string(spec.header);
    if (programs.back().name != group)
      programs.push_back({.name = group,
                          .source = index::at_kernels_preamble(spec.header),
                          .kernel_names = {},
                          .options = elementwise_compile_options()});
    programs.back().source += index::at_kernel_entry(spec);
    programs.back().kernel_names.push_back(index::at_kernel_name(spec));
  }
  // upfirdn (src/signal/upfirdn_source.cpp): one program per dtype, as the engine compiles it
  for (DType dt : signal::upfirdn_kernel_dtypes()) {
    cuda::KernelSource k = signal::upfirdn_kernel_source(dt);
    programs.push_back({.name = "signal_" + k.kernel_name, .source = k.source, .kernel_names = {k.kernel_name}});
  }
  // sparse row kernels (src/sparse/row_kernels_source.cpp): the index-only ones in one
  // program, the others one program per data dtype
  for (const sparse::detail::RowKernelSpec& spec : sparse::detail::row_kernel_specs()) {
    const std::string group = sparse::detail::row_kernel_has_data(spec.kernel)
                                  ? "sparse_" + std::string(ops_type_code(spec.data))
                                  : std::string("sparse_index");
    if (programs.back().name != group)
      programs.push_back({.name = group,
                          .source = sparse::detail::row_kernels_preamble(),
                          .kernel_names = {},
                          .options = sparse::detail::row_kernel_compile_options()});
    programs.back().source += sparse::detail::row_kernel_entry(spec);
    programs.back().kernel_names.push_back(sparse::detail::row_kernel_name(spec));
  }
  return programs;
}

std::vector<ArchiveProgram> builtin_archive_programs() {
  std::unordered_map<std::string, KernelSource> singles;
  for (KernelSource& s : builtin_kernel_sources()) {
    const std::string name = s.kernel_name;
    if (singles.contains(name)) throw std::logic_error("kernel archive: two built-in kernels named " + name);
    singles.emplace(name, std::move(s));
  }
  std::vector<ArchiveProgram> programs;
  for (BuiltinProgram& p : builtin_kernel_programs()) {
    ArchiveProgram a{.name = std::move(p.name), .source = std::move(p.source), .options = p.options, .kernels = {}};
    for (const std::string& k : p.kernel_names) {
      const auto it = singles.find(k);
      if (it == singles.end())
        throw std::logic_error("kernel archive: " + k + " (in " + a.name + ") is no single built-in program, or in two batches");
      // The batch must compile the kernel exactly as its own program does, arch aside.
      CompileOptions mine = it->second.options, batch = a.options;
      mine.arch = batch.arch = 90;
      if (nvrtc_option_list(mine) != nvrtc_option_list(batch) || !it->second.options.name_expressions.empty())
        throw std::logic_error("kernel archive: " + k + " is compiled with other options than its batch " + a.name);
      a.kernels.push_back(std::move(it->second));
      singles.erase(it);
    }
    programs.push_back(std::move(a));
  }
  if (!singles.empty())
    throw std::logic_error("kernel archive: " + singles.begin()->first + " is in no batch");
  return programs;
}

}  // namespace cunp::cuda
