// cunp/signal_windows.hpp — scipy.signal's window functions (scipy.signal.windows,
// get_window) and upfirdn, the polyphase upsample/filter/downsample that resample_poly
// and decimate build on.
//
// A window is a short float64 vector: it is computed on the host with SciPy's
// formulas and placed on the requested device (the current one by default) in one
// copy, like cunp/window.hpp's NumPy windows. upfirdn runs on the input's device.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/ndarray.hpp"

namespace cunp::signal {

// Options every window takes. `sym`: true gives the symmetric window (filter design),
// false the periodic one (spectral analysis: the symmetric window of M + 1 points
// without its last point).
struct WindowOptions {
  bool sym = true;
  std::optional<Device> device;  // default: the current device
};

// Every window returns M float64 samples; M == 0 gives an empty array and M == 1 [1.0]
// (kaiser_bessel_derived aside). M < 0 is a ValueError.
ndarray general_cosine(std::int64_t M, std::span<const double> a,
                       WindowOptions options = {});  // sum a[k] cos(k x)
ndarray boxcar(std::int64_t M, WindowOptions options = {});
ndarray triang(std::int64_t M, WindowOptions options = {});
ndarray parzen(std::int64_t M, WindowOptions options = {});
ndarray bohman(std::int64_t M, WindowOptions options = {});
ndarray blackman(std::int64_t M, WindowOptions options = {});
ndarray nuttall(std::int64_t M, WindowOptions options = {});
ndarray blackmanharris(std::int64_t M, WindowOptions options = {});
ndarray flattop(std::int64_t M, WindowOptions options = {});
ndarray bartlett(std::int64_t M, WindowOptions options = {});
ndarray hann(std::int64_t M, WindowOptions options = {});
ndarray tukey(std::int64_t M, double alpha = 0.5, WindowOptions options = {});
ndarray barthann(std::int64_t M, WindowOptions options = {});
ndarray general_hamming(std::int64_t M, double alpha, WindowOptions options = {});
ndarray hamming(std::int64_t M, WindowOptions options = {});
ndarray kaiser(std::int64_t M, double beta, WindowOptions options = {});
// Defined for even M and sym only (ValueError otherwise, SciPy's messages).
ndarray kaiser_bessel_derived(std::int64_t M, double beta, WindowOptions options = {});
ndarray gaussian(std::int64_t M, double std, WindowOptions options = {});
ndarray general_gaussian(std::int64_t M, double p, double sig, WindowOptions options = {});
// The Dolph-Chebyshev window of `at` dB sidelobe attenuation (SciPy warns below 45 dB;
// the Python layer does, this function does not).
ndarray chebwin(std::int64_t M, double at, WindowOptions options = {});
ndarray cosine(std::int64_t M, WindowOptions options = {});
// `center` must be empty when sym (ValueError); empty: the middle, (M-1)/2.
ndarray exponential(std::int64_t M, std::optional<double> center = std::nullopt, double tau = 1.0,
                    WindowOptions options = {});
ndarray taylor(std::int64_t M, std::int64_t nbar = 4, double sll = 30, bool norm = true,
               WindowOptions options = {});
ndarray lanczos(std::int64_t M, WindowOptions options = {});

// Discrete prolate spheroidal (Slepian) sequences: the `Kmax` tapers (one, returned
// 1-d, when Kmax is empty) of half-bandwidth NW, from the tridiagonal eigenproblem
// (LAPACK's dstevr on the host). `norm`: "approximate" (the default for a single taper),
// "subsample" or "2" (unit energy, the default when Kmax is given).
struct DpssOptions {
  std::optional<std::int64_t> Kmax;
  std::optional<std::string> norm;
  bool return_ratios = false;
};
struct DpssResult {
  ndarray windows;                // (M,) or (Kmax, M)
  std::optional<ndarray> ratios;  // the concentration ratios when return_ratios: () or (Kmax,)
};
DpssResult dpss(std::int64_t M, double NW, DpssOptions dpss_options = {},
                WindowOptions options = {});

// ---- get_window ---------------------------------------------------------------------

// What a window name takes after M: nothing, required parameters, or optional ones.
enum class WindowParameters : std::uint8_t { None, Required, Optional };
struct WindowName {
  std::string canonical;  // the function's name ("hann" for "han", "hann_periodic" ...)
  WindowParameters parameters = WindowParameters::None;
  int max_parameters = 0;  // the most positional parameters it takes after M
};
// SciPy's window names and aliases ("hann", "han", "kbd", "general gaussian", ...),
// without a "_periodic"/"_symmetric" suffix; empty for an unknown name.
std::optional<WindowName> find_window(std::string_view name);

// scipy.signal.get_window(name-or-tuple, Nx, fftbins): `name` as find_window knows it,
// optionally suffixed "_periodic" or "_symmetric" (which override fftbins), with its
// parameters (general_cosine: the coefficients; taylor's norm and other flags as 0/1).
// ValueError for an unknown name and for a parameter count the window does not take.
ndarray get_window(std::string_view name, std::span<const double> params, std::int64_t Nx,
                   bool fftbins = true, std::optional<Device> device = std::nullopt);
// get_window(beta, Nx): a number is a Kaiser window's beta.
ndarray get_window(double beta, std::int64_t Nx, bool fftbins = true,
                   std::optional<Device> device = std::nullopt);

// ---- upfirdn -----------------------------------------------------------------------

// How upfirdn extends the signal past its ends (scipy.signal.upfirdn's `mode`):
// numpy.pad's constant/symmetric/reflect/edge/wrap, "smooth" (the slope of the two end
// points), "antisymmetric"/"antireflect" (odd versions of symmetric/reflect) and
// "line" (the line through the first and last points).
enum class ExtensionMode : std::uint8_t {
  Constant,
  Symmetric,
  Reflect,
  Edge,
  Wrap,
  Smooth,
  Antisymmetric,
  Antireflect,
  Line
};
// The mode for SciPy's name (case-insensitive); ValueError naming it otherwise.
ExtensionMode parse_extension_mode(std::string_view name);

struct UpfirdnOptions {
  std::int64_t up = 1;
  std::int64_t down = 1;
  int axis = -1;
  ExtensionMode mode = ExtensionMode::Constant;
  double cval = 0;  // the value outside the signal for ExtensionMode::Constant
};
// The output length along the axis: ((n - 1) * up + len(h) - 1) // down + 1.
std::int64_t upfirdn_output_length(std::int64_t h_length, std::int64_t n, std::int64_t up,
                                   std::int64_t down);
// scipy.signal.upfirdn(h, x, up, down, axis, mode, cval): upsamples x by zero insertion,
// filters it with the FIR filter h and keeps every down-th sample, along `axis`, in one
// polyphase pass (each output sums only the taps that meet a nonzero input). The result
// dtype is result_type(h, x, float32) (float32/float64/complex64/complex128), C-ordered.
// h must be 1-d and non-empty, up and down >= 1 (SciPy's ValueErrors).
ndarray upfirdn(const ndarray& h, const ndarray& x, UpfirdnOptions options = {});

}  // namespace cunp::signal
