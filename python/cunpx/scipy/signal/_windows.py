"""scipy.signal's window functions for cunp (cupyx.scipy.signal.windows).

The windows are computed in C++ (cunp/signal_windows.hpp: float64 on the host with
SciPy's formulas, then one copy to the device) and bound with SciPy's signatures and
messages, so this module only gives them their public names. Every window takes
``sym=True`` (False: the periodic window for spectral analysis) and a keyword-only
``device=`` (default: the current device).
"""
from cunp._core import _signal_windows as _w

__all__ = [
    "get_window", "barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar", "chebwin", "cosine",
    "dpss", "exponential", "flattop", "gaussian", "general_cosine", "general_gaussian", "general_hamming",
    "hamming", "hann", "kaiser", "kaiser_bessel_derived", "lanczos", "nuttall", "parzen", "taylor", "triang",
    "tukey",
]

_DOCS = {
    "get_window": "scipy.signal.get_window(window, Nx, fftbins=True): a window by name, (name, *params) or "
                  "Kaiser beta; '_periodic'/'_symmetric' suffixes override fftbins.",
    "barthann": "The modified Bartlett-Hann window.",
    "bartlett": "The Bartlett (triangular, zero at both ends) window.",
    "blackman": "The Blackman window, general_cosine with [0.42, 0.50, 0.08].",
    "blackmanharris": "The minimum 4-term Blackman-Harris window.",
    "bohman": "The Bohman window.",
    "boxcar": "The rectangular window.",
    "chebwin": "The Dolph-Chebyshev window of `at` dB attenuation (UserWarning below 45 dB, as SciPy).",
    "cosine": "The cosine (sine) window.",
    "dpss": "Discrete prolate spheroidal (Slepian) sequences; returns (windows, ratios) with return_ratios.",
    "exponential": "The exponential (Poisson) window; `center` only for sym=False.",
    "flattop": "The flat top window.",
    "gaussian": "The Gaussian window of standard deviation `std`.",
    "general_cosine": "A weighted sum of cosines, sum_k a[k] cos(k x) over x in [-pi, pi].",
    "general_gaussian": "The generalized Gaussian exp(-|n/sig|^(2p) / 2).",
    "general_hamming": "The generalized Hamming window alpha - (1 - alpha) cos(...).",
    "hamming": "The Hamming window, general_hamming with alpha 0.54.",
    "hann": "The Hann window, general_hamming with alpha 0.5.",
    "kaiser": "The Kaiser window of shape parameter `beta`.",
    "kaiser_bessel_derived": "The Kaiser-Bessel derived window (even M, symmetric only).",
    "lanczos": "The Lanczos (sinc) window.",
    "nuttall": "The minimum 4-term Blackman-Harris window of Nuttall.",
    "parzen": "The Parzen window.",
    "taylor": "The Taylor window of nbar nearly constant sidelobes sll dB down.",
    "triang": "The triangular window (nonzero at the ends).",
    "tukey": "The Tukey (tapered cosine) window; alpha <= 0 is boxcar, alpha >= 1 hann.",
}


def _export(name):
    f = getattr(_w, name)
    try:
        f.__doc__ = "scipy.signal.windows.%s on cunp: %s" % (name, _DOCS[name])
    except (AttributeError, TypeError):  # nanobind functions may keep their own docstring
        pass
    return f


for _name in __all__:
    globals()[_name] = _export(_name)
del _name
