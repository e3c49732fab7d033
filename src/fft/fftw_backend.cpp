// src/fft/fftw_backend.cpp — FFT on the cpu device through FFTW3's guru64 interface, in
// builds configured with -DCUNP_WITH_FFTW=ON (FFTW is GPL); otherwise cpu_fft_backend.cpp.
#ifdef CUNP_HAVE_FFTW

#include <memory>
#include <mutex>

#include <fftw3.h>

#include "cunp/error.hpp"
#include "fft/backend.hpp"

namespace cunp::fft::detail {

namespace {

// Note [FFTW thread safety]: only fftw_execute* is thread-safe; creating and destroying
// plans is not, for either precision (they share planner state), so every planner call
// and every fftw_destroy_plan runs under this one mutex. Executing a cached plan takes
// no lock: the new-array execute functions are re-entrant on distinct arrays.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

struct Double {
  using real = double;
  using complex = fftw_complex;
  using plan = fftw_plan;
  using iodim = fftw_iodim64;
  static plan c2c(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out, int sign) {
    return fftw_plan_guru64_dft(r, d, hr, hd, static_cast<complex*>(in), static_cast<complex*>(out), sign,
                                FFTW_ESTIMATE);
  }
  static plan r2c(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out) {
    return fftw_plan_guru64_dft_r2c(r, d, hr, hd, static_cast<real*>(in), static_cast<complex*>(out), FFTW_ESTIMATE);
  }
  static plan c2r(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out) {
    return fftw_plan_guru64_dft_c2r(r, d, hr, hd, static_cast<complex*>(in), static_cast<real*>(out), FFTW_ESTIMATE);
  }
  static void exec(plan p, Kind k, void* in, void* out) {
    if (k == Kind::C2C) fftw_execute_dft(p, static_cast<complex*>(in), static_cast<complex*>(out));
    else if (k == Kind::R2C) fftw_execute_dft_r2c(p, static_cast<real*>(in), static_cast<complex*>(out));
    else fftw_execute_dft_c2r(p, static_cast<complex*>(in), static_cast<real*>(out));
  }
  static void destroy(plan p) { fftw_destroy_plan(p); }
  static int alignment(void* p) { return fftw_alignment_of(static_cast<real*>(p)); }
};

struct Single {
  using real = float;
  using complex = fftwf_complex;
  using plan = fftwf_plan;
  using iodim = fftwf_iodim64;
  static plan c2c(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out, int sign) {
    return fftwf_plan_guru64_dft(r, d, hr, hd, static_cast<complex*>(in), static_cast<complex*>(out), sign,
                                 FFTW_ESTIMATE);
  }
  static plan r2c(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out) {
    return fftwf_plan_guru64_dft_r2c(r, d, hr, hd, static_cast<real*>(in), static_cast<complex*>(out), FFTW_ESTIMATE);
  }
  static plan c2r(int r, const iodim* d, int hr, const iodim* hd, void* in, void* out) {
    return fftwf_plan_guru64_dft_c2r(r, d, hr, hd, static_cast<complex*>(in), static_cast<real*>(out), FFTW_ESTIMATE);
  }
  static void exec(plan p, Kind k, void* in, void* out) {
    if (k == Kind::C2C) fftwf_execute_dft(p, static_cast<complex*>(in), static_cast<complex*>(out));
    else if (k == Kind::R2C) fftwf_execute_dft_r2c(p, static_cast<real*>(in), static_cast<complex*>(out));
    else fftwf_execute_dft_c2r(p, static_cast<complex*>(in), static_cast<real*>(out));
  }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
  static int alignment(void* p) { return fftwf_alignment_of(static_cast<real*>(p)); }
};

// The element strides of each transformed axis of a layout (outermost first).
std::vector<std::int64_t> axis_strides(const Layout& l, std::size_t rank) {
  std::vector<std::int64_t> s(rank);
  std::int64_t acc = l.stride;
  for (std::size_t j = rank; j-- > 0;) {
    s[j] = acc;
    if (j > 0) acc *= l.embed[j];
  }
  return s;
}

template <typename P>
class FftwPlan final : public Plan {
 public:
  FftwPlan(const PlanKey& key, void* in, void* out) : kind_(key.kind) {
    const std::size_t rank = key.n.size();
    const auto is = axis_strides(key.in, rank), os = axis_strides(key.out, rank);
    std::vector<typename P::iodim> dims(rank);
    for (std::size_t j = 0; j < rank; ++j) dims[j] = {key.n[j], is[j], os[j]};
    typename P::iodim batch{key.batch, key.in.dist, key.out.dist};
    const int r = static_cast<int>(rank);
    std::lock_guard lock(planner_mutex());
    switch (key.kind) {
      case Kind::C2C: plan_ = P::c2c(r, dims.data(), 1, &batch, in, out, key.forward ? FFTW_FORWARD : FFTW_BACKWARD); break;
      case Kind::R2C: plan_ = P::r2c(r, dims.data(), 1, &batch, in, out); break;
      case Kind::C2R: plan_ = P::c2r(r, dims.data(), 1, &batch, in, out); break;
    }
    if (!plan_) throw ValueError("FFTW could not plan the transform " + key.str());
  }
  ~FftwPlan() override {
    std::lock_guard lock(planner_mutex());
    P::destroy(plan_);
  }
  std::size_t work_size() const noexcept override { return 0; }
  void execute(void* in, void* out) const { P::exec(plan_, kind_, in, out); }

 private:
  Kind kind_;
  typename P::plan plan_ = nullptr;
};

template <typename P>
void run(PlanKey& key, void* in, void* out) {
  key.in_alignment = P::alignment(in);
  key.out_alignment = P::alignment(out);
  auto plan = cpu_fft_plan_cache().get(key, [&] { return std::make_unique<FftwPlan<P>>(key, in, out); });
  static_cast<const FftwPlan<P>&>(*plan).execute(in, out);
}

}  // namespace

LruPlanCache& cpu_fft_plan_cache() {
  // FFTW plans own no work area, so the cache is bounded by count only. The planner
  // mutex is made first so that it outlives the cache: static objects are destroyed
  // in reverse order of construction, and the cache's destructor destroys plans,
  // which takes that mutex.
  static std::mutex& planner = planner_mutex();
  static LruPlanCache cache("cpu, FFTW", 64, -1);
  (void)planner;
  return cache;
}

void execute_cpu_fft(PlanKey key, void* in, void* out) {
  if (key.double_precision) run<Double>(key, in, out);
  else run<Single>(key, in, out);
}

}  // namespace cunp::fft::detail

#endif  // CUNP_HAVE_FFTW
