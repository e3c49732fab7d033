"""Pieces of a sparse matrix (scipy.sparse._extract): find, tril, triu."""
import numpy as _numpy

from cunpx.scipy.sparse._base import _CONTAINERS, issparse

__all__ = ["find", "tril", "triu"]


def _coo_of(A):
    if issparse(A):
        return A.tocoo()
    return _CONTAINERS[("coo", False)](A)


def find(A):
    """(row, col, values) of the stored entries that are not zero, duplicates summed."""
    A = _coo_of(A).copy()
    A.sum_duplicates()
    nz = A.data != 0
    return A.row[nz], A.col[nz], A.data[nz]


def _triangle(A, k, format, lower):
    A = _coo_of(A)
    row = A.row.astype(_numpy.int64)
    col = A.col.astype(_numpy.int64)
    mask = (row + k >= col) if lower else (row + k <= col)
    out = A._new(A.data[mask], A.row[mask], A.col[mask], A.shape)
    return out.asformat(format)


def tril(A, k=0, format=None):
    """The entries on and below diagonal k (COO unless `format` says)."""
    return _triangle(A, k, format, True)


def triu(A, k=0, format=None):
    """The entries on and above diagonal k (COO unless `format` says)."""
    return _triangle(A, k, format, False)
