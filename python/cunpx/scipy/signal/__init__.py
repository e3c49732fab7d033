"""cunpx.scipy.signal: scipy.signal for cunp arrays (cupyx.scipy.signal).

Filter design runs on the host (NumPy) and returns cunp arrays; windows are computed in
C++ and placed on the device; resampling, spectral analysis and waveforms run on the
arrays' device. docs/scipy/signal-spectral.md lists what is covered.

Convolution and correlation (direct and FFT), the linear filters (lfilter, sosfilt and
their forward-backward forms, in C++ with a parallel-in-time scan on CUDA devices),
detrending, rank, Wiener and Savitzky-Golay filters, the analytic signal and peak
finding: docs/scipy/signal-filtering.md.
"""
from cunpx.scipy.signal import windows  # noqa: F401
from cunpx.scipy.signal._windows import get_window  # noqa: F401
from cunpx.scipy.signal._design import *  # noqa: F401,F403
from cunpx.scipy.signal._design import __all__ as _design_all
from cunpx.scipy.signal._filter_forms import *  # noqa: F401,F403
from cunpx.scipy.signal._filter_forms import __all__ as _forms_all
from cunpx.scipy.signal._fir_design import *  # noqa: F401,F403
from cunpx.scipy.signal._fir_design import __all__ as _fir_all
from cunpx.scipy.signal._freq_response import *  # noqa: F401,F403
from cunpx.scipy.signal._freq_response import __all__ as _freq_all
from cunpx.scipy.signal._resample import *  # noqa: F401,F403
from cunpx.scipy.signal._resample import __all__ as _resample_all
from cunpx.scipy.signal._spectral import *  # noqa: F401,F403
from cunpx.scipy.signal._spectral import __all__ as _spectral_all
from cunpx.scipy.signal._short_time_fft import *  # noqa: F401,F403
from cunpx.scipy.signal._short_time_fft import __all__ as _stft_all
from cunpx.scipy.signal._waveforms import *  # noqa: F401,F403
from cunpx.scipy.signal._waveforms import __all__ as _waveforms_all
from cunpx.scipy.signal._convolve import *  # noqa: F401,F403
from cunpx.scipy.signal._convolve import __all__ as _convolve_all
from cunpx.scipy.signal._filtering import *  # noqa: F401,F403
from cunpx.scipy.signal._filtering import __all__ as _filtering_all
from cunpx.scipy.signal._peaks import *  # noqa: F401,F403
from cunpx.scipy.signal._peaks import __all__ as _peaks_all

__all__ = (["windows", "get_window"] + _design_all + _forms_all + _fir_all + _freq_all + _resample_all + _spectral_all
           + _stft_all + _waveforms_all + _convolve_all + _filtering_all + _peaks_all)
