// cunp/fft.hpp — discrete Fourier transforms (numpy.fft): complex, real and Hermitian
// transforms in 1, 2 and N dimensions, frequency helpers, and the plan caches.
// cuFFT on CUDA devices, FFTW3 on the cpu device (when built with CUNP_WITH_FFTW).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp::fft {

// NumPy's `norm`: which direction is scaled. Backward: the inverse by 1/n; Ortho: both
// by 1/sqrt(n); Forward: the forward transform by 1/n.
enum class Norm : std::uint8_t { Backward, Ortho, Forward };
// "backward", "ortho", "forward" (NumPy's None is Norm::Backward, the options'
// default); ValueError with NumPy's message otherwise, which has one space more for the
// transforms NumPy runs by swapping the direction (`swapped`: ifft*, irfft*, hfft, ihfft).
Norm parse_norm(std::string_view text, bool swapped = false);

// Options of the 1-d transforms. `n`: the transform length (the input is zero-padded or
// truncated along `axis`; for irfft/hfft the output length, default 2*(m-1)).
// `out`: an array of the result's shape to write into (cast with 'same_kind').
struct FftOptions {
  std::optional<std::int64_t> n;
  int axis = -1;
  Norm norm = Norm::Backward;
  std::optional<ndarray> out;
};

// Options of the N-d transforms. `s`: lengths along `axes` (-1 keeps the input's);
// `axes`: default all axes (the last len(s) when only s is given); repeated axes
// transform again, as in NumPy. The 2-d functions default `axes` to {-2, -1}.
struct FftnOptions {
  std::optional<std::vector<std::int64_t>> s;
  std::optional<std::vector<int>> axes;
  Norm norm = Norm::Backward;
  std::optional<ndarray> out;
};

// Complex transforms. The result is complex64 for float16/float32/complex64 input,
// complex128 otherwise (NumPy 2 computes single precision in single precision).
ndarray fft(const ndarray& a, const FftOptions& options = {});
ndarray ifft(const ndarray& a, const FftOptions& options = {});
ndarray fft2(const ndarray& a, const FftnOptions& options = {});
ndarray ifft2(const ndarray& a, const FftnOptions& options = {});
ndarray fftn(const ndarray& a, const FftnOptions& options = {});
ndarray ifftn(const ndarray& a, const FftnOptions& options = {});

// Real transforms: rfft* take real input (TypeError for complex) and keep n//2+1
// outputs along the last axis transformed; irfft* return real arrays (irfft of float16
// gives float16, irfft2/irfftn over more than one axis float32, as NumPy).
ndarray rfft(const ndarray& a, const FftOptions& options = {});
ndarray irfft(const ndarray& a, const FftOptions& options = {});
ndarray rfft2(const ndarray& a, const FftnOptions& options = {});
ndarray irfft2(const ndarray& a, const FftnOptions& options = {});
ndarray rfftn(const ndarray& a, const FftnOptions& options = {});
ndarray irfftn(const ndarray& a, const FftnOptions& options = {});

// Hermitian transforms: hfft of a Hermitian-symmetric signal (real result), ihfft its
// inverse.
ndarray hfft(const ndarray& a, const FftOptions& options = {});
ndarray ihfft(const ndarray& a, const FftOptions& options = {});

// Sample frequencies (float64): np.fft.fftfreq(n, d) and np.fft.rfftfreq(n, d).
struct FreqOptions {
  std::optional<Device> device;
};
ndarray fftfreq(std::int64_t n, double d = 1.0, const FreqOptions& options = {});
ndarray rfftfreq(std::int64_t n, double d = 1.0, const FreqOptions& options = {});
// np.fft.fftshift / ifftshift over `axes` (all axes by default).
ndarray fftshift(const ndarray& x, std::optional<std::vector<int>> axes = std::nullopt);
ndarray ifftshift(const ndarray& x, std::optional<std::vector<int>> axes = std::nullopt);

// An LRU cache of FFT plans: one per CUDA device (cuFFT plans, with their work-area
// sizes), one for the cpu device (FFTW plans). Python: cunp.fft.config.get_plan_cache().
// Limits: `size` plans (0 disables caching, -1 none), `memsize` bytes of plan work
// areas (-1: no limit); the least recently used plans go first.
class PlanCache {
 public:
  virtual ~PlanCache() = default;
  virtual std::int64_t get_size() const = 0;
  virtual void set_size(std::int64_t size) = 0;
  virtual std::int64_t get_memsize() const = 0;
  virtual void set_memsize(std::int64_t memsize) = 0;
  virtual std::int64_t get_curr_size() const = 0;     // plans cached now
  virtual std::int64_t get_curr_memsize() const = 0;  // their work-area bytes
  // Hit/miss counters since the last clear().
  virtual std::int64_t hits() const = 0;
  virtual std::int64_t misses() const = 0;
  virtual void clear() = 0;
  // A human-readable summary of the limits and of each cached plan, most recent first.
  virtual std::string show_info() const = 0;
};
// The plan cache of `device` (default: the current device). For the cpu device
// without FFTW, NotImplementedError.
PlanCache& get_plan_cache(std::optional<Device> device = std::nullopt);

// True when this build has an FFT backend for the cpu device: always (the built-in FFT,
// or FFTW in builds with -DCUNP_WITH_FFTW=ON).
bool cpu_backend_available() noexcept;

}  // namespace cunp::fft
