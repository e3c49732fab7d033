"""cunpx.scipy.special: scipy.special for cunp arrays (cupyx.scipy.special).

The special functions are cunp ufuncs (broadcasting, ``out=``, ``dtype=``, SciPy's loop
types) computed on the array's device from one scalar implementation shared by the CPU
loops and the generated CUDA kernels; the functions SciPy defines over whole arrays
(``softmax``, ``logsumexp``, ...) are composed from them.
"""
from cunp import _core, _signatures

_signatures.sign_ufuncs(_core._special_ufuncs.values())
globals().update(_core._special_ufuncs)
__all__ = sorted(n for n in _core._special_ufuncs if not n.startswith("_"))

from cunpx.scipy.special._bessel import *  # noqa: E402,F401,F403
from cunpx.scipy.special import _bessel  # noqa: E402

__all__ += _bessel.__all__
