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

// FFTW (cpu device). `key.in_alignment`/`out_alignment` are filled in here.
// NotImplementedError when built without FFTW.
void execute_fftw(PlanKey key, void* in, void* out);
LruPlanCache& fftw_plan_cache();

// cuFFT on CUDA device `device`, enqueued on its current stream; the work area comes
// from the device's memory pool.
void execute_cufft(int device, const PlanKey& key, void* in, void* out);
LruPlanCache& cufft_plan_cache(int device);

}  // namespace cunp::fft::detail
