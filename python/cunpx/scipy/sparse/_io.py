"""save_npz and load_npz (scipy.sparse._matrix_io): SciPy's .npz layout, written and
read through SciPy on the host, so files are interchangeable with scipy.sparse."""
from cunpx.scipy.sparse._base import _CONTAINERS, issparse

__all__ = ["save_npz", "load_npz"]


def save_npz(file, matrix, compressed=True):
    """Writes `matrix` (a cunpx or SciPy sparse matrix) to a .npz file."""
    import scipy.sparse as host_sparse
    host_sparse.save_npz(file, matrix.get() if issparse(matrix) else matrix, compressed=compressed)


def load_npz(file, *, device=None):
    """Reads a .npz file written by save_npz (ours or SciPy's) onto `device` (the
    current device by default); formats cunpx lacks (bsr, ...) come back as CSR."""
    import scipy.sparse as host_sparse
    host = host_sparse.load_npz(file)
    fmt = host.format if host.format in ("csr", "csc", "coo", "dia") else "csr"
    is_array = isinstance(host, host_sparse.sparray)
    return _CONTAINERS[(fmt, is_array)](host, device=device)
