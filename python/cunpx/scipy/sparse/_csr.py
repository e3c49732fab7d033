"""Compressed Sparse Row: csr_array and csr_matrix (scipy.sparse._csr); the
implementation is the compressed formats' (_compressed.py) read along rows."""
from cunpx.scipy.sparse._base import register, sparray, spmatrix
from cunpx.scipy.sparse._compressed import _cs_matrix

__all__ = ["csr_array", "csr_matrix", "isspmatrix_csr"]


class _csr_base(_cs_matrix):
    format = "csr"

    @staticmethod
    def _swap(x):
        """(major, minor) of a (row, column) pair: the pair itself."""
        return x[0], x[1]


@register
class csr_array(sparray, _csr_base):
    """A sparse array in CSR format (scipy.sparse.csr_array / cupyx's csr_matrix):
    ``csr_array(D)``, ``csr_array(S)``, ``csr_array((M, N), dtype=)``,
    ``csr_array((data, (row, col)), shape=)``, ``csr_array((data, indices, indptr), shape=)``.
    ``device=`` (keyword) picks where an array built from host data lives."""


@register
class csr_matrix(spmatrix, _csr_base):
    """A sparse matrix in CSR format (scipy.sparse.csr_matrix): as csr_array, with
    ``*`` the matrix product and reductions along an axis giving 2-D arrays."""


def isspmatrix_csr(x):
    """Whether `x` is a csr_matrix (not a csr_array, as SciPy ≥ 1.11)."""
    return isinstance(x, csr_matrix)
