"""cunpx.scipy.sparse (placeholder): only the ``linalg`` subpackage lives here on this
branch; the package's real __init__ (the sparse matrix classes) replaces this file."""
from cunpx.scipy.sparse import linalg  # noqa: F401
