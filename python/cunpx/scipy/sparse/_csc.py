"""Compressed Sparse Column: csc_array and csc_matrix (scipy.sparse._csc); the
implementation is the compressed formats' (_compressed.py) read along columns."""
import cunp as _cunp
from cunpx.scipy.sparse._base import register, sparray, spmatrix
from cunpx.scipy.sparse._compressed import _cs_matrix

__all__ = ["csc_array", "csc_matrix", "isspmatrix_csc"]


class _csc_base(_cs_matrix):
    format = "csc"

    @staticmethod
    def _swap(x):
        """(major, minor) of a (row, column) pair: (column, row)."""
        return x[1], x[0]

    def nonzero(self):
        """(row, col) of the stored nonzero entries in row-major order (as SciPy's CSC)."""
        row, col = super().nonzero()
        order = _cunp.argsort(row, kind="stable")
        return row[order], col[order]


@register
class csc_array(sparray, _csc_base):
    """A sparse array in CSC format (scipy.sparse.csc_array): built as csr_array is."""


@register
class csc_matrix(spmatrix, _csc_base):
    """A sparse matrix in CSC format (scipy.sparse.csc_matrix)."""


def isspmatrix_csc(x):
    """Whether `x` is a csc_matrix (not a csc_array, as SciPy ≥ 1.11)."""
    return isinstance(x, csc_matrix)
