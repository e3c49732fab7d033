"""cunpx.scipy.special: scipy.special for cunp arrays (cupyx.scipy.special).

The special functions are cunp ufuncs (broadcasting, ``out=``, ``dtype=``, SciPy's loop
types) computed on the array's device from one scalar implementation shared by the CPU
loops and the generated CUDA kernels; the functions SciPy defines over whole arrays
(``softmax``, ``logsumexp``, ...) are composed from them.
"""
import cunp
from cunp import _core, _signatures

_signatures.sign_ufuncs(_core._special_ufuncs.values())
globals().update(_core._special_ufuncs)
# SciPy's other names: digamma is psi; exp2 and cbrt are NumPy's functions.
digamma = _core._special_ufuncs["psi"]
exp2 = cunp.exp2
cbrt = cunp.cbrt

from cunpx.scipy.special._functions import *  # noqa: E402,F401,F403
from cunpx.scipy.special import _functions  # noqa: E402

__all__ = sorted(set(n for n in _core._special_ufuncs if not n.startswith("_")) |
                 {"digamma", "exp2", "cbrt"} | set(_functions.__all__))

from cunpx.scipy.special._bessel import *  # noqa: E402,F401,F403
from cunpx.scipy.special import _bessel  # noqa: E402

__all__ = sorted(set(__all__) | set(_bessel.__all__))
