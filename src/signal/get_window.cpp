// src/signal/get_window.cpp — scipy.signal.get_window (cunp/signal_windows.hpp): a window
// by its name and parameters, or a Kaiser window by its beta, computed by windows.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/signal_windows.hpp"
#include "cunp/window.hpp"

namespace cunp::signal {

// ---- get_window ---------------------------------------------------------------------

namespace {

struct NamedWindow {
  std::string_view name;
  std::string_view canonical;
  WindowParameters parameters;
  int max_parameters;  // -1: any number (general_cosine's coefficients)
};

using P = WindowParameters;
// SciPy's window names (scipy.signal.windows._WIN_FUNCS).
constexpr NamedWindow kWindows[] = {
    {"barthann", "barthann", P::None, 0},
    {"brthan", "barthann", P::None, 0},
    {"bth", "barthann", P::None, 0},
    {"bartlett", "bartlett", P::None, 0},
    {"bart", "bartlett", P::None, 0},
    {"brt", "bartlett", P::None, 0},
    {"blackman", "blackman", P::None, 0},
    {"black", "blackman", P::None, 0},
    {"blk", "blackman", P::None, 0},
    {"blackmanharris", "blackmanharris", P::None, 0},
    {"blackharr", "blackmanharris", P::None, 0},
    {"bkh", "blackmanharris", P::None, 0},
    {"bohman", "bohman", P::None, 0},
    {"bman", "bohman", P::None, 0},
    {"bmn", "bohman", P::None, 0},
    {"boxcar", "boxcar", P::None, 0},
    {"box", "boxcar", P::None, 0},
    {"ones", "boxcar", P::None, 0},
    {"rect", "boxcar", P::None, 0},
    {"rectangular", "boxcar", P::None, 0},
    {"chebwin", "chebwin", P::Required, 1},
    {"cheb", "chebwin", P::Required, 1},
    {"cosine", "cosine", P::None, 0},
    {"halfcosine", "cosine", P::None, 0},
    {"dpss", "dpss", P::Required, 1},
    {"exponential", "exponential", P::Optional, 2},
    {"poisson", "exponential", P::Optional, 2},
    {"flattop", "flattop", P::None, 0},
    {"flat", "flattop", P::None, 0},
    {"flt", "flattop", P::None, 0},
    {"gaussian", "gaussian", P::Required, 1},
    {"gauss", "gaussian", P::Required, 1},
    {"gss", "gaussian", P::Required, 1},
    {"general cosine", "general_cosine", P::Required, -1},
    {"general_cosine", "general_cosine", P::Required, -1},
    {"general gaussian", "general_gaussian", P::Required, 2},
    {"general_gaussian", "general_gaussian", P::Required, 2},
    {"general gauss", "general_gaussian", P::Required, 2},
    {"general_gauss", "general_gaussian", P::Required, 2},
    {"ggs", "general_gaussian", P::Required, 2},
    {"general hamming", "general_hamming", P::Required, 1},
    {"general_hamming", "general_hamming", P::Required, 1},
    {"hamming", "hamming", P::None, 0},
    {"hamm", "hamming", P::None, 0},
    {"ham", "hamming", P::None, 0},
    {"hann", "hann", P::None, 0},
    {"han", "hann", P::None, 0},
    {"kaiser", "kaiser", P::Required, 1},
    {"ksr", "kaiser", P::Required, 1},
    {"kaiser bessel derived", "kaiser_bessel_derived", P::Required, 1},
    {"kaiser_bessel_derived", "kaiser_bessel_derived", P::Required, 1},
    {"kbd", "kaiser_bessel_derived", P::Required, 1},
    {"lanczos", "lanczos", P::None, 0},
    {"sinc", "lanczos", P::None, 0},
    {"nuttall", "nuttall", P::None, 0},
    {"nutl", "nuttall", P::None, 0},
    {"nut", "nuttall", P::None, 0},
    {"parzen", "parzen", P::None, 0},
    {"parz", "parzen", P::None, 0},
    {"par", "parzen", P::None, 0},
    {"taylor", "taylor", P::Optional, 3},
    {"taylorwin", "taylor", P::Optional, 3},
    {"triangle", "triang", P::None, 0},
    {"triang", "triang", P::None, 0},
    {"tri", "triang", P::None, 0},
    {"tukey", "tukey", P::Optional, 1},
    {"tuk", "tukey", P::Optional, 1},
};

// The parameters a window needs at least: all of them when they are required (one
// coefficient list for general_cosine), none when they are optional.
int min_parameters(const WindowName& w) {
  if (w.parameters != P::Required) return 0;
  return w.max_parameters < 0 ? 1 : w.max_parameters;
}

}  // namespace

std::optional<WindowName> find_window(std::string_view name) {
  for (const NamedWindow& w : kWindows)
    if (w.name == name) return WindowName{std::string(w.canonical), w.parameters, w.max_parameters};
  return std::nullopt;
}

ndarray get_window(std::string_view name, std::span<const double> params, std::int64_t Nx,
                   bool fftbins, std::optional<Device> device) {
  if (Nx <= 0)
    throw ValueError("Parameter Nx=" + std::to_string(Nx) + " is not a positive integer");
  bool sym = !fftbins;
  std::string_view base = name;
  constexpr std::string_view kSymmetric = "_symmetric", kPeriodic = "_periodic";
  if (base.ends_with(kSymmetric)) {
    sym = true;
    base.remove_suffix(kSymmetric.size());
  } else if (base.ends_with(kPeriodic)) {
    sym = false;
    base.remove_suffix(kPeriodic.size());
  }
  const std::optional<WindowName> w = find_window(base);
  if (!w) throw ValueError("Invalid window name '" + std::string(base) + "'");
  const auto count = static_cast<int>(params.size());
  if (w->parameters == P::None && count > 0)
    throw ValueError("'" + std::string(base) + "' does not allow parameters");
  if (w->parameters == P::Required && count == 0)
    throw ValueError("'" + std::string(base) + "' must have parameters");
  if (count < min_parameters(*w) || (w->max_parameters >= 0 && count > w->max_parameters))
    throw TypeError("window '" + w->canonical + "' takes " +
                    (min_parameters(*w) == w->max_parameters
                         ? std::to_string(w->max_parameters)
                         : std::to_string(min_parameters(*w)) + " to " +
                               std::to_string(w->max_parameters)) +
                    " parameters, got " + std::to_string(count));
  const WindowOptions o{.sym = sym, .device = device};
  const std::string_view c = w->canonical;
  auto arg = [&](int i, double dflt) {
    return i < count ? params[static_cast<std::size_t>(i)] : dflt;
  };
  if (c == "barthann") return barthann(Nx, o);
  if (c == "bartlett") return bartlett(Nx, o);
  if (c == "blackman") return blackman(Nx, o);
  if (c == "blackmanharris") return blackmanharris(Nx, o);
  if (c == "bohman") return bohman(Nx, o);
  if (c == "boxcar") return boxcar(Nx, o);
  if (c == "chebwin") return chebwin(Nx, params[0], o);
  if (c == "cosine") return cosine(Nx, o);
  if (c == "dpss") return dpss(Nx, params[0], {}, o).windows;
  if (c == "exponential")
    return exponential(Nx, count > 0 ? std::optional<double>(params[0]) : std::nullopt, arg(1, 1.0),
                       o);
  if (c == "flattop") return flattop(Nx, o);
  if (c == "gaussian") return gaussian(Nx, params[0], o);
  if (c == "general_cosine") return general_cosine(Nx, params, o);
  if (c == "general_gaussian") return general_gaussian(Nx, params[0], params[1], o);
  if (c == "general_hamming") return general_hamming(Nx, params[0], o);
  if (c == "hamming") return hamming(Nx, o);
  if (c == "hann") return hann(Nx, o);
  if (c == "kaiser") return kaiser(Nx, params[0], o);
  if (c == "kaiser_bessel_derived") return kaiser_bessel_derived(Nx, params[0], o);
  if (c == "lanczos") return lanczos(Nx, o);
  if (c == "nuttall") return nuttall(Nx, o);
  if (c == "parzen") return parzen(Nx, o);
  if (c == "taylor")
    return taylor(Nx, static_cast<std::int64_t>(arg(0, 4)), arg(1, 30), arg(2, 1) != 0, o);
  if (c == "triang") return triang(Nx, o);
  return tukey(Nx, arg(0, 0.5), o);
}

ndarray get_window(double beta, std::int64_t Nx, bool fftbins, std::optional<Device> device) {
  if (Nx <= 0)
    throw ValueError("Parameter Nx=" + std::to_string(Nx) + " is not a positive integer");
  return kaiser(Nx, beta, {.sym = !fftbins, .device = device});
}

}  // namespace cunp::signal
