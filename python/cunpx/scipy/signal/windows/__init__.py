"""cunpx.scipy.signal.windows: scipy.signal.windows for cunp (cupyx.scipy.signal.windows)."""
from cunpx.scipy.signal._windows import *  # noqa: F401,F403
from cunpx.scipy.signal._windows import __all__  # noqa: F401
