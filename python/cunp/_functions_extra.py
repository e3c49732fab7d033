"""NumPy functions composed from cunp operations: polynomials, convolution, interpolation,
differences and gradients, histograms in several dimensions, bit packing, type
predicates, functional helpers (apply_along_axis, piecewise, ...) and the NumPy 2.2
gufuncs matvec/vecmat.

Everything here is written on top of cunp's ufuncs, reductions, indexing and linear
algebra, so it runs on the array's device (``cpu`` or ``cuda``). Values are read back to
the host only where NumPy's semantics depend on them: a data-dependent shape (roots,
polydiv's remainder, piecewise's selections), a data-dependent dtype (real_if_close,
poly), a check that raises (nanargmin's All-NaN slices, asarray_chkfinite, histogram
ranges and bins) or a warning (polyfit's rank).
"""
import builtins
import collections.abc
import itertools
import numbers
import operator
import warnings

import numpy as _numpy
from numpy.exceptions import AxisError, RankWarning, TooHardError

from cunp import linalg as _linalg
from cunp._array import asarray, ndarray, diag, copyto as _copyto
from cunp._core import arange, empty, zeros, ones, zeros_like, linspace, indices, promote_types, result_type
from cunp._core import nonzero as _nonzero, flatnonzero as _flatnonzero, ravel_multi_index as _ravel_multi_index
from cunp._linalg_top import matmul as _matmul, dot as _dot, outer as _outer
from cunp._manipulation import concatenate, stack, moveaxis, expand_dims, atleast_1d, atleast_2d
from cunp._reductions import all as _all, any as _any, argmin as _argmin, argmax as _argmax, diff as _diff
from cunp._reductions import cumprod as _cumprod
from cunp._sorting import searchsorted as _searchsorted, argsort as _argsort, sort as _sort
from cunp._statistics import bincount as _bincount
from cunp._ufuncs import where as _where, imag as _imag, errstate as _errstate
from cunp._ufuncs import (
    absolute, add, subtract, multiply, logical_and, logical_not, isnan, isinf, isfinite, signbit, sin, sqrt,
    exp, trunc, mod, conjugate, bitwise_and, right_shift, left_shift, not_equal,
)

__all__ = [
    "fill_diagonal", "diagflat", "vander", "trapezoid", "interp", "convolve", "correlate",
    "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "poly", "roots",
    "sinc", "isposinf", "isneginf", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "real_if_close", "fix",
    "ediff1d", "gradient", "unwrap", "array_equiv", "isscalar", "iterable", "common_type", "min_scalar_type",
    "shares_memory", "mask_indices", "block", "histogram2d", "histogramdd", "packbits", "unpackbits",
    "fromfunction", "require", "asarray_chkfinite", "piecewise", "apply_along_axis", "apply_over_axes",
    "nanargmin", "nanargmax", "i0", "bitwise_count", "matvec", "vecmat",
]

_NOVALUE = object()


# ---- helpers ---------------------------------------------------------------------------

def _device(*objs):
    """The device of the first cunp array among objs (None: the current device)."""
    for o in objs:
        if isinstance(o, ndarray):
            return o._device_str
    return None


def _arr(x, device=None, dtype=None):
    """x as a cunp array on `device` (None: x's own device, or the current one)."""
    if isinstance(x, ndarray) and dtype is None and (device is None or x._device_str == device):
        return x
    return asarray(x, dtype=dtype, device=device)


def _ndim(x):
    return x.ndim if isinstance(x, ndarray) else _numpy.ndim(x)


def _normalize_axis_index(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim if ndim else axis


def _normalize_axis_tuple(axis, ndim):
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    out = tuple(_normalize_axis_index(a, ndim) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return out


def _bool(x):
    return bool(x.item()) if isinstance(x, ndarray) else bool(x)


def _as_1d(x, device=None):
    """numpy.array(x, copy=None, ndmin=1)."""
    a = _arr(x, device)
    return a.reshape((1,)) if a.ndim == 0 else a


# ---- diagonals, Vandermonde -------------------------------------------------------------

def fill_diagonal(a, val, wrap=False):
    """numpy.fill_diagonal: writes val (repeated as needed) on the main diagonal of `a` in
    place; a tall 2-d array wraps after N columns when `wrap`."""
    if isinstance(a, _numpy.ndarray):
        a = asarray(a, device="cpu")  # the NumPy array's own memory: the write lands in it
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if any(n != a.shape[0] for n in a.shape):
            raise ValueError("All dimensions of input must be of equal length")
        # One step moves by one along every axis: 1 + n + n**2 + ... + n**(ndim-1).
        step, stride = 1, 1
        for n in a.shape[:-1]:
            stride *= n
            step += stride
    if type(val) is complex and a.dtype.kind in "iuf":
        # NumPy converts a Python complex with float()/int() for a real array.
        raise TypeError(("float() argument must be a string or a real number, not 'complex'" if a.dtype.kind == "f"
                         else "int() argument must be a string, a bytes-like object or a real number, not 'complex'"))
    a.flat[:end:step] = val


def diagflat(v, k=0):
    """numpy.diagflat: the flattened input on the k-th diagonal of a 2-d array."""
    return diag(_arr(v).ravel(), k)


def vander(x, N=None, increasing=False):
    """numpy.vander: columns are powers of x (decreasing unless `increasing`), in
    promote_types(x.dtype, int)."""
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    if N is None:
        N = n
    dt = promote_types(x.dtype, _numpy.int64)
    v = empty((n, N), dtype=dt, device=x._device_str)
    if N > 0:
        v[:, :1] = 1
    if N > 1:
        v[:, 1:] = x[:, None]
        v = _cumprod(v, axis=1)  # x**0, x**1, ... by repeated products, as NumPy
    if not increasing:
        v = v[:, ::-1].copy()
    return v


# ---- integration, interpolation ---------------------------------------------------------

def trapezoid(y, x=None, dx=1.0, axis=-1):
    """numpy.trapezoid: the composite trapezoidal rule along `axis`, with sample points x
    (1-d along axis, or y's shape) or a spacing dx."""
    y = _arr(y)
    if x is None:
        d = dx
    else:
        x = _arr(x, y._device_str)
        if x.ndim == 1:
            d = _diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = _diff(x, axis=axis)
    upper = [slice(None)] * y.ndim
    lower = [slice(None)] * y.ndim
    upper[axis] = slice(1, None)
    lower[axis] = slice(None, -1)
    return (d * (y[tuple(upper)] + y[tuple(lower)]) / 2.0).sum(axis)


def _as_float64_vector(obj, device, dtype):
    """The conversion of interp's sample arrays: exactly 1-d, safely castable."""
    a = _arr(obj, device)
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    if a.ndim < 1:
        raise ValueError("object of too small depth for desired array")
    return _safe_cast(a, dtype)


def _safe_cast(a, dtype):
    if not _numpy.can_cast(a.dtype, dtype, "safe"):
        raise TypeError("Cannot cast array data from %r to %r according to the rule 'safe'"
                        % (a.dtype, _numpy.dtype(dtype)))
    return a.astype(dtype) if a.dtype != dtype else a


def _fill_value(v, complex_):
    if isinstance(v, (str, bytes)):
        raise TypeError("must be real number, not %s" % type(v).__name__)
    if isinstance(v, ndarray):
        if v.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        if v.dtype.kind == "c" and not complex_:
            raise TypeError("must be real number, not complex")
        return v.reshape(()).astype(_numpy.complex128 if complex_ else _numpy.float64)
    return complex(v) if complex_ else float(v)


def _interp_real(xf, x0, x1, y0, y1, slope_div):
    """One real component of interp between the bracketing samples (x0, y0), (x1, y1)."""
    if slope_div:
        slope = (y1 - y0) / (x1 - x0)
    else:
        slope = (y1 - y0) * (1.0 / (x1 - x0))
    r = slope * (xf - x0) + y0
    # NaN from one side (an infinite sample, say): try the other, then the flat segment.
    r2 = slope * (xf - x1) + y1
    r2 = _where(isnan(r2) & (y0 == y1), y0, r2)
    return _where(isnan(r), r2, r)


_INTERP_EMPTY_X_FIRST = tuple(int(v) for v in _numpy.__version__.split(".")[:2]) >= (2, 5)


def interp(x, xp, fp, left=None, right=None, period=None):
    """numpy.interp: piecewise-linear interpolation of (xp, fp) at x in float64, or
    complex128 for complex fp; left/right fill values, or a `period` for angular x."""
    dev = _device(x, xp, fp)
    fp = _arr(fp, dev)
    is_complex = fp.dtype.kind == "c"
    dt = _numpy.dtype(_numpy.complex128 if is_complex else _numpy.float64)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = _arr(x, dev).astype(_numpy.float64)
        xp = _arr(xp, dev).astype(_numpy.float64)
        fp = fp.astype(dt)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = x % period
        xp = xp % period
        order = _argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    fp = _as_float64_vector(fp, dev, dt)
    xp = _as_float64_vector(xp, dev, _numpy.float64)
    xf = _safe_cast(_arr(x, dev), _numpy.float64)
    n = xp.shape[0]
    if xf.size == 0 and _INTERP_EMPTY_X_FIRST:  # NumPy 2.5 answers an empty x before checking xp
        return empty(xf.shape, dtype=dt, device=xf._device_str)
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    if xf.size == 0:
        return empty(xf.shape, dtype=dt, device=xf._device_str)
    lval = fp[0] if left is None else _fill_value(left, is_complex)
    rval = fp[-1] if right is None else _fill_value(right, is_complex)
    with _errstate(all="ignore"):  # NumPy's interp is a C loop: no floating-point warnings
        res = _interp_values(xf, xp, fp, lval, rval, n, is_complex, dt)
    return res.astype(dt) if res.dtype != dt else res


# Note [Fused interp]: on CUDA devices real interp is one generated kernel (binary
# search + the same arithmetic and edge rules as the composed path below, in the same
# order), instead of a searchsorted and a dozen elementwise passes.
_INTERP_KERNEL = None
_INTERP_BODY = """
const ptrdiff_t n = xp.size();
ptrdiff_t lo = 0, hi = n;
while (lo < hi) { const ptrdiff_t mid = (lo + hi) >> 1; if (xp[mid] <= x) lo = mid + 1; else hi = mid; }
const ptrdiff_t j = lo - 1;
const ptrdiff_t jc = j < 0 ? 0 : (j > n - 2 ? n - 2 : j);
const double x0 = xp[jc], x1 = xp[jc + 1], y0 = fp[jc], y1 = fp[jc + 1];
const double slope = (y1 - y0) / (x1 - x0);
double r = slope * (x - x0) + y0;
if (isnan(r)) { double r2 = slope * (x - x1) + y1; if (isnan(r2) && y0 == y1) r2 = y0; r = r2; }
if (x0 == x) r = y0;
if (j == n - 1) r = fp[n - 1];
if (x < xp[0]) r = lval;
if (x > xp[n - 1]) r = rval;
if (isnan(x)) r = x;
out = r;
"""


def _interp_kernel():
    global _INTERP_KERNEL
    if _INTERP_KERNEL is None:
        from cunp._kernel import ElementwiseKernel

        _INTERP_KERNEL = ElementwiseKernel("float64 x, raw float64 xp, raw float64 fp, float64 lval, float64 rval",
                                           "float64 out", _INTERP_BODY, "cunp_interp",
                                           options=("--fmad=false",))  # NumPy's rounding: no fused a*b+c
    return _INTERP_KERNEL


def _interp_values(xf, xp, fp, lval, rval, n, is_complex, dt):
    if n >= 2 and not is_complex and xf._device_str != "cpu":
        return _interp_kernel()(xf, xp, fp, asarray(lval, dtype=_numpy.float64, device=xf._device_str),
                                asarray(rval, dtype=_numpy.float64, device=xf._device_str))
    if n == 1:
        inner = _where(xf > xp[0], rval, fp[0])
        res = _where(xf < xp[0], lval, inner)
    else:
        j = _searchsorted(xp, xf, side="right") - 1  # xp[j] <= x < xp[j + 1]
        jc = j.clip(0, n - 2)
        x0, x1 = xp[jc], xp[jc + 1]
        y0, y1 = fp[jc], fp[jc + 1]
        if is_complex:
            re = _interp_real(xf, x0, x1, y0.real, y1.real, False)
            im = _interp_real(xf, x0, x1, y0.imag, y1.imag, False)
            res = empty(xf.shape, dtype=dt, device=xf._device_str)
            res.real = re
            res.imag = im
        else:
            res = _interp_real(xf, x0, x1, y0, y1, True)
        res = _where(x0 == xf, y0, res)  # a sample point itself: no arithmetic
        res = _where(j == n - 1, fp[-1], res)
        res = _where(xf < xp[0], lval, res)
        res = _where(xf > xp[-1], rval, res)
        res = _where(isnan(xf), xf, res)  # (a single sample point has no NaN rule)
    return res


# ---- convolution and correlation --------------------------------------------------------

_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode):
    if isinstance(mode, str):
        if mode in _MODES:
            return _MODES[mode]
        if mode and mode[0].lower() in "vsf":
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
        raise ValueError("mode must be one of 'valid', 'same', or 'full' (got %r)" % (mode,))
    if isinstance(mode, (bool, _numpy.bool_)):
        raise TypeError("convolve/correlate mode not understood")
    try:
        m = operator.index(mode)
    except TypeError:
        raise TypeError("convolve/correlate mode not understood") from None
    if m not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return m


def _check_1d(*arrays):
    for a in arrays:
        if a.ndim > 1:
            raise ValueError("object too deep for desired array")


# Up to this many lags the products are summed one lag at a time (two kernels each);
# longer kernels gather blocks of windows and reduce them with one matrix product.
_LOOP_LAGS = 32
_GATHER_ELEMENTS = 1 << 22


def _sliding_dot(long, short, mode, dtype):
    """out[i] = sum_j long[i - n_left + j] * short[j] (zero outside `long`), NumPy's
    correlation core with len(short) <= len(long); `mode` sets n_left and the length.
    NumPy sums with the dtype's dot loop, which reports no floating-point errors."""
    with _errstate(all="ignore"):
        return _sliding_dot_values(long, short, mode, dtype)


# Note [FFT convolution]: on CUDA devices a floating convolution with a long kernel (at
# least _FFT_LAGS taps) is computed through one real/complex FFT of the padded length,
# as CuPy does; its values differ from the direct sum by rounding only (relative to the
# largest term). Integer and bool inputs, short kernels and the cpu device use the direct
# sum, which equals NumPy's to the bit.
_FFT_LAGS = 128


def _fft_sliding_dot(long, short, mode, acc):
    from cunp import fft as _fft

    n, m = long.shape[0], short.shape[0]
    size = n + m - 1
    fast = 1
    while fast < size:
        fast *= 2
    for cand in (fast * 3 // 4, fast * 5 // 8, fast * 9 // 16):  # 2^a 3^b 5^c sizes below the power of two
        if cand >= size and cand % 2 == 0:
            fast = min(fast, cand)
    if acc.kind == "c":
        full = _fft.ifft(_fft.fft(long, fast) * _fft.fft(short[::-1], fast))[:size]
    else:
        full = _fft.irfft(_fft.rfft(long, fast) * _fft.rfft(short[::-1], fast), fast)[:size]
    n_left = (m - 1, m - 1 - m // 2, 0)[mode]
    length = (n - m + 1, n, size)[mode]
    return full[n_left:n_left + length].astype(acc, copy=False)


def _sliding_dot_values(long, short, mode, dtype):
    n, m = long.shape[0], short.shape[0]
    if m >= _FFT_LAGS and dtype.kind in "fc" and long._device_str != "cpu":
        acc = _numpy.dtype(_numpy.float32) if dtype == _numpy.float16 else dtype
        out = _fft_sliding_dot(long.astype(acc), short.astype(acc), mode, acc)
        return out.astype(dtype) if out.dtype != dtype else out
    n_left, n_right = ((0, 0), (m // 2, m - m // 2 - 1), (m - 1, m - 1))[mode]
    length = n + n_left + n_right - m + 1
    # float16 products are summed in float32, as NumPy's half dot.
    acc = _numpy.dtype(_numpy.float32) if dtype == _numpy.float16 else dtype
    dev = long._device_str
    lp = long.astype(acc)
    sp = short.astype(acc)
    if n_left or n_right:
        lp = concatenate((zeros(n_left, dtype=acc, device=dev), lp, zeros(n_right, dtype=acc, device=dev)))
    if m <= _LOOP_LAGS:
        out = zeros(length, dtype=acc, device=dev)
        term = empty(length, dtype=acc, device=dev)
        for j in range(m):
            multiply(lp[j:j + length], sp[j], out=term)
            out += term
    else:
        rows = max(1, _GATHER_ELEMENTS // m)
        lag = arange(m, dtype=_numpy.int64, device=dev)
        pieces = []
        for start in range(0, length, rows):
            stop = min(length, start + rows)
            first = arange(start, stop, dtype=_numpy.int64, device=dev)
            windows = lp[first[:, None] + lag[None, :]]  # (rows, m) gathered windows
            pieces.append(_matmul(windows, sp))
        out = concatenate(pieces) if len(pieces) > 1 else pieces[0]
    return out.astype(dtype) if out.dtype != dtype else out


def convolve(a, v, mode="full"):
    """numpy.convolve: the discrete linear convolution of two 1-d sequences (modes
    'full', 'same', 'valid'); integer and bool inputs stay integer/bool."""
    dev = _device(a, v)
    a, v = _as_1d(a, dev), _as_1d(v, dev)
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    m = _mode(mode)
    _check_1d(a, v)
    return _sliding_dot(a, v[::-1], m, promote_types(a.dtype, v.dtype))


def correlate(a, v, mode="valid"):
    """numpy.correlate: c[k] = sum_n a[n + k] * conj(v[n]) of two 1-d sequences."""
    m = _mode(mode)
    dev = _device(a, v)
    a, v = _arr(a, dev), _arr(v, dev)
    _check_1d(a, v)
    if a.ndim == 0 or v.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    dt = promote_types(a.dtype, v.dtype)
    if v.dtype.kind == "c":
        v = conjugate(v)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    if a.shape[0] < v.shape[0]:
        return _sliding_dot(v, a, m, dt)[::-1].copy()
    return _sliding_dot(a, v, m, dt)


# ---- polynomials ------------------------------------------------------------------------

def polyval(p, x):
    """numpy.polyval: Horner's scheme, y = y * x + p[i] from the highest power."""
    dev = _device(p, x)
    p = _arr(p, dev)
    x = _arr(x, dev)
    y = zeros_like(x)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _poly_coeffs(c, device):
    """numpy.poly1d's coefficients: 1-d, leading zeros removed, [0] when nothing is left."""
    c = atleast_1d(_arr(c, device))
    if c.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nz = _flatnonzero(c)
    if nz.shape[0] == 0:
        return zeros(1, dtype=c.dtype, device=c._device_str)
    first = int(nz[0].item())
    return c[first:] if first else c


def polyadd(a1, a2):
    """numpy.polyadd: the shorter coefficient array is padded with leading zeros."""
    return _poly_sum(a1, a2, add)


def polysub(a1, a2):
    """numpy.polysub: a1 - a2 on coefficient arrays padded to a common length."""
    return _poly_sum(a1, a2, subtract)


def _poly_sum(a1, a2, op):
    dev = _device(a1, a2)
    a1, a2 = atleast_1d(_arr(a1, dev)), atleast_1d(_arr(a2, dev))
    extra = a2.shape[0] - a1.shape[0]
    if extra > 0:
        a1 = concatenate((zeros(extra, dtype=a1.dtype, device=a1._device_str), a1))
    elif extra < 0:
        a2 = concatenate((zeros(-extra, dtype=a2.dtype, device=a2._device_str), a2))
    return op(a1, a2)


def polymul(a1, a2):
    """numpy.polymul: the convolution of the (leading-zero trimmed) coefficients."""
    dev = _device(a1, a2)
    return convolve(_poly_coeffs(a1, dev), _poly_coeffs(a2, dev))


def polydiv(u, v):
    """numpy.polydiv: (quotient, remainder) of polynomial long division, in floating
    point; the remainder's leading near-zeros (allclose to 0) are dropped."""
    dev = _device(u, v)
    u = atleast_1d(_arr(u, dev)) + 0.0
    v = atleast_1d(_arr(v, dev)) + 0.0
    w = u[0] + v[0]
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros((max(m - n + 1, 1),), dtype=w.dtype, device=u._device_str)
    r = u.astype(w.dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[-1] > 1 and _bool(_isclose_zero(r[0])):
        r = r[1:]
    return q, r


def _isclose_zero(x):
    # numpy.allclose(x, 0, rtol=1e-14) of one value: |x - 0| <= atol (1e-8); NaN is not close.
    return absolute(x) <= 1e-08


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative's coefficients."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _arr(p)
    for level in range(m + 1):
        if p.ndim == 0:
            raise TypeError("len() of unsized object")
        powers = arange(p.shape[0] - 1, 0, -1, dtype=_numpy.int64, device=p._device_str)
        y = p[:-1] * powers  # also at the last level, as NumPy (its errors included)
        if level == m:
            return p
        p = y


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative, integration constants k (scalar, or one
    per integration, the first constant for the first integration)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    dev = _device(p, k)
    if k is None:
        k = zeros(m, dtype=_numpy.float64, device=dev)
    k = atleast_1d(_arr(k, dev))
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones(m, dtype=_numpy.float64, device=k._device_str)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _arr(p, dev)
    for i in range(m):
        if p.ndim == 0:
            raise TypeError("len() of unsized object")
        powers = arange(p.shape[0], 0, -1, dtype=_numpy.int64, device=p._device_str)
        p = concatenate((p / powers, k[i:i + 1]))
    return p


def _no_scalar(x):
    # NumPy's poly and roots raise TypeError for a scalar or 0-d array (their
    # __array_function__ dispatch iterates the argument); cunp keeps that answer.
    if _ndim(x) == 0:
        raise TypeError("expected a sequence (or a 1-d or 2-d array), not a scalar")


def _mintypecode(dt):
    # numpy.mintypecode(dt.char) of one dtype: float32/64, complex64/128 and long double
    # kinds keep their type, everything else becomes float64.
    return dt if dt.char in "GDFgdf" else _numpy.dtype(_numpy.float64)


def poly(seq_of_zeros):
    """numpy.poly: the coefficients of the monic polynomial with the given roots (or the
    characteristic polynomial of a square matrix); conjugate-pair roots give real ones."""
    _no_scalar(seq_of_zeros)
    z = atleast_1d(_arr(seq_of_zeros))
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = _linalg.eigvals(z)
    elif len(sh) == 1:
        z = z.astype(_mintypecode(z.dtype))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    one = ones(1, dtype=dt, device=z._device_str)
    a = one
    for i in range(z.shape[0]):
        a = convolve(a, concatenate((one, -z[i:i + 1])), mode="full")
    if a.dtype.kind == "c":
        r = z.astype(_numpy.complex128)
        if _bool(_all(_sort(r) == _sort(conjugate(r)))):
            a = a.real.copy()
    return a


def roots(p):
    """numpy.roots: the eigenvalues of the companion matrix (leading zeros dropped,
    trailing zeros give roots at 0)."""
    _no_scalar(p)
    p = atleast_1d(_arr(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    dev = p._device_str
    nz = _flatnonzero(p)
    if nz.shape[0] == 0:
        return empty(0, dtype=_numpy.float64, device=dev)
    first, last = (int(i) for i in nz[[0, -1]].get())
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(_numpy.float64)
    N = p.shape[0]
    if N > 1:
        A = diag(ones(N - 2, dtype=p.dtype, device=dev), -1)
        A[0, :] = -p[1:] / p[0]
        r = _linalg.eigvals(A)
        # NumPy's rule (kept by roots when NumPy 2.5 made eigvals always complex): real
        # roots of a real polynomial come back real.
        if r.dtype.kind == "c" and A.dtype.kind != "c" and not bool(r.imag.any()):
            r = r.real.copy()
    else:
        r = empty(0, dtype=_numpy.float64, device=dev)
    return concatenate((r, zeros(trailing, dtype=r.dtype, device=dev)))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit: least-squares polynomial coefficients (highest power first) through
    cunp.linalg.lstsq of the column-scaled Vandermonde matrix; `full` adds (residuals,
    rank, singular values, rcond), `cov` the covariance matrix, `w` weights."""
    order = int(deg) + 1
    dev = _device(x, y, w)
    x = _arr(x, dev) + 0.0
    y = _arr(y, dev) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * _numpy.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = _arr(w, dev) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]
        rhs *= w[:, None] if rhs.ndim == 2 else w
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = _linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if not full and int(rank) != order:
        warnings.warn("Polyfit may be poorly conditioned", RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        base = _linalg.inv(_dot(lhs.T, lhs))
        base /= _outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        return (c, base * fac) if y.ndim == 1 else (c, base[:, :, None] * fac)
    return c


# ---- elementwise helpers ----------------------------------------------------------------

def sinc(x):
    """numpy.sinc: sin(pi x) / (pi x), 1 at 0."""
    x = _arr(x)
    x = _numpy.pi * x
    eps = _numpy.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = _where(x, x, eps)
    return sin(y) / y


def _signed_inf(x, out, negative):
    x = _arr(x)
    inf = isinf(x)
    try:
        sign = signbit(x)
    except TypeError as e:
        raise TypeError("This operation is not supported for %s values because it would be ambiguous."
                        % x.dtype) from e
    return logical_and(inf, sign if negative else logical_not(sign), out=out)


def isposinf(x, out=None):
    """numpy.isposinf: True where x is +inf (TypeError for complex input)."""
    return _signed_inf(x, out, False)


def isneginf(x, out=None):
    """numpy.isneginf: True where x is -inf (TypeError for complex input)."""
    return _signed_inf(x, out, True)


def iscomplex(x):
    """numpy.iscomplex: True where the imaginary part is nonzero."""
    ax = _arr(x)
    if ax.dtype.kind == "c":
        return ax.imag != 0
    return zeros(ax.shape, dtype=bool, device=ax._device_str)


def isreal(x):
    """numpy.isreal: True where the imaginary part is zero."""
    if not isinstance(x, (ndarray, _numpy.ndarray)) and hasattr(x, "imag"):
        return x.imag == 0  # a Python or NumPy scalar: NumPy answers with a scalar
    return _imag(_arr(x)) == 0


def _dtype_of(x):
    try:
        return _numpy.asarray(x).dtype
    except (TypeError, ValueError):
        return _arr(x).dtype  # a sequence holding device arrays


def iscomplexobj(x):
    """numpy.iscomplexobj: whether x's dtype (or the dtype NumPy infers for it) is complex."""
    try:
        t = x.dtype.type
    except AttributeError:
        t = _dtype_of(x).type
    return issubclass(t, _numpy.complexfloating)


def isrealobj(x):
    """numpy.isrealobj: not iscomplexobj(x)."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """numpy.real_if_close: the real part when every imaginary part is below tol
    (in machine epsilons when tol > 1)."""
    a = _arr(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = _numpy.finfo(a.dtype).eps * tol
    if _bool(_all(absolute(a.imag) < tol)):
        a = a.real
    return a


def fix(x, out=None):
    """numpy.fix: rounds toward zero (trunc); integers keep their dtype."""
    return trunc(_arr(x), out=out)


def ediff1d(ary, to_end=None, to_begin=None):
    """numpy.ediff1d: differences of the flattened array, with values prepended/appended
    (cast to ary's dtype under the same_kind rule)."""
    ary = _arr(ary).ravel()
    dev = ary._device_str
    if to_begin is None and to_end is None:
        return ary[1:] - ary[:-1]
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        extra = _arr(extra, dev)
        if not _numpy.can_cast(extra.dtype, ary.dtype, casting="same_kind"):
            raise TypeError("dtype of `%s` must be compatible with input `ary` under the `same_kind` rule." % name)
        parts.append(extra.ravel())
    begin, end = parts
    lb = 0 if begin is None else begin.shape[0]
    le = 0 if end is None else end.shape[0]
    ld = max(ary.shape[0] - 1, 0)
    result = empty(lb + ld + le, dtype=ary.dtype, device=dev)
    if lb:
        result[:lb] = begin
    if le:
        result[lb + ld:] = end
    subtract(ary[1:], ary[:-1], out=result[lb:lb + ld])
    return result


# ---- gradient, unwrap -------------------------------------------------------------------

def _axis_slices(ndim, axis, index):
    s = [slice(None)] * ndim
    s[axis] = index
    return tuple(s)


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient: second-order central differences inside, first- or second-order
    one-sided differences at the edges, for uniform spacings (scalars) or sample
    coordinates (1-d arrays, one per axis)."""
    f = _arr(f)
    N = f.ndim
    axes = tuple(range(N)) if axis is None else _normalize_axis_tuple(axis, N)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = list(varargs)
        for i, distances in enumerate(dx):
            distances = _arr(distances, f._device_str)
            if distances.ndim == 0:
                continue
            if distances.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if distances.shape[0] != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the corresponding dimension")
            if distances.dtype.kind in "iu":
                distances = distances.astype(_numpy.float64)
            steps = _diff(distances)
            if steps.shape[0] == 0:
                raise IndexError("index 0 is out of bounds for axis 0 with size 0")
            first = steps[0]
            # Evenly spaced coordinates use the uniform formulas, with the step as a value.
            dx[i] = first if _bool(_all(steps == first)) else steps
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_numpy.float64)
        otype = _numpy.dtype(_numpy.float64)
    results = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = empty(f.shape, dtype=otype, device=f._device_str)

        def at(index, ax=ax):
            return f[_axis_slices(N, ax, index)]

        uniform = _ndim(h) == 0
        inner = _axis_slices(N, ax, slice(1, -1))
        if uniform:
            out[inner] = (at(slice(2, None)) - at(slice(None, -2))) / (2.0 * h)
        else:
            h1, h2 = h[:-1], h[1:]
            shape = [1] * N
            shape[ax] = -1
            ca = (-h2 / (h1 * (h1 + h2))).reshape(shape)
            cb = ((h2 - h1) / (h1 * h2)).reshape(shape)
            cc = (h1 / (h2 * (h1 + h2))).reshape(shape)
            out[inner] = ca * at(slice(None, -2)) + cb * at(slice(1, -1)) + cc * at(slice(2, None))
        if edge_order == 1:
            out[_axis_slices(N, ax, 0)] = (at(1) - at(0)) / (h if uniform else h[0])
            out[_axis_slices(N, ax, -1)] = (at(-1) - at(-2)) / (h if uniform else h[-1])
        else:
            if uniform:
                ca, cb, cc = -1.5 / h, 2.0 / h, -0.5 / h
            else:
                h1, h2 = h[0], h[1]
                ca = -(2.0 * h1 + h2) / (h1 * (h1 + h2))
                cb = (h1 + h2) / (h1 * h2)
                cc = -h1 / (h2 * (h1 + h2))
            out[_axis_slices(N, ax, 0)] = ca * at(0) + cb * at(1) + cc * at(2)
            if uniform:
                ca, cb, cc = 0.5 / h, -2.0 / h, 1.5 / h
            else:
                h1, h2 = h[-2], h[-1]
                ca = h2 / (h1 * (h1 + h2))
                cb = -(h2 + h1) / (h1 * h2)
                cc = (2.0 * h2 + h1) / (h2 * (h1 + h2))
            out[_axis_slices(N, ax, -1)] = ca * at(-3) + cb * at(-2) + cc * at(-1)
        results.append(out)
    return results[0] if len(axes) == 1 else tuple(results)


def unwrap(p, discont=None, axis=-1, *, period=2 * _numpy.pi):
    """numpy.unwrap: adds multiples of `period` where consecutive values jump by more
    than `discont` (default period / 2) along `axis`."""
    p = _arr(p)
    dd = _diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    later = _axis_slices(p.ndim, axis, slice(1, None))
    dtype = result_type(dd, period)
    if dtype.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high = period / 2
        ambiguous = True
    low = -high
    ddmod = mod(dd - low, period) + low
    if ambiguous:
        _copyto(ddmod, high, where=(ddmod == low) & (dd > 0))
    correction = ddmod - dd
    _copyto(correction, 0, where=absolute(dd) < discont)
    up = p.astype(dtype, copy=True)
    up[later] = p[later] + correction.cumsum(axis)
    return up


# ---- comparisons and type queries -------------------------------------------------------

def _broadcastable(s1, s2):
    for a, b in zip(reversed(s1), reversed(s2)):
        if a != b and a != 1 and b != 1:
            return False
    return True


def array_equiv(a1, a2):
    """numpy.array_equiv: same values after broadcasting (False when the shapes do not
    broadcast)."""
    try:
        a1 = _arr(a1, _device(a1, a2))
        a2 = _arr(a2, a1._device_str)
    except Exception:  # noqa: BLE001 - NumPy: anything that is not an array compares unequal
        return False
    if not _broadcastable(a1.shape, a2.shape):
        return False
    return _bool(_all(a1 == a2))


def isscalar(element):
    """numpy.isscalar: NumPy scalars, Python numbers, str/bytes and the other builtin
    scalar types; arrays (even 0-d) are not scalars."""
    return (isinstance(element, _numpy.generic) or type(element) in _numpy.ScalarType
            or isinstance(element, numbers.Number))


def iterable(y):
    """numpy.iterable: whether iter(y) works (not for 0-d arrays)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


_PRECISION = {_numpy.half: 0, _numpy.single: 1, _numpy.double: 2, _numpy.longdouble: 3,
              _numpy.csingle: 1, _numpy.cdouble: 2, _numpy.clongdouble: 3}
_REAL_BY_PRECISION = (_numpy.half, _numpy.single, _numpy.double, _numpy.longdouble)
_COMPLEX_BY_PRECISION = (None, _numpy.csingle, _numpy.cdouble, _numpy.clongdouble)


def common_type(*arrays):
    """numpy.common_type: the inexact scalar type of the arrays' precision (integers count
    as float64), complex when any array is complex."""
    complex_ = False
    precision = 0
    for a in arrays:
        t = a.dtype.type
        if iscomplexobj(a):
            complex_ = True
        if issubclass(t, _numpy.integer):
            p = 2
        else:
            p = _PRECISION.get(t)
            if p is None:
                raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, p)
    return (_COMPLEX_BY_PRECISION if complex_ else _REAL_BY_PRECISION)[precision]


def min_scalar_type(a, /):
    """numpy.min_scalar_type: an array with dimensions keeps its dtype; a 0-d cunp array
    is read back (its value decides); anything else is NumPy's answer."""
    if isinstance(a, ndarray):
        if a.ndim:
            return a.dtype
        return _numpy.min_scalar_type(a.get())
    return _numpy.min_scalar_type(a)


# ---- memory overlap ---------------------------------------------------------------------

def _memory_layout(x):
    """(space, first byte, [(extent, stride)], itemsize) of an array's elements, or None
    when x is no array (NumPy converts it to a fresh one, sharing nothing)."""
    if isinstance(x, ndarray):
        space = "host" if x._device_str == "cpu" else x._device_str
        return space, x._ptr, list(zip(x.shape, x.strides)), x.itemsize
    if isinstance(x, _numpy.ndarray):
        return "host", x.__array_interface__["data"][0], list(zip(x.shape, x.strides)), x.itemsize
    return None


def _normalized_terms(base, dims):
    """Positive strides: a negative stride moves the base to the other end."""
    terms = []
    for n, s in dims:
        if n == 0:
            return base, None
        if n == 1 or s == 0:
            continue
        if s < 0:
            base += s * (n - 1)
            s = -s
        terms.append((s, n - 1))
    return base, terms


def _gcd(values):
    g = 0
    for v in values:
        g = _gcd2(g, v)
    return g


def _gcd2(a, b):
    while b:
        a, b = b, a % b
    return a


class _Work:
    __slots__ = ("left",)

    def __init__(self, limit):
        self.left = limit


def _reachable(terms, lo, hi, work):
    """Whether sum(c * z) over terms (c, u), 0 <= z <= u, can land in [lo, hi]:
    depth-first over the largest coefficients, pruned by the reachable range and by
    divisibility."""
    if not terms:
        return lo <= 0 <= hi
    top = sum(c * u for c, u in terms)
    if hi < 0 or lo > top:
        return False
    g = _gcd(c for c, _ in terms)
    if (hi // g) * g < lo:  # no multiple of the gcd in [lo, hi]
        return False
    (c, u), rest = terms[0], terms[1:]
    if not rest:
        zlo = max(0, -(-lo // c))
        return zlo <= min(u, hi // c)
    rest_top = top - c * u
    zlo = max(0, -(-(lo - rest_top) // c))
    zhi = min(u, hi // c)
    for z in range(zlo, zhi + 1):
        if work.left is not None:
            work.left -= 1
            if work.left < 0:
                raise TooHardError("Exceeded max_work")
        if _reachable(rest, lo - c * z, hi - c * z, work):
            return True
    return False


def shares_memory(a, b, /, max_work=-1):
    """numpy.shares_memory: whether some byte is used by an element of both arrays,
    decided exactly from the two arrays' pointers, shapes and strides. max_work=0 only
    compares their byte ranges (numpy.exceptions.TooHardError when they overlap); a
    positive max_work bounds the search (TooHardError past it). Arrays on different
    devices share nothing."""
    if max_work is None:
        max_work = -1
    la, lb = _memory_layout(a), _memory_layout(b)
    if la is None or lb is None or la[0] != lb[0]:
        return False
    _, pa, da, ia = la
    _, pb, db, ib = lb
    pa, ta = _normalized_terms(pa, da)
    pb, tb = _normalized_terms(pb, db)
    if ta is None or tb is None:
        return False
    end_a = pa + sum(c * u for c, u in ta) + ia
    end_b = pb + sum(c * u for c, u in tb) + ib
    if end_a <= pb or end_b <= pa:
        return False
    if max_work == 0:
        raise TooHardError("Exceeded max_work")  # the byte ranges overlap: undecided
    # Element x of a starts at pa + sum(sa * x), element y of b at pb + sum(sb * y); they
    # overlap when -ia < start_a - start_b < ib. With y' = u - y every coefficient is
    # positive: sum(sa * x) + sum(sb * y') in [pb - pa + T - ia + 1, pb - pa + T + ib - 1].
    shift = pb - pa + sum(c * u for c, u in tb)
    # Terms of one coefficient merge: c*z1 + c*z2 takes exactly the values c*z, z <= u1 + u2.
    merged = {}
    for c, u in ta + tb:
        merged[c] = merged.get(c, 0) + u
    terms = sorted(merged.items(), reverse=True)
    work = _Work(None if max_work < 0 else int(max_work))
    return _reachable(terms, shift - ia + 1, shift + ib - 1, work)


# ---- index and construction helpers -----------------------------------------------------

def mask_indices(n, mask_func, k=0):
    """numpy.mask_indices: the indices where mask_func(ones((n, n)), k) is nonzero."""
    m = ones((n, n), dtype=_numpy.int64)
    a = mask_func(m, k)
    return _nonzero(a != 0)


def _block_index(index):
    return "arrays" + "".join("[%d]" % i for i in index if i is not None)


def _block_depths(arrays, index):
    """(index path to the first leaf, deepest leaf ndim, first cunp leaf's device) with
    NumPy's errors for tuples, empty lists and mismatched depths."""
    if isinstance(arrays, tuple):
        raise TypeError("%s is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                        "implicit conversion from tuple to ndarray." % _block_index(index))
    if isinstance(arrays, list):
        if not arrays:
            return index + [None], 0, None
        first, ndim, dev = None, 0, None
        for i, item in enumerate(arrays):
            path, nd, d = _block_depths(item, index + [i])
            if first is None:
                first = path
            elif len(path) != len(first):
                raise ValueError("List depths are mismatched. First element was at depth %d, but there is an "
                                 "element at depth %d (%s)" % (len(first), len(path), _block_index(path)))
            elif path[-1] is None:
                first = path
            ndim = max(ndim, nd)
            dev = dev if dev is not None else d
        return first, ndim, dev
    dev = arrays._device_str if isinstance(arrays, ndarray) else None
    return index, _ndim(arrays), dev


def _block_join(arrays, depth, list_ndim, result_ndim, dev):
    if depth < list_ndim:
        parts = [_block_join(x, depth + 1, list_ndim, result_ndim, dev) for x in arrays]
        return concatenate(parts, axis=-(list_ndim - depth))
    a = _arr(arrays, dev)
    if a.ndim < result_ndim:
        a = a.reshape((1,) * (result_ndim - a.ndim) + a.shape)
    return a


def block(arrays):
    """numpy.block: assembles an array from nested lists of blocks; the innermost lists
    join along the last axis, each level out along the axis before."""
    path, arr_ndim, dev = _block_depths(arrays, [])
    list_ndim = len(path)
    if path and path[-1] is None:
        raise ValueError("List at %s cannot be empty" % _block_index(path))
    result_ndim = max(arr_ndim, list_ndim)
    result = _block_join(arrays, 0, list_ndim, result_ndim, dev)
    return result.copy() if list_ndim == 0 else result


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """numpy.fromfunction: function(*indices(shape, dtype), **kwargs)."""
    return function(*indices(shape, dtype=dtype), **kwargs)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
                 "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: an array of dtype meeting the flag requirements (C/F contiguous,
    aligned, writeable, owning its data), copied only when one is not met."""
    if not requirements:
        return asarray(a, dtype=dtype)
    wanted = {_REQUIREMENTS[r.upper()] for r in requirements}
    wanted.discard("E")  # cunp has no array subclasses to turn into base arrays
    order = "A"
    if wanted >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    if "F" in wanted:
        order = "F"
        wanted.remove("F")
    elif "C" in wanted:
        order = "C"
        wanted.remove("C")
    arr = asarray(a, dtype=dtype, order=order)
    for flag in wanted:
        if not arr.flags[flag]:
            return arr.copy(order=order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, with ValueError when a float or complex result
    holds an inf or NaN."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc" and not _bool(_all(isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


# ---- functional helpers -----------------------------------------------------------------

def _conditions(condlist, x):
    """piecewise's condition list as one boolean cunp array (one row per condition)."""
    dev = x._device_str
    if isinstance(condlist, ndarray):
        return condlist.astype(bool)
    if isinstance(condlist, (list, tuple)) and condlist:
        rows = [c.astype(bool) if isinstance(c, ndarray) else _arr(c, dev, bool) for c in condlist]
        return stack([r if r._device_str == dev else r.to_device(dev) for r in rows])
    return _arr(condlist, dev, bool)


def piecewise(x, condlist, funclist, *args, **kw):
    """numpy.piecewise: funclist[i] (a function of x[condlist[i]], or a value) where
    condlist[i] holds; one extra function covers the places no condition holds."""
    x = _arr(x)
    n2 = len(funclist)
    if isinstance(condlist, ndarray) and condlist.ndim:
        nested = condlist.ndim > 1  # an element of a 1-d array is NumPy's scalar
    else:
        nested = isinstance(condlist[0], (list, ndarray, _numpy.ndarray)) if not isscalar(condlist) else False
    if isscalar(condlist) or (not nested and x.ndim != 0):
        condlist = [condlist]
    conds = _conditions(condlist, x)
    n = conds.shape[0]
    if n == n2 - 1:
        otherwise = logical_not(_any(conds, axis=0, keepdims=True))
        conds = concatenate([conds, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError("with %d condition(s), either %d or %d functions are expected" % (n, n, n + 1))
    y = zeros_like(x)
    for i, func in enumerate(funclist):
        cond = conds[i]
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """numpy.apply_along_axis: func1d on every 1-d slice along axis; the slices' results
    (of one shape) replace that axis."""
    arr = _arr(arr)
    nd = arr.ndim
    axis = _normalize_axis_index(axis, nd)
    dims = list(range(nd))
    view = arr.transpose(dims[:axis] + dims[axis + 1:] + [axis])
    outer_shape = view.shape[:-1]
    positions = itertools.product(*(range(n) for n in outer_shape))
    try:
        first = next(positions)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _arr(func1d(view[first + (Ellipsis,)], *args, **kwargs), arr._device_str)
    buff = zeros(outer_shape + res.shape, dtype=res.dtype, device=arr._device_str)
    buff[first + (Ellipsis,)] = res
    for pos in positions:
        buff[pos + (Ellipsis,)] = _arr(func1d(view[pos + (Ellipsis,)], *args, **kwargs), arr._device_str)
    bd = list(range(buff.ndim))
    k = res.ndim
    return buff.transpose(bd[:axis] + bd[buff.ndim - k:] + bd[axis:buff.ndim - k])


def apply_over_axes(func, a, axes):
    """numpy.apply_over_axes: func(a, axis) for each axis in turn, a reduced axis kept
    as length 1."""
    val = _arr(a)
    N = a.ndim
    if _numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


# ---- nan-aware arg reductions -----------------------------------------------------------

def _nan_arg(reduce, fill, a, axis, out, keepdims):
    a = _arr(a)
    if a.dtype.kind in "fc":
        mask = isnan(a)
        if mask.size and _bool(_any(_all(mask, axis=axis))):
            raise ValueError("All-NaN slice encountered")
        a = _where(mask, fill, a)
    return reduce(a, axis=axis, out=out, keepdims=False if keepdims is _NOVALUE else keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=_NOVALUE):
    """numpy.nanargmin: argmin with NaNs ignored (ValueError for an all-NaN slice)."""
    return _nan_arg(_argmin, _numpy.inf, a, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=_NOVALUE):
    """numpy.nanargmax: argmax with NaNs ignored (ValueError for an all-NaN slice)."""
    return _nan_arg(_argmax, -_numpy.inf, a, axis, out, keepdims)


# ---- special functions ------------------------------------------------------------------

# Chebyshev coefficients of exp(-x) I0(x) on [0, 8] (argument x/2 - 2) and of
# exp(-x) sqrt(x) I0(x) on (8, inf) (argument 32/x - 2), from the Cephes Math Library (i0.c,
# S. L. Moshier).
_I0_SMALL = (
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-09,
    -1.30002500998624804212e-08, 6.04699502254191894932e-08, -2.67079385394061173391e-07,
    1.11738753912010371815e-06, -4.41673835845875056359e-06, 1.64484480707288970893e-05,
    -5.75419501008210370398e-05, 1.88502885095841655729e-04, -5.76375574538582365885e-04,
    1.63947561694133579842e-03, -4.32430999505057594430e-03, 1.05464603945949983183e-02,
    -2.37374148058994688156e-02, 4.93052842396707084878e-02, -9.49010970480476444210e-02,
    1.71620901522208775349e-01, -3.04682672343198398683e-01, 6.76795274409476084995e-01,
)
_I0_LARGE = (
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-09, 2.26666899049817806459e-08, 2.04891858946906374183e-07,
    2.89137052083475648297e-06, 6.88975834691682398426e-05, 3.36911647825569408990e-03,
    8.04490411014108831608e-01,
)


def _chebyshev(t, coeffs):
    """Clenshaw's recurrence for sum'(c_i T_i(t/2)), Cephes' chbevl."""
    b0, b1, b2 = coeffs[0], 0.0, 0.0
    for c in coeffs[1:]:
        b2 = b1
        b1 = b0
        b0 = t * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _i0_small(x):
    return exp(x) * _chebyshev(x / 2.0 - 2, _I0_SMALL)


def _i0_large(x):
    return exp(x) * _chebyshev(32.0 / x - 2.0, _I0_LARGE) / sqrt(x)


def i0(x):
    """numpy.i0: the modified Bessel function of the first kind, order 0, of a real
    array (Chebyshev expansions on [0, 8] and beyond, elementwise on the device)."""
    x = _arr(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(_numpy.float64)
    x = absolute(x)
    return piecewise(x, [x <= 8.0], [_i0_small, _i0_large])


# ---- bits -------------------------------------------------------------------------------

_UNSIGNED = {1: _numpy.uint8, 2: _numpy.uint16, 4: _numpy.uint32, 8: _numpy.uint64}


def _popcount(x):
    """Bits set in each element of an unsigned array (a SWAR count in uint64)."""
    v = x.astype(_numpy.uint64)
    v = v - (right_shift(v, 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + (right_shift(v, 2) & 0x3333333333333333)
    v = (v + right_shift(v, 4)) & 0x0F0F0F0F0F0F0F0F
    return right_shift(v * 0x0101010101010101, 56).astype(_numpy.uint8)


def bitwise_count(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True,
                  signature=None):
    """numpy.bitwise_count: the number of 1-bits in the absolute value of each integer
    (uint8 results)."""
    x = _arr(x)
    if x.dtype.kind not in "biu":
        raise TypeError("ufunc 'bitwise_count' not supported for the input types, and the inputs could not be "
                        "safely coerced to any supported types according to the casting rule ''safe''")
    if dtype is not None and _numpy.dtype(dtype) != _numpy.uint8:
        raise TypeError("No loop matching the specified signature and casting was found for ufunc bitwise_count")
    if x.dtype.kind == "b":
        bits = x.astype(_numpy.uint8)
    elif x.dtype.kind == "i":
        bits = absolute(x).view(_UNSIGNED[x.dtype.itemsize])  # abs(min) wraps to the sign bit, as NumPy
    else:
        bits = x
    r = _popcount(bits)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is None and where is True:
        return r
    if out is None:
        out = empty(r.shape, dtype=_numpy.uint8, device=r._device_str)
    _copyto(out, r, casting=casting, where=where)
    return out


def _type_name(x):
    return "None" if x is None else type(x).__name__


def _pack_order(bitorder):
    if not isinstance(bitorder, str):
        raise TypeError("pack() argument 3 must be str, not %s" % _type_name(bitorder))
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "big"


def _unpack_order(bitorder):
    if not isinstance(bitorder, str):
        raise TypeError("unpack() argument 4 must be str, not %s" % _type_name(bitorder))
    if bitorder[:1] not in ("b", "l"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    return bitorder[0] == "b"


def packbits(a, /, axis=None, bitorder="big"):
    """numpy.packbits: groups of 8 truth values along axis (flattened for None) as uint8,
    zero-padded at the end; the first value is the high bit ('big') or the low bit."""
    a = _arr(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    big = _pack_order(bitorder)
    bits = a if a.dtype.kind == "b" else not_equal(a, 0)
    if axis is None or bits.ndim == 0:
        bits = bits.reshape(-1)
        axis = 0
    else:
        axis = _normalize_axis_index(axis, bits.ndim)
    bits = moveaxis(bits, axis, -1)
    lead, n = bits.shape[:-1], bits.shape[-1]
    nbytes = (n + 7) // 8
    dev = a._device_str
    if nbytes * 8 != n:
        bits = concatenate((bits, zeros(lead + (nbytes * 8 - n,), dtype=bool, device=dev)), axis=-1)
    bits = bits.reshape(lead + (nbytes, 8)).astype(_numpy.uint8)
    shifts = arange(7, -1, -1, dtype=_numpy.uint8, device=dev) if big else arange(8, dtype=_numpy.uint8, device=dev)
    packed = left_shift(bits, shifts).sum(axis=-1, dtype=_numpy.uint8)
    return moveaxis(packed, -1, axis).copy()


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """numpy.unpackbits: each uint8 as 8 bits along axis (flattened for None); `count`
    keeps that many bits (padding with zeros) or, negative, drops that many at the end."""
    a = _arr(a)
    if a.dtype != _numpy.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    big = _unpack_order(bitorder)
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)
        axis = 0
    else:
        axis = _normalize_axis_index(axis, a.ndim)
    a = moveaxis(a, axis, -1)
    lead, n = a.shape[:-1], a.shape[-1]
    dev = a._device_str
    shifts = arange(7, -1, -1, dtype=_numpy.uint8, device=dev) if big else arange(8, dtype=_numpy.uint8, device=dev)
    bits = bitwise_and(right_shift(a[..., None], shifts), 1).reshape(lead + (n * 8,))
    if count is not None:
        count = operator.index(count)
        keep = count if count >= 0 else n * 8 + count
        if keep < 0:
            raise ValueError("-count larger than number of elements")
        if keep <= n * 8:
            bits = bits[..., :keep]
        else:
            bits = concatenate((bits, zeros(lead + (keep - n * 8,), dtype=_numpy.uint8, device=dev)), axis=-1)
    return moveaxis(bits, -1, axis).copy()


# ---- histograms in several dimensions ---------------------------------------------------

def _outer_edges(a, rng):
    """numpy.histogram's range: the given (min, max), or the data's, widened by 0.5 each
    way when they coincide (host values: they shape the bins)."""
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_numpy.isfinite(first) and _numpy.isfinite(last)):
            raise ValueError("supplied range of [%s, %s] is not finite" % (first, last))
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = (x[()] for x in stack([a.min(), a.max()]).get())
        if not (_numpy.isfinite(first) and _numpy.isfinite(last)):
            raise ValueError("autodetected range of [%s, %s] is not finite" % (first, last))
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _sample_matrix(sample):
    """histogramdd's sample as an (N, D) cunp array."""
    shape = getattr(sample, "shape", None)
    if shape is not None and len(shape) == 2:
        return _arr(sample)
    if isinstance(sample, (list, tuple)) and any(isinstance(s, ndarray) for s in sample):
        dev = _device(*sample)
        s = stack([_arr(x, dev) for x in sample])
    else:
        s = _arr(sample)
    s = atleast_2d(s).T
    if s.ndim != 2:
        raise ValueError("too many values to unpack (expected 2)")
    return s


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002 - NumPy's name
    """numpy.histogramdd: counts (or weight sums) of the rows of an (N, D) sample in a
    D-dimensional grid of bins; (histogram, list of D edge arrays)."""
    sample = _sample_matrix(sample)
    N, D = sample.shape
    dev = sample._device_str
    if weights is not None:
        weights = _arr(weights, dev)
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D  # noqa: A001
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges, nbin = [], []
    for i in builtins.range(D):
        b = bins[i]
        if _ndim(b) == 0:
            if b < 1:
                raise ValueError("`bins[{}]` must be positive, when an integer".format(i))
            smin, smax = _outer_edges(sample[:, i], range[i])
            try:
                n = operator.index(b)
            except TypeError as e:
                raise TypeError("`bins[{}]` must be an integer, when a scalar".format(i)) from e
            e_i = linspace(smin, smax, n + 1, device=dev)
        elif _ndim(b) == 1:
            e_i = _arr(b, dev)
            if _bool(_any(e_i[:-1] > e_i[1:])):
                raise ValueError("`bins[{}]` must be monotonically increasing, when an array".format(i))
        else:
            raise ValueError("`bins[{}]` must be a scalar or 1d array".format(i))
        edges.append(e_i)
        nbin.append(e_i.shape[0] + 1)  # an outlier bin at each end
    counts = []
    for i in builtins.range(D):
        col = sample[:, i]
        idx = _searchsorted(edges[i], col, side="right")
        # The last edge belongs to the last bin, not to the outliers.
        counts.append(idx - (col == edges[i][-1]))
    flat = _ravel_multi_index(tuple(counts), tuple(nbin))
    size = 1
    for n in nbin:
        size *= n
    hist = _bincount(flat, weights, minlength=size).reshape(tuple(nbin))
    hist = hist.astype(_numpy.float64, casting="safe")
    hist = hist[(slice(1, -1),) * D]
    if density:
        total = hist.sum()
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / _diff(edges[i]).reshape(shape)
        hist /= total
    return hist, edges



def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002 - NumPy's name
    """numpy.histogram2d: (H, xedges, yedges) of the points (x[i], y[i])."""
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        e = _arr(bins, _device(x, y))
        bins = [e, e]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ---- matrix-vector gufuncs --------------------------------------------------------------

def _gufunc_dims(name, sig, operand, have, need):
    if have < need:
        raise ValueError("%s: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                         "signature %s requires %d)" % (name, operand, have, sig, need))


def _gufunc_mismatch(name, sig, what, size, expected):
    raise ValueError("%s: %s has a mismatch in its core dimension 0, with gufunc signature %s (size %d is "
                     "different from %d)" % (name, what, sig, size, expected))


def _mv_axes(axes, count):
    if axes is _NOVALUE or axes is None:
        return None
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for "
                         "outputs can only be omitted if none of them has core axes.")
    out = []
    for entry, n in zip(axes, count):
        entry = (entry,) if isinstance(entry, numbers.Integral) else tuple(entry)
        if len(entry) != n:
            raise ValueError("axes item has %d entries, but %d needed" % (len(entry), n))
        out.append(entry)
    return out


def _matrix_vector(name, sig, x1, x2, out, axes, axis, keepdims, casting, order, dtype, signature, vector_first):
    if axis is not _NOVALUE and axis is not None:
        raise TypeError("%s: axis can only be used with a single shared core dimension, not with the 2 distinct "
                        "ones implied by signature %s." % (name, sig))
    if keepdims:
        raise TypeError("%s does not support keepdims: its signature %s requires input %d to have %d core "
                        "dimensions, but keepdims can only be used when all inputs have the same number of core "
                        "dimensions and all outputs have no core dimensions."
                        % (name, sig, 1, 2 if vector_first else 1))
    dev = _device(x1, x2, out if not isinstance(out, tuple) else out[0])
    x1, x2 = _arr(x1, dev), _arr(x2, dev)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    core = _mv_axes(axes, (1, 2, 1) if vector_first else (2, 1, 1))
    if core is not None:
        if vector_first:
            _gufunc_dims(name, sig, 0, x1.ndim, 1)
            _gufunc_dims(name, sig, 1, x2.ndim, 2)
            x1 = moveaxis(x1, core[0][0], -1)
            x2 = moveaxis(x2, core[1], (-2, -1))
        else:
            _gufunc_dims(name, sig, 0, x1.ndim, 2)
            _gufunc_dims(name, sig, 1, x2.ndim, 1)
            x1 = moveaxis(x1, core[0], (-2, -1))
            x2 = moveaxis(x2, core[1][0], -1)
    if vector_first:
        _gufunc_dims(name, sig, 0, x1.ndim, 1)
        _gufunc_dims(name, sig, 1, x2.ndim, 2)
        if x2.shape[-2] != x1.shape[-1]:
            _gufunc_mismatch(name, sig, "Input operand 1", x2.shape[-2], x1.shape[-1])
        m = x2.shape[-1]
        if x1.dtype.kind == "c":
            x1 = conjugate(x1)
        left, right = x1[..., None, :], x2
    else:
        _gufunc_dims(name, sig, 0, x1.ndim, 2)
        _gufunc_dims(name, sig, 1, x2.ndim, 1)
        if x2.shape[-1] != x1.shape[-1]:
            _gufunc_mismatch(name, sig, "Input operand 1", x2.shape[-1], x1.shape[-1])
        m = x1.shape[-2]
        left, right = x1, x2[..., None]
    kw = dict(casting=casting, order=order, dtype=dtype)
    if signature is not None:
        kw["signature"] = signature
    if out is None:
        r = _matmul(left, right, **kw)
        r = r[..., 0, :] if vector_first else r[..., 0]
        if core is not None:
            r = moveaxis(r, -1, core[2][0])
        return r
    target = out if core is None else moveaxis(out, core[2][0], -1)
    if target.ndim < 1:
        raise ValueError("%s: Output operand 0 does not have enough dimensions (has 0, gufunc core with signature "
                         "%s requires 1)" % (name, sig))
    if target.shape[-1] != m:
        _gufunc_mismatch(name, sig, "Output operand 0", target.shape[-1], m)
    _matmul(left, right, out=target[..., None, :] if vector_first else target[..., None], **kw)
    return out


def matvec(x1, x2, /, out=None, *, axes=_NOVALUE, axis=_NOVALUE, keepdims=False, casting="same_kind", order="K",
           dtype=None, subok=True, signature=None):
    """numpy.matvec: the matrix-vector product over the last two axes of x1 and the last
    of x2, broadcasting the others; signature (m,n),(n)->(m)."""
    return _matrix_vector("matvec", "(m,n),(n)->(m)", x1, x2, out, axes, axis, keepdims, casting, order, dtype,
                          signature, False)


def vecmat(x1, x2, /, out=None, *, axes=_NOVALUE, axis=_NOVALUE, keepdims=False, casting="same_kind", order="K",
           dtype=None, subok=True, signature=None):
    """numpy.vecmat: the vector-matrix product conj(x1) @ x2 over the last axis of x1 and
    the last two of x2, broadcasting the others; signature (n),(n,m)->(m)."""
    return _matrix_vector("vecmat", "(n),(n,m)->(m)", x1, x2, out, axes, axis, keepdims, casting, order, dtype,
                          signature, True)
