"""Matrix products in the top-level namespace (numpy.matmul, dot, ...) and the
ndarray methods built on them (`@`, `@=`, ndarray.dot)."""
import numbers

import numpy as _numpy

from cunp import _core
from cunp._core import ndarray

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "trace", "einsum", "einsum_path", "kron", "cross",
           "vecdot", "matrix_transpose"]


def _one_out(out):
    if type(out) is tuple:
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        return out[0]
    return out


def _core_axes(entry):
    return [int(entry)] if isinstance(entry, numbers.Integral) else [int(i) for i in entry]


_NO_VALUE = object()


def _signature_dtype(signature):
    """The loop dtype a ufunc signature names: 'dd->d', ('d', 'd', 'd') or (None, None, 'd')
    (every dtype of a matmul loop is the same)."""
    if isinstance(signature, str):
        return _numpy.dtype(signature.split("->")[-1].strip())
    if isinstance(signature, tuple):
        named = [t for t in signature if t is not None]
        return _numpy.dtype(named[-1]) if named else None
    raise TypeError("the signature object to ufunc must be a string or a tuple.")


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, signature=_NO_VALUE,
           axes=None, axis=None, keepdims=False):
    """numpy.matmul: batched matrix product with broadcasting (also ``x1 @ x2``), with
    the gufunc's dtype=, casting=, out= (broadcast batch, any strides) and axes=."""
    if (out is None and dtype is None and axes is None and axis is None and signature is _NO_VALUE and not keepdims
            and casting == "same_kind" and order == "K"):
        return _core._matmul(x1, x2, None)
    if axis is not None:
        raise TypeError("matmul: axis can only be used with a single shared core dimension, not with the 3 "
                        "distinct ones implied by signature (n?,k),(k,m?)->(n?,m?).")
    if signature is not _NO_VALUE:
        sig = _signature_dtype(signature)
        if dtype is not None and sig is not None:
            raise TypeError("cannot specify both 'signature' and 'dtype'")
        dtype = sig if sig is not None else dtype
    if keepdims:
        raise NotImplementedError("matmul: keepdims=True is not supported")
    if order not in ("K", "A", "C", "F"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    if axes is not None:
        axes = [_core_axes(e) for e in axes]
    out = _one_out(out)
    r = _core._matmul_full(x1, x2, out, dtype, casting, axes)
    if out is not None:
        return out
    return r.copy(order="F") if order == "F" and r.ndim >= 2 else r


def dot(a, b, out=None):
    """numpy.dot: out must have exactly the result's dtype and shape and be C-contiguous
    (except for a 0-d operand of a non-BLAS dtype, where dot is a multiply)."""
    if out is None:
        return _core._dot(a, b, None)
    _core._dot(a, b, out)
    return out


def vdot(a, b, /):
    """numpy.vdot: the conjugated dot product of the flattened inputs."""
    return _core._vdot(a, b)


def inner(a, b, /):
    """numpy.inner: sums over the last axes."""
    return _core._inner(a, b)


def outer(a, b, out=None):
    """numpy.outer: multiply(ravel(a)[:, None], ravel(b)[None, :], out=out)."""
    r = _core._outer(a, b, out)
    return r if out is None else out


def _axis_list(x):
    if isinstance(x, numbers.Integral):
        return [int(x)]
    return [int(i) for i in x]


def tensordot(a, b, axes=2):
    """numpy.tensordot with axes=N or axes=(axes_a, axes_b)."""
    if isinstance(axes, numbers.Integral):
        return _core._tensordot_n(a, b, int(axes))
    try:
        axes_a, axes_b = axes
    except (TypeError, ValueError):
        raise ValueError("axes must be an integer or a pair of axis sequences") from None
    return _core._tensordot_axes(a, b, _axis_list(axes_a), _axis_list(axes_b))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace."""
    from cunp._array import asarray

    r = _core._trace(asarray(a), int(offset), int(axis1), int(axis2), dtype, out)
    return r if out is None else out  # the sums are written into out by the C++ trace


def matrix_transpose(x, /):
    """numpy.matrix_transpose (also numpy.linalg's): swaps the last two axes (a view)."""
    from cunp._array import asarray

    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return _core.swapaxes(x, -1, -2)


def vecdot(x1, x2, /, *, axis=-1):
    """numpy.vecdot (and numpy.linalg.vecdot): sum(conj(x1) * x2) over `axis` (of each
    operand), broadcasting the rest; the result has the operands' promoted dtype (bool: or
    of ands), as matmul."""
    import cunp

    x1 = cunp.asarray(x1)
    x2 = cunp.asarray(x2, device=x1.device)
    if x1.dtype.kind == "c":
        x1 = cunp.conjugate(x1)
    x1, x2 = cunp.moveaxis(x1, axis, -1), cunp.moveaxis(x2, axis, -1)
    return matmul(x1[..., None, :], x2[..., :, None])[..., 0, 0]


def _sublist_subscripts(sub):
    """An interleaved-form subscript list (ints 0..51 and Ellipsis) as letters."""
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        elif isinstance(s, numbers.Integral) and 0 <= int(s) < 52:
            s = int(s)
            out.append(chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26))
        else:
            raise ValueError("subscript is not within the valid range [0, 52)")
    return "".join(out)


def _einsum_args(operands):
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    # the interleaved form: op0, sublist0, op1, sublist1, ..., [sublistout]
    ops = list(operands[0::2])
    subs = [_sublist_subscripts(s) for s in operands[1::2]]
    out = None
    if len(operands) % 2 == 1 and len(operands) > 1:
        out = _sublist_subscripts(ops.pop())
    subscripts = ",".join(subs) + ("->" + out if out is not None else "")
    return subscripts, ops


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """numpy.einsum: string or interleaved subscripts, implicit or explicit output,
    '...' and repeated labels. Operands are contracted pairwise, left to right, through
    batched matmul; `optimize` is accepted (the written order is kept)."""
    subscripts, ops = _einsum_args(operands)
    from cunp._array import asarray

    ops = [x if isinstance(x, ndarray) else asarray(x) for x in ops]
    r = _core._einsum(subscripts, ops, dtype, out, casting)
    return r if out is None else out


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path, computed by NumPy from the operands' shapes (the path depends
    only on shapes; cunp.einsum itself contracts left to right)."""
    subscripts, ops = _einsum_args(operands)
    shaped = [_numpy.broadcast_to(_numpy.zeros((), x.dtype), x.shape) if hasattr(x, "shape") else x
              for x in ops]
    return _numpy.einsum_path(subscripts, *shaped, optimize=optimize)


def kron(a, b):
    """numpy.kron: the Kronecker product."""
    return _core._kron(a, b)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-component vectors (NumPy 2.5: 2-component vectors raise ValueError)."""
    return _core._cross(a, b, int(axisa), int(axisb), int(axisc), None if axis is None else int(axis))
