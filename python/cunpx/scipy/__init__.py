"""cunpx.scipy: SciPy's modules for cunp arrays (cupyx.scipy): ``fft``, ``linalg``,
``special``, ``signal`` and ``sparse``."""
from cunpx.scipy import fft, linalg, signal, sparse, special  # noqa: F401
