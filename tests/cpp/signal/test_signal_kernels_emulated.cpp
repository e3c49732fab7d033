// Runs the CUDA kernels of src/signal/signal_kernels.cuh on the host, so that their
// algorithm is checked without a GPU: each thread block is a set of std::threads meeting
// at a std::barrier for __syncthreads, __shared__ arrays are function statics (blocks run
// one after another). With 4-thread blocks and 3-sample chunks the blocked IIR scan goes
// through several levels on signals of a few hundred samples, and its plan and tables
// (engines.hpp, the code gpu_iir uses) meet the kernels' indexing. The reference is the
// sequential recurrence the cpu engine runs.
#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "ops/complex.h"
#include "signal/engines.hpp"
#include "signal/iir_ops.h"

namespace emu {
struct Dim3 {
  unsigned x = 0, y = 1, z = 1;
};
inline thread_local Dim3 thread_index;
inline Dim3 block_index, block_dim, grid_dim;
inline std::barrier<>* block_barrier = nullptr;
// The dynamic shared memory of the running block.
inline std::vector<unsigned char>& dynamic_shared() {
  static std::vector<unsigned char> bytes(64 * 1024);
  return bytes;
}

// Runs kernel() as a grid of grid x grid_y blocks of threads x threads_y threads, one
// block after another.
template <typename F>
void run(long long grid, int threads, F&& kernel, long long grid_y = 1, int threads_y = 1) {
  grid_dim = {static_cast<unsigned>(grid), static_cast<unsigned>(grid_y), 1};
  block_dim = {static_cast<unsigned>(threads), static_cast<unsigned>(threads_y), 1};
  for (long long by = 0; by < grid_y; ++by)
    for (long long bx = 0; bx < grid; ++bx) {
      block_index = {static_cast<unsigned>(bx), static_cast<unsigned>(by), 0};
      std::barrier<> bar(threads * threads_y);
      block_barrier = &bar;
      std::vector<std::thread> team;
      for (int ty = 0; ty < threads_y; ++ty)
        for (int tx = 0; tx < threads; ++tx)
          team.emplace_back([&kernel, tx, ty] {
            thread_index = {static_cast<unsigned>(tx), static_cast<unsigned>(ty), 0};
            kernel();
          });
      for (std::thread& t : team) t.join();
    }
}
}  // namespace emu

#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __syncthreads() ::emu::block_barrier->arrive_and_wait()
#define threadIdx ::emu::thread_index
#define blockIdx ::emu::block_index
#define blockDim ::emu::block_dim
#define gridDim ::emu::grid_dim
#define CUNP_SIG_DYNAMIC_SHARED(name) unsigned char* name = ::emu::dynamic_shared().data()
#include "signal/signal_kernels.cuh"
#undef __device__
#undef __forceinline__
#undef __shared__
#undef __syncthreads
#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim
#undef CUNP_SIG_DYNAMIC_SHARED

namespace cunp::signal {
namespace {

using detail::IirFilter;
using signal_ops::i64;

constexpr int kBlock = 4;
constexpr int kThreads = 4;  // the grid-striding kernels

template <typename T>
T from(std::complex<double> v) {
  if constexpr (std::is_same_v<T, ops::c64>)
    return {static_cast<float>(v.real()), static_cast<float>(v.imag())};
  else if constexpr (std::is_same_v<T, ops::c128>)
    return {v.real(), v.imag()};
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<long long>(std::lround(v.real() * 8)));
  else
    return static_cast<T>(v.real());
}
template <typename T>
std::complex<double> to(T v) {
  if constexpr (std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>)
    return {v.re, v.im};
  else if constexpr (std::is_integral_v<T>)
    return {static_cast<double>(static_cast<long long>(v)), 0.0};
  else
    return {static_cast<double>(v), 0.0};
}

template <typename T>
double tolerance() {
  if constexpr (std::is_integral_v<T>) return 0.0;  // exact (modulo 2^64)
  return std::is_same_v<T, ops::c64> || std::is_same_v<T, float> ? 2e-4 : 1e-10;
}

template <typename T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  double scale = 1e-30;
  for (const T& v : want) scale = std::max(scale, std::abs(to(v)));
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_LE(std::abs(to(got[i]) - to(want[i])), tolerance<T>() * scale) << what << " at " << i;
}

// A stable filter: lfilter coefficients b[0..p], a[0..p] (a0 == 1), or `p / 2` sections.
template <typename T>
std::vector<T> filter_coefficients(bool sos, int p) {
  // Second-order sections with poles inside the unit circle, a complex tilt on complex T.
  const std::complex<double> tilt = std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128>
                                        ? std::complex<double>(0.9, 0.3)
                                        : std::complex<double>(1.0, 0.0);
  std::vector<std::vector<std::complex<double>>> sections;
  for (int s = 0; s < (p + 1) / 2; ++s) {
    const double r = 0.55 + 0.1 * s;
    const double c = std::cos(0.4 + 0.5 * s);
    sections.push_back({0.2 * tilt, 0.3, 0.1 + 0.05 * s, 1.0, -2.0 * r * c * tilt, r * r});
  }
  std::vector<T> out;
  if (sos) {
    for (const auto& s : sections)
      for (const auto& v : s) out.push_back(from<T>(v));
    return out;
  }
  // The product of the sections' polynomials, cut to order p.
  std::vector<std::complex<double>> b{1.0}, a{1.0};
  for (const auto& s : sections) {
    std::vector<std::complex<double>> nb(b.size() + 2), na(a.size() + 2);
    for (std::size_t i = 0; i < b.size(); ++i)
      for (int k = 0; k < 3; ++k) nb[i + k] += b[i] * s[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < a.size(); ++i)
      for (int k = 0; k < 3; ++k) na[i + k] += a[i] * s[static_cast<std::size_t>(3 + k)];
    b = nb;
    a = na;
  }
  b.resize(static_cast<std::size_t>(p) + 1);
  a.resize(static_cast<std::size_t>(p) + 1);
  for (const auto& v : b) out.push_back(from<T>(v));
  for (const auto& v : a) out.push_back(from<T>(v));
  return out;
}

template <typename T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist;
  std::vector<T> v(n);
  for (T& x : v)
    x = from<T>(
        {dist(gen), std::is_same_v<T, ops::c64> || std::is_same_v<T, ops::c128> ? dist(gen) : 0.0});
  return v;
}

template <bool SOS, typename T>
struct Case {
  int order;
  int dim;
  i64 lanes, n;
  std::vector<T> coef, x, zi;
  std::vector<T> y_ref, zf_ref;

  Case(int p, i64 lanes_, i64 n_, bool with_zi) : lanes(lanes_), n(n_) {
    coef = filter_coefficients<T>(SOS, p);
    order = SOS ? (p + 1) / 2 : p;
    dim = SOS ? 2 * order : p;
    x = random_values<T>(static_cast<std::size_t>(lanes * n), 1);
    if (with_zi) zi = random_values<T>(static_cast<std::size_t>(lanes * dim), 2);
    y_ref.resize(x.size());
    zf_ref.resize(static_cast<std::size_t>(lanes * dim));
    for (i64 l = 0; l < lanes; ++l) {
      std::vector<T> z(static_cast<std::size_t>(dim) + 1);
      if (with_zi) std::copy(zi.begin() + l * dim, zi.begin() + (l + 1) * dim, z.begin());
      signal_ops::iir_run<signal_ops::kDynamic, SOS, T>(
          coef.data(), order, z.data(), x.data() + l * n, 1, y_ref.data() + l * n, 1, n);
      std::copy(z.begin(), z.begin() + dim, zf_ref.begin() + l * dim);
    }
  }

  IirFilter filter() const {
    IirFilter f{.sos = SOS, .order = order, .dim = dim, .dtype = DType::Float64};
    for (const T& v : coef) f.host.push_back(to(v));
    return f;
  }

  signal_ops::IirParams params(std::vector<T>& y, std::vector<T>& zf) const {
    signal_ops::IirParams p{};
    p.x = x.data();
    p.y = y.data();
    p.coef = coef.data();
    p.zi = zi.empty() ? nullptr : zi.data();
    p.zf = zf.data();
    p.n = n;
    p.lanes = lanes;
    p.x_lane = n;
    p.x_time = 1;
    p.y_lane = n;
    p.y_time = 1;
    p.order = order;
    p.dim = dim;
    return p;
  }
};

// The driver of filter_cuda.cpp's run_scan, with emulated launches.
template <bool SOS, typename T>
void check_scan(int p, i64 lanes, i64 n, bool with_zi, i64 chunk) {
  const Case<SOS, T> c(p, lanes, n, with_zi);
  std::vector<T> y(c.x.size()), zf(c.zf_ref.size());
  signal_ops::IirParams ip = c.params(y, zf);
  const detail::ScanPlan plan = detail::make_scan_plan(n, chunk, kBlock);
  const auto tables = detail::scan_power_tables(c.filter(), chunk, kBlock, plan.levels());
  std::vector<std::vector<T>> pow(tables.size());
  for (std::size_t l = 0; l < tables.size(); ++l)
    for (const auto& mat : tables[l])
      for (const auto& v : mat) pow[l].push_back(from<T>(v));
  const int d = c.dim;
  std::vector<T> states(static_cast<std::size_t>(lanes * plan.nblocks * kBlock * d));
  std::vector<std::vector<T>> carries;
  for (std::int64_t ml : plan.m) carries.emplace_back(static_cast<std::size_t>(lanes * ml * d));
  ip.chunk = chunk;
  ip.nblocks = plan.nblocks;
  ip.states = states.data();
  ip.carries = carries[0].data();
  ip.pow = pow[0].data();
  emu::run(lanes * plan.nblocks, kBlock, [&] { signal_dev::iir_chunks<8, SOS, T, kBlock>(ip); });
  auto level = [&](std::size_t l) {
    signal_ops::ScanParams s{};
    s.states = carries[l].data();
    s.carries = carries[l + 1].data();
    s.pow = pow[l + 1].data();
    s.m = plan.m[l];
    s.lanes = lanes;
    s.nblocks = plan.m[l + 1];
    s.dim = d;
    return s;
  };
  for (std::size_t l = 0; l + 1 < plan.m.size(); ++l) {
    const signal_ops::ScanParams s = level(l);
    emu::run(lanes * s.nblocks, kBlock, [&] { signal_dev::scan_states<8, T, kBlock>(s); });
  }
  for (std::size_t l = plan.m.size() - 1; l-- > 0;) {
    const signal_ops::ScanParams s = level(l);
    if (s.nblocks > 1)
      emu::run(lanes * s.nblocks, kBlock, [&] { signal_dev::fix_states<8, T, kBlock>(s); });
  }
  emu::run(lanes * plan.nblocks, kBlock, [&] { signal_dev::iir_final<8, SOS, T, kBlock>(ip); });
  expect_close(y, c.y_ref, "y");
  expect_close(zf, c.zf_ref, "zf");
}

TEST(SignalKernelsEmulated, PlanLevels) {
  const detail::ScanPlan plan = detail::make_scan_plan(200, 3, 4);  // 67 chunks
  EXPECT_EQ(plan.nblocks, 17);
  EXPECT_EQ(plan.m, (std::vector<std::int64_t>{17, 5, 2, 1}));
  EXPECT_EQ(detail::make_scan_plan(5, 8, 4).m, (std::vector<std::int64_t>{1}));
}

TEST(SignalKernelsEmulated, BlockedScanLfilter) {
  check_scan<false, double>(4, 2, 200, true, 3);  // four levels, partial last chunk
  check_scan<false, double>(4, 1, 48, false, 3);  // exactly full blocks
  check_scan<false, double>(6, 3, 13, true, 3);   // one block
  check_scan<false, double>(3, 1, 1, true, 3);    // one sample
  check_scan<false, float>(2, 2, 300, true, 4);
  check_scan<false, ops::c64>(4, 2, 150, true, 3);
  check_scan<false, ops::c128>(5, 1, 100, true, 2);
}

TEST(SignalKernelsEmulated, BlockedScanSosfilt) {
  check_scan<true, double>(6, 2, 200, true, 3);
  check_scan<true, double>(8, 1, 97, false, 5);
  check_scan<true, ops::c128>(4, 2, 120, true, 3);
  check_scan<true, float>(6, 1, 250, true, 3);
}

template <bool SOS, typename T>
void check_lanes(bool global) {
  const Case<SOS, T> c(4, 11, 37, true);
  std::vector<T> y(c.x.size()), zf(c.zf_ref.size()),
      scratch(static_cast<std::size_t>(c.lanes * (c.dim + 1)));
  signal_ops::IirParams ip = c.params(y, zf);
  ip.states = scratch.data();
  if (global)
    emu::run(2, kThreads, [&] { signal_dev::iir_lanes_global<SOS, T>(ip); });
  else
    emu::run(2, kThreads, [&] { signal_dev::iir_lanes<8, SOS, T>(ip); });
  expect_close(y, c.y_ref, "y");
  expect_close(zf, c.zf_ref, "zf");
}

TEST(SignalKernelsEmulated, OneThreadPerLane) {
  check_lanes<false, double>(false);
  check_lanes<true, double>(false);
  check_lanes<false, ops::c64>(true);
  check_lanes<true, double>(true);
}

TEST(SignalKernelsEmulated, Fir) {
  // b of 5 taps, p = 6 states (a = [1, 0, ...] longer than b); x of 3 lanes x 4 samples
  // (shorter than p, so zf takes part of zi).
  const int nb = 5, p = 6;
  const i64 lanes = 3, n = 4;
  const std::vector<double> b = {0.5, -1.0, 2.0, 0.25, 3.0};
  const std::vector<double> x = random_values<double>(lanes * n, 3),
                            zi = random_values<double>(lanes * p, 4);
  std::vector<double> y(x.size()), zf(zi.size()), y_ref(x.size()), zf_ref(zi.size());
  std::vector<double> coef(2 * (p + 1), 0.0);
  std::copy(b.begin(), b.end(), coef.begin());
  coef[static_cast<std::size_t>(p + 1)] = 1.0;
  for (i64 l = 0; l < lanes; ++l) {
    std::vector<double> z(zi.begin() + l * p, zi.begin() + (l + 1) * p);
    z.push_back(0.0);
    signal_ops::iir_run<signal_ops::kDynamic, false, double>(
        coef.data(), p, z.data(), x.data() + l * n, 1, y_ref.data() + l * n, 1, n);
    std::copy(z.begin(), z.begin() + p, zf_ref.begin() + l * p);
  }
  signal_ops::FirParams fp{};
  fp.x = x.data();
  fp.y = y.data();
  fp.b = b.data();
  fp.zi = zi.data();
  fp.zf = zf.data();
  fp.n = n;
  fp.lanes = lanes;
  fp.x_lane = n;
  fp.x_time = 1;
  fp.y_lane = n;
  fp.y_time = 1;
  fp.nb = nb;
  fp.p = p;
  emu::run(2, kThreads, [&] { signal_dev::fir<double>(fp); });
  emu::run(2, kThreads, [&] { signal_dev::fir_state<double>(fp); });
  expect_close(y, y_ref, "y");
  expect_close(zf, zf_ref, "zf");
}

TEST(SignalKernelsEmulated, Correlate) {
  // A (5, 7) input read through negative strides, a (2, 3) kernel.
  const std::vector<double> in = random_values<double>(35, 5), w = random_values<double>(6, 6);
  signal_ops::CorrParams p{};
  p.in = in.data() + 34;  // in[::-1, ::-1]
  p.w = w.data();
  std::vector<i64> off;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) off.push_back(-7 * r - c);
  p.off = off.data();
  std::vector<double> out(4 * 5);
  p.out = out.data();
  p.nout = 20;
  p.taps = 6;
  p.ndim = 2;
  p.shape[0] = 4;
  p.shape[1] = 5;
  p.stride[0] = -7;
  p.stride[1] = -1;
  std::vector<double> ref(20, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c)
          ref[static_cast<std::size_t>(i * 5 + j)] +=
              in[static_cast<std::size_t>(34 - 7 * (i + r) - (j + c))] *
              w[static_cast<std::size_t>(r * 3 + c)];
  for (int staged : {0, 1}) {
    p.staged = staged;
    std::fill(out.begin(), out.end(), 0.0);
    emu::run(2, kThreads, [&] { signal_dev::correlate<double>(p); });
    expect_close(out, ref, "out");
  }
}

// The tiled kernel over several tiles in x and y, a strided input, padding on every side
// (the fill value outside), and the partial tiles of the edges.
template <typename T>
void check_correlate2d(int kh, int kw, i64 ph, i64 pw, i64 qh, i64 qw) {
  const i64 ih = 45, iw = 70;  // read through a transposed view of a (70, 45) array
  const std::vector<T> in = random_values<T>(static_cast<std::size_t>(ih * iw), 7);
  const std::vector<T> w = random_values<T>(static_cast<std::size_t>(kh * kw), 8);
  const T fill = from<T>({0.75, -0.5});
  const i64 oh = ih + ph + qh - kh + 1, ow = iw + pw + qw - kw + 1;
  signal_ops::Corr2dParams p{};
  p.in = in.data();
  p.w = w.data();
  std::vector<T> out(static_cast<std::size_t>(oh * ow));
  p.out = out.data();
  p.ih = ih;
  p.iw = iw;
  p.is0 = 1;
  p.is1 = ih;
  p.oh = oh;
  p.ow = ow;
  p.ph = ph;
  p.pw = pw;
  p.kh = kh;
  p.kw = kw;
  std::memcpy(p.fill, &fill, sizeof(T));
  auto at = [&](i64 y, i64 x) {
    return (y >= 0 && y < ih && x >= 0 && x < iw) ? in[static_cast<std::size_t>(y + x * ih)] : fill;
  };
  std::vector<T> ref(out.size());
  for (i64 y = 0; y < oh; ++y)
    for (i64 x = 0; x < ow; ++x) {
      T acc{};
      for (int r = 0; r < kh; ++r)
        for (int c = 0; c < kw; ++c)
          acc = acc + at(y + r - ph, x + c - pw) * w[static_cast<std::size_t>(r * kw + c)];
      ref[static_cast<std::size_t>(y * ow + x)] = acc;
    }
  const long long gx = (ow + signal_ops::kCorrTileX - 1) / signal_ops::kCorrTileX;
  const long long gy = (oh + signal_ops::kCorrTileY * signal_ops::kCorrRows - 1) /
                       (signal_ops::kCorrTileY * signal_ops::kCorrRows);
  emu::run(
      gx, signal_ops::kCorrTileX, [&] { signal_dev::correlate2d<T>(p); }, gy,
      signal_ops::kCorrTileY);
  expect_close(out, ref, "out");
}

TEST(SignalKernelsEmulated, Correlate2dTiles) {
  check_correlate2d<double>(9, 9, 4, 4, 4, 4);  // 'same'
  check_correlate2d<double>(3, 5, 2, 4, 2, 4);  // 'full'
  check_correlate2d<double>(4, 2, 0, 0, 0, 0);  // 'valid'
  check_correlate2d<ops::c64>(2, 3, 1, 0, 1, 2);
  check_correlate2d<ops::u64>(3, 3, 1, 1, 1, 1);
}

}  // namespace
}  // namespace cunp::signal
