"""cunpx.scipy.sparse: scipy.sparse for cunp arrays (cupyx.scipy.sparse).

Formats CSR, CSC, COO and DIA, each as a sparse array (``csr_array``: ``*`` elementwise)
and a sparse matrix (``csr_matrix``: ``*`` the matrix product), with SciPy ≥ 1.8
semantics; the arrays live on one device (cpu or cuda) and every operation runs there.
The heavy primitives (conversions, products, duplicate summing) are in ``_kernels``;
docs/sparse.md lists what is covered against SciPy and cupyx.
"""
from cunpx.scipy.sparse._base import (  # noqa: F401
    SparseEfficiencyWarning, SparseFormatError, SparseWarning, issparse, isspmatrix, sparray, spmatrix,
)
from cunpx.scipy.sparse._base import _spbase  # noqa: F401
from cunpx.scipy.sparse._csr import csr_array, csr_matrix, isspmatrix_csr  # noqa: F401
from cunpx.scipy.sparse._csc import csc_array, csc_matrix, isspmatrix_csc  # noqa: F401
from cunpx.scipy.sparse._coo import coo_array, coo_matrix, isspmatrix_coo  # noqa: F401
from cunpx.scipy.sparse._dia import dia_array, dia_matrix, isspmatrix_dia  # noqa: F401
from cunpx.scipy.sparse._construct import (  # noqa: F401
    block_array, block_diag, bmat, diags, diags_array, eye, eye_array, hstack, identity, kron, kronsum, rand, random,
    random_array, spdiags, vstack,
)
from cunpx.scipy.sparse._extract import find, tril, triu  # noqa: F401
from cunpx.scipy.sparse._io import load_npz, save_npz  # noqa: F401
from cunpx.scipy.sparse._sputils import get_index_dtype  # noqa: F401



def __getattr__(name):
    # The subpackage cunpx.scipy.sparse.linalg loads on first use (as SciPy's).
    if name == "linalg":
        import importlib
        try:
            return importlib.import_module("cunpx.scipy.sparse.linalg")
        except ModuleNotFoundError as e:
            if e.name != "cunpx.scipy.sparse.linalg":
                raise
    raise AttributeError("module 'cunpx.scipy.sparse' has no attribute %r" % name)


__all__ = [
    "SparseEfficiencyWarning", "SparseFormatError", "SparseWarning", "issparse", "isspmatrix", "sparray", "spmatrix",
    "csr_array", "csr_matrix", "isspmatrix_csr", "csc_array", "csc_matrix", "isspmatrix_csc", "coo_array",
    "coo_matrix", "isspmatrix_coo", "dia_array", "dia_matrix", "isspmatrix_dia", "block_array", "block_diag", "bmat",
    "diags", "diags_array", "eye", "eye_array", "hstack", "identity", "kron", "kronsum", "rand", "random",
    "random_array", "spdiags", "vstack", "find", "tril", "triu", "load_npz", "save_npz", "get_index_dtype",
]
