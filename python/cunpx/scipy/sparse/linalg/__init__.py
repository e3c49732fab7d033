"""cunpx.scipy.sparse.linalg: scipy.sparse.linalg for cunp arrays and sparse matrices
(cupyx.scipy.sparse.linalg).

Abstract operators (LinearOperator, aslinearoperator), norms (norm, onenormest),
iterative solvers (cg, cgs, bicg, bicgstab, gmres, minres, lsqr, lsmr), eigenvalue and
singular value problems (eigsh, svds: thick-restart Lanczos), the action of the matrix
exponential (expm_multiply) and direct solvers (spsolve, spsolve_triangular, splu,
factorized). Everything runs on the device of its arguments with cunp operations;
docs/sparse-linalg.md compares the coverage with SciPy and cupyx.
"""
from cunpx.scipy.sparse.linalg._dsolve import (  # noqa: F401
    DENSE_FALLBACK_MAX_N, MatrixRankWarning, SuperLU, factorized, spsolve, spsolve_triangular, splu)
from cunpx.scipy.sparse.linalg._eigen import ArpackError, ArpackNoConvergence, eigsh, svds  # noqa: F401
from cunpx.scipy.sparse.linalg._expm_multiply import expm_multiply  # noqa: F401
from cunpx.scipy.sparse.linalg._gmres import gmres  # noqa: F401
from cunpx.scipy.sparse.linalg._interface import (  # noqa: F401
    IdentityOperator, LinearOperator, MatrixLinearOperator, aslinearoperator)
from cunpx.scipy.sparse.linalg._krylov import bicg, bicgstab, cg, cgs  # noqa: F401
from cunpx.scipy.sparse.linalg._lsmr import lsmr  # noqa: F401
from cunpx.scipy.sparse.linalg._lsqr import lsqr  # noqa: F401
from cunpx.scipy.sparse.linalg._minres import minres  # noqa: F401
from cunpx.scipy.sparse.linalg._norm import norm, onenormest  # noqa: F401

__all__ = ["LinearOperator", "aslinearoperator", "norm", "onenormest", "cg", "cgs", "bicg", "bicgstab", "gmres",
           "minres", "lsqr", "lsmr", "eigsh", "svds", "expm_multiply", "spsolve", "spsolve_triangular", "splu",
           "factorized", "SuperLU", "MatrixRankWarning", "ArpackError", "ArpackNoConvergence"]
