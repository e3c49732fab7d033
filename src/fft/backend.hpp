// src/fft/backend.hpp — the two FFT backends behind one call: execute a planned
// transform on raw pointers laid out as the key says.
#pragma once

#include "cunp/device.hpp"
#include "fft/plan_cache.hpp"
#include "fft/plan_key.hpp"

namespace cunp::fft::detail {

// The largest rank one plan handles (cuFFT's limit). Both backends use it so that the
// cpu device runs the same multi-pass decomposition the GPU does.
inline constexpr int kMaxPlanRank = 3;

// The cpu device: cunp's own FFT (cpu_fft_backend.cpp, Note [Built-in cpu FFT]) by
// default, FFTW in builds with -DCUNP_WITH_FFTW=ON (fftw_backend.cpp; it fills in
// `key.in_alignment`/`out_alignment`).
void execute_cpu_fft(PlanKey key, void* in, void* out);
LruPlanCache& cpu_fft_plan_cache();

// cuFFT on CUDA device `device`, enqueued on its current stream; the work area comes
// from the device's memory pool.
void execute_cufft(int device, const PlanKey& key, void* in, void* out);
LruPlanCache& cufft_plan_cache(int device);

}  // namespace cunp::fft::detail
