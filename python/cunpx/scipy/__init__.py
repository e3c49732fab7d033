"""cunpx.scipy: SciPy's modules for cunp arrays (cupyx.scipy): ``fft`` and ``linalg``."""
from cunpx.scipy import fft, linalg  # noqa: F401
