// src/signal/engines.hpp — the cpu and cuda engines behind cunp/signal.hpp. filter.cpp
// checks the arguments, resolves the dtype and brings every operand into the layouts
// below; the engines only compute.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::signal::detail {

// A linear filter of one dtype (float32/64, complex64/128), ready to run.
struct IirFilter {
  bool sos = false;
  int order = 0;  // lfilter: p = max(len(a), len(b)) - 1 >= 1; sosfilt: sections >= 1
  int dim = 0;    // the state's size D: p, or 2 * sections
  DType dtype = DType::Float64;
  ndarray coef;  // on the data's device: lfilter b[0..p] then a[0..p] (normalized,
                 // zero-padded), sosfilt the (sections, 6) array
  std::vector<std::complex<double>> host;  // the same values, widened (host tables)
};

// Filters every lane. x, y: (lanes, n) views of the filter's dtype, any element strides;
// zi/zf: (lanes, dim) C-contiguous arrays of the dtype, or null (zero state / not wanted).
void cpu_iir(const IirFilter& f, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf);
void gpu_iir(const IirFilter& f, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf);

// Sections one sosfilt pass takes on a CUDA device (Note [Section groups] in
// filter_cuda.cpp): the state of 2 * kSosGroupSections values fits the kernels' smallest
// register variant.
inline constexpr int kSosGroupSections = 4;

// The layout gpu_iir reads fastest: lane-major (time stride = lanes, one thread per
// lane: many short lanes, or a state too large for the scan) rather than time-major.
bool gpu_prefers_lane_major(std::int64_t lanes, std::int64_t n, int dim);

// ---- the blocked scan's plan and tables (Note [Blocked IIR scan]), host-only pieces of
// gpu_iir kept here so that tests can run the kernels' algorithm without a GPU.

// A lane of n samples in chunks of `chunk`, `block` chunks per thread block: nblocks
// blocks per lane, and m[l] carries per lane at level l of the scan (m[0] == nblocks,
// m[l + 1] = ceil(m[l] / block), the last one 1). Level l's carries are scanned with
// the l + 1-th power table.
struct ScanPlan {
  std::int64_t chunk = 0;
  std::int64_t nblocks = 0;
  std::vector<std::int64_t> m;
  int levels() const noexcept { return static_cast<int>(m.size()); }
};
ScanPlan make_scan_plan(std::int64_t n, std::int64_t chunk, int block);

// The power tables of the scan, row-major d x d matrices in complex double: tables[l][k]
// = M_l^k for k = 0..block, M_0 the state transition of `chunk` zero-input samples of f,
// M_{l+1} = M_l^block.
using Matrix = std::vector<std::complex<double>>;
std::vector<std::vector<Matrix>> scan_power_tables(const IirFilter& f, std::int64_t chunk,
                                                   int block, int levels);

// lfilter with a == [1] on a CUDA device (the cpu runs it as an IirFilter): b has nb
// taps (normalized), p = max(len(a), len(b)) - 1 states.
void gpu_fir(const ndarray& b, int p, const ndarray& x, const ndarray& y, const ndarray* zi,
             const ndarray* zf);

// The direct 'valid' correlation (cunp::signal::correlate_valid): `offsets` holds each
// tap's element offset into `in`, `taps` the taps (contiguous, in.dtype()) in the same
// order; out is C-contiguous with in's dtype.
void cpu_correlate(const ndarray& in, const ndarray& taps, const std::vector<std::int64_t>& offsets,
                   const ndarray& out);
void gpu_correlate(const ndarray& in, const ndarray& taps, const std::vector<std::int64_t>& offsets,
                   const ndarray& out);
// The 2-d correlation with a virtual constant padding (Note [Tiled 2-d correlation]):
// out[y, x] = sum kernel[r, c] * in[y + r - ph, x + c - pw], `fill` outside `in`. False
// (nothing done) when the kernel's tile does not fit in shared memory.
bool gpu_correlate2d(const ndarray& in, const ndarray& kernel, std::int64_t ph, std::int64_t pw,
                     const Scalar& fill, const ndarray& out);

}  // namespace cunp::signal::detail
