"""cunpx.scipy.signal: scipy.signal for cunp arrays (cupyx.scipy.signal).

Convolution and correlation (direct and FFT), the linear filters (lfilter, sosfilt and
their forward-backward forms, in C++ with a parallel-in-time scan on CUDA devices),
detrending, rank, Wiener and Savitzky-Golay filters, the analytic signal and peak
finding. See docs/scipy/signal-filtering.md for what is covered and how.
"""
from cunpx.scipy.signal._convolve import *  # noqa: F401,F403
from cunpx.scipy.signal._filtering import *  # noqa: F401,F403
from cunpx.scipy.signal._peaks import *  # noqa: F401,F403
from cunpx.scipy.signal import _convolve, _filtering, _peaks

__all__ = _convolve.__all__ + _filtering.__all__ + _peaks.__all__
