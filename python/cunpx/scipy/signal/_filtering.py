"""scipy.signal's filtering half for cunp arrays: lfilter, lfiltic, lfilter_zi, filtfilt,
sosfilt, sosfilt_zi, sosfiltfilt, detrend, medfilt, medfilt2d, order_filter, wiener,
savgol_coeffs and savgol_filter.

lfilter and sosfilt are C++ (cunp._core._signal: a sequential recurrence per lane on the
cpu device, a blocked scan over time on CUDA devices). The functions that only design or
prepare a filter (lfilter_zi, lfiltic, sosfilt_zi, savgol_coeffs) work on a few
coefficients with NumPy on the host and return cunp arrays; everything that touches the
data runs on its device.
"""
import math
import operator
import warnings

import numpy as _np

import cunp as _cunp
from cunp import _core
from cunpx.scipy.signal._convolve import correlate as _correlate

__all__ = ["lfilter", "lfiltic", "lfilter_zi", "filtfilt", "sosfilt", "sosfilt_zi", "sosfiltfilt", "detrend",
           "medfilt", "medfilt2d", "order_filter", "wiener", "savgol_coeffs", "savgol_filter"]


def _asarray(a):
    return a if isinstance(a, _cunp.ndarray) else _cunp.asarray(a)


def _host(a):
    """Coefficients as a NumPy array (a cunp array is copied to the host)."""
    return a.get() if isinstance(a, _cunp.ndarray) else _np.asarray(a)


def _device_of(*arrays):
    for a in arrays:
        if isinstance(a, _cunp.ndarray):
            return a.device
    return None


# ---- axis helpers (scipy.signal._arraytools) ----------------------------------------------

def _axis_slice(a, start=None, stop=None, step=None, axis=-1):
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop, step)
    return a[tuple(index)]


def _axis_reverse(a, axis=-1):
    return _axis_slice(a, step=-1, axis=axis)


def _check_extension(x, n, axis):
    if n > x.shape[axis] - 1:
        raise ValueError("The extension length n (%d) is too big. It must not exceed x.shape[axis]-1, which is %d."
                         % (n, x.shape[axis] - 1))


def _odd_ext(x, n, axis=-1):
    """x extended by n samples at each end, point-symmetric about the end samples."""
    if n < 1:
        return x
    _check_extension(x, n, axis)
    left_end = _axis_slice(x, start=0, stop=1, axis=axis)
    right_end = _axis_slice(x, start=-1, axis=axis)
    left = _axis_reverse(_axis_slice(x, start=1, stop=n + 1, axis=axis), axis)
    right = _axis_reverse(_axis_slice(x, start=-n - 1, stop=-1, axis=axis), axis)
    return _cunp.concatenate((2 * left_end - left, x, 2 * right_end - right), axis=axis)


def _even_ext(x, n, axis=-1):
    """x extended by n samples at each end, mirrored about the end samples."""
    if n < 1:
        return x
    _check_extension(x, n, axis)
    left = _axis_reverse(_axis_slice(x, start=1, stop=n + 1, axis=axis), axis)
    right = _axis_reverse(_axis_slice(x, start=-n - 1, stop=-1, axis=axis), axis)
    return _cunp.concatenate((left, x, right), axis=axis)


def _const_ext(x, n, axis=-1):
    """x extended by n copies of its end samples at each end."""
    if n < 1:
        return x
    left_end = _axis_slice(x, start=0, stop=1, axis=axis)
    right_end = _axis_slice(x, start=-1, axis=axis)
    reps = [1] * x.ndim
    reps[axis] = n
    return _cunp.concatenate((_cunp.tile(left_end, reps), x, _cunp.tile(right_end, reps)), axis=axis)


# ---- linear filters -----------------------------------------------------------------------

def lfilter(b, a, x, axis=-1, zi=None):
    """scipy.signal.lfilter: the IIR/FIR filter b/a along `axis` (direct form II
    transposed), (y, zf) when the initial state zi is given."""
    return _core._signal.lfilter(b, a, x, axis, zi)


def sosfilt(sos, x, axis=-1, zi=None):
    """scipy.signal.sosfilt: the cascade of second-order sections `sos` along `axis`,
    (y, zf) when zi (n_sections, ..., 2, ...) is given."""
    return _core._signal.sosfilt(sos, x, axis, zi)


def lfiltic(b, a, y, x=None):
    """scipy.signal.lfiltic: lfilter's initial state from past outputs y (y[-1], y[-2],
    ...) and inputs x."""
    device = _device_of(y, x, b, a)
    a = _np.atleast_1d(_host(a))
    b = _np.atleast_1d(_host(b))
    if a.ndim > 1:
        raise ValueError("Filter coefficients `a` must be 1-D.")
    if b.ndim > 1:
        raise ValueError("Filter coefficients `b` must be 1-D.")
    n = a.shape[0] - 1
    m = b.shape[0] - 1
    k = max(m, n)
    y = _host(y)
    if n < 0:
        raise ValueError("There must be at least one `a` coefficient.")
    if x is None:
        result_type = _np.result_type(b, a, y)
        if result_type.kind in "biu":
            result_type = _np.dtype(_np.float64)
        x = _np.zeros(m, dtype=result_type)
    else:
        x = _host(x)
        result_type = _np.result_type(b, a, y, x)
        if result_type.kind in "biu":
            result_type = _np.dtype(_np.float64)
        x = x.astype(result_type).ravel()
        if x.size < m:
            x = _np.concatenate((x, _np.zeros(m - x.size)))
    y = y.astype(result_type).ravel()
    zi = _np.zeros(k, dtype=result_type)
    if y.size < n:
        y = _np.concatenate((y, _np.zeros(n - y.size)))
    for i in range(m):
        zi[i] = _np.sum(b[i + 1:] * x[:m - i], axis=0)
    for i in range(n):
        zi[i] -= _np.sum(a[i + 1:] * y[:n - i], axis=0)
    if a[0] != 1.0:
        if a[0] == 0.0:
            raise ValueError("First `a` filter coefficient must be non-zero.")
        zi /= a[0]
    return _cunp.asarray(zi, device=device)


def _lfilter_zi_host(b, a):
    # SciPy 1.18's lfilter_zi: the steady state of the step response, y_inf = sum(b) /
    # sum(a), gives the state of direct form II transposed as a reversed cumulative sum,
    # zi[k] = sum_{j > k} (b[j] - y_inf a[j]) (a[0] == 1 after normalizing); integer
    # coefficients become float64, floating ones keep their type.
    b, a = _np.asarray(_host(b)), _np.asarray(_host(a))
    dt = _np.result_type(b, a)
    if dt.kind in "biu":
        dt = _np.dtype(_np.float64)
    b, a = _np.atleast_1d(b.astype(dt, copy=False)), _np.atleast_1d(a.astype(dt, copy=False))
    if not (b.ndim == a.ndim == 1):
        raise ValueError("Numerator `b` and Denominator `a` must be 1-D arrays, but b.shape = %r, a.shape = %r!"
                         % (b.shape, a.shape))
    if a[0] == 0:
        raise ValueError("First coefficient of parameter `a` must be non-zero!")
    if a[0] != 1:
        b, a = b / a[0], a / a[0]
    sum_a = a.sum()
    if sum_a == 0:
        raise ValueError("Filter not stable due to sum(a) == 0, i.e., having a pole at z = 1!")
    y_inf = b.sum() / sum_a
    n = max(a.shape[0], b.shape[0])
    b = _np.concatenate((b, _np.zeros(n - b.shape[0], dtype=b.dtype)))
    a = _np.concatenate((a, _np.zeros(n - a.shape[0], dtype=a.dtype)))
    return _np.cumsum((b - y_inf * a)[::-1])[::-1][1:]


def lfilter_zi(b, a):
    """scipy.signal.lfilter_zi: the state of the steady-state step response (lfilter's
    zi for an input of ones)."""
    return _cunp.asarray(_lfilter_zi_host(b, a), device=_device_of(b, a))


def _validate_sos(sos):
    sos = _np.asarray(_host(sos))
    if sos.ndim < 2:
        sos = sos.reshape((1,) * (2 - sos.ndim) + sos.shape)
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not (sos[:, 3] == 1).all():
        raise ValueError("sos[:, 3] should be all ones")
    return sos, n_sections


def _sosfilt_zi_host(sos):
    sos = _np.asarray(_host(sos))
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos must be shape (n_sections, 6)")
    if sos.dtype.kind in "biu":
        sos = sos.astype(_np.float64)
    zi = _np.empty((sos.shape[0], 2), dtype=sos.dtype)
    scale = 1.0
    for section in range(sos.shape[0]):
        b = sos[section, :3]
        a = sos[section, 3:]
        zi[section] = scale * _lfilter_zi_host(b, a)
        # b.sum() / a.sum() is the section's gain at DC, its step response's steady state.
        scale *= b.sum() / a.sum()
    return zi


def sosfilt_zi(sos):
    """scipy.signal.sosfilt_zi: sosfilt's steady-state initial state (n_sections, 2)."""
    return _cunp.asarray(_sosfilt_zi_host(sos), device=_device_of(sos))


def _validate_pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ["even", "odd", "constant", None]:
        raise ValueError("Unknown value '%s' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
                         % (padtype,))
    if padtype is None:
        padlen = 0
    edge = ntaps * 3 if padlen is None else padlen
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater than padlen, which is %d." % edge)
    if padtype is not None and edge > 0:
        ext = {"even": _even_ext, "odd": _odd_ext, "constant": _const_ext}[padtype](x, edge, axis=axis)
    else:
        ext = x
    return edge, ext


def _validate_x(x):
    x = _asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    return x


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """scipy.signal.filtfilt: the filter applied forward and backward (zero phase),
    with the edges padded ('pad': odd/even/constant extensions, lfilter_zi initial states)
    or Gustafsson's initial conditions ('gust')."""
    b = _np.atleast_1d(_host(b))
    a = _np.atleast_1d(_host(a))
    x = _asarray(x)
    if method not in ["pad", "gust"]:
        raise ValueError("method must be 'pad' or 'gust'.")
    if method == "gust":
        y, _, _ = _filtfilt_gust(b, a, x, axis=axis, irlen=irlen)
        return y
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps=max(len(a), len(b)))
    zi = _lfilter_zi_host(b, a)
    zi_shape = [1] * x.ndim
    zi_shape[axis] = zi.size
    zi = _cunp.asarray(zi.reshape(zi_shape), device=x.device)
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = lfilter(b, a, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = lfilter(b, a, _axis_reverse(y, axis=axis), axis=axis, zi=zi * y0)
    y = _axis_reverse(y, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return _cunp.ascontiguousarray(y)


def _filtfilt_gust(b, a, x, axis=-1, irlen=None):
    """filtfilt by Gustafsson's method: the forward and backward initial states chosen
    (least squares) so that filtering forward-backward equals backward-forward
    (F. Gustafsson, IEEE Trans. Signal Processing 44(4), 1996)."""
    order = max(len(b), len(a)) - 1
    if order == 0:
        scale = (b[0] / a[0]) ** 2
        return scale * x, _cunp.asarray([]), _cunp.asarray([])
    x = _cunp.swapaxes(x, axis, -1)
    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    dev = x.device
    # O: the zero-input response to each unit state (its columns: the first one shifted).
    zi = _np.zeros(order)
    zi[0] = 1
    first = lfilter(b, a, _cunp.zeros(m, device=dev), zi=_cunp.asarray(zi, device=dev))[0]
    obs = _cunp.zeros((m, order), dtype=first.dtype, device=dev)
    obs[:, 0] = first
    for k in range(1, order):
        obs[k:, k] = first[:m - k]
    obs_r = obs[::-1]
    # S: the filter applied to the reversed propagated states.
    s = lfilter(b, a, obs_r, axis=0)
    s_r = s[::-1]
    if m == n:
        mat = _cunp.concatenate((s_r - obs, obs_r - s), axis=1)
        w = _cunp.concatenate((s_r, obs_r), axis=1)
    else:
        mat = _cunp.zeros((2 * m, 2 * order), dtype=first.dtype, device=dev)
        mat[:m, :order] = s_r - obs
        mat[m:, order:] = obs_r - s
        w = _cunp.zeros((2 * m, 2 * order), dtype=first.dtype, device=dev)
        w[:m, :order] = s_r
        w[m:, order:] = obs_r
    y_f = lfilter(b, a, x)
    y_fb = lfilter(b, a, y_f[..., ::-1])[..., ::-1]
    y_b = lfilter(b, a, x[..., ::-1])[..., ::-1]
    y_bf = lfilter(b, a, y_b)
    delta = y_bf - y_fb
    if m != n:
        delta = _cunp.concatenate((delta[..., :m], delta[..., -m:]), axis=-1)
    lead = delta.shape[:-1]
    rhs = delta.reshape(-1, delta.shape[-1]).T
    ic = _cunp.linalg.lstsq(mat, rhs, rcond=None)[0].T.reshape(lead + (mat.shape[-1],))
    wic = ic @ w.T
    y = _cunp.array(y_fb)
    if m == n:
        y += wic
    else:
        y[..., :m] += wic[..., :m]
        y[..., -m:] += wic[..., -m:]
    x0 = _cunp.swapaxes(ic[..., :order], axis, -1)
    x1 = _cunp.swapaxes(ic[..., -order:], axis, -1)
    return _cunp.ascontiguousarray(_cunp.swapaxes(y, axis, -1)), x0, x1


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """scipy.signal.sosfiltfilt: sosfilt forward and backward with filtfilt's padding."""
    sos, n_sections = _validate_sos(sos)
    x = _validate_x(x)
    ntaps = 2 * n_sections + 1
    ntaps -= min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps=ntaps)
    zi = _sosfilt_zi_host(sos)
    zi_shape = [1] * x.ndim
    zi_shape[axis] = 2
    zi = _cunp.asarray(zi.reshape([n_sections] + zi_shape), device=x.device)
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = sosfilt(sos, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = sosfilt(sos, _axis_reverse(y, axis=axis), axis=axis, zi=zi * y0)
    y = _axis_reverse(y, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return _cunp.ascontiguousarray(y)


# ---- detrend ----------------------------------------------------------------------------

def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """scipy.signal.detrend: data minus its least-squares line (per piece between the
    break points bp) or its mean, along `axis`."""
    if type not in ["linear", "l", "constant", "c"]:
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = _asarray(data)
    dtype = data.dtype if data.dtype.char in "dfDF" else _np.dtype(_np.float64)
    if type in ["constant", "c"]:
        return data - _cunp.mean(data, axis, keepdims=True)
    n = data.shape[axis]
    bp = _np.sort(_np.unique(_np.concatenate(_np.atleast_1d(0, _host(bp), n))))
    if _np.any(bp > n):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    moved = _cunp.moveaxis(data, axis, 0)
    shape = moved.shape
    new = moved.reshape(n, -1).astype(dtype)  # a copy: the pieces are replaced in place
    real = _np.dtype(dtype.char.lower())
    for m in range(len(bp) - 1):
        npts = int(bp[m + 1] - bp[m])
        if npts <= 0:
            continue
        # The fit's projection: A @ pinv(A) with A = [t / npts, 1], t = 1..npts.
        design = _np.ones((npts, 2))
        design[:, 0] = _np.arange(1, npts + 1) / npts
        pinv = _np.linalg.pinv(design)
        piece = new[int(bp[m]):int(bp[m + 1])]
        coef = _cunp.asarray(pinv.astype(real), device=data.device) @ piece
        new[int(bp[m]):int(bp[m + 1])] = piece - _cunp.asarray(design.astype(real), device=data.device) @ coef
    return _cunp.moveaxis(new.reshape(shape), 0, axis)


# ---- rank filters ---------------------------------------------------------------------------

# Window elements gathered at once, at most (the rank filters stack one shifted copy of
# the input per window element, slab by slab along the first axis).
_RANK_GATHER_ELEMENTS = 1 << 25


def _rank_filter(a, rank, footprint):
    """ndimage.rank_filter(a, rank, footprint=footprint, mode='constant'): the rank-th
    smallest of the footprint's elements around each element, zero outside `a`."""
    offsets = _np.argwhere(footprint)
    count = len(offsets)
    if rank < 0:
        rank += count
    if not 0 <= rank < count:
        raise RuntimeError("rank not within filter footprint size")
    center = [s // 2 for s in footprint.shape]
    padded = _cunp.pad(a, [(c, s - 1 - c) for c, s in zip(center, footprint.shape)])
    out = _cunp.empty(a.shape, dtype=a.dtype, device=a.device)
    if a.size == 0:
        return out
    rows = a.shape[0]
    per_row = max(1, a.size // rows)
    slab = max(1, _RANK_GATHER_ELEMENTS // max(1, count * per_row))
    for r0 in range(0, rows, slab):
        r1 = min(rows, r0 + slab)
        windows = _cunp.stack([
            padded[(slice(r0 + int(o[0]), r1 + int(o[0])),) +
                   tuple(slice(int(o[k]), int(o[k]) + a.shape[k]) for k in range(1, a.ndim))]
            for o in offsets])
        out[r0:r1] = _cunp.partition(windows, rank, axis=0)[rank]
    return out


def _rank_dtype_ok(dt):
    return dt.kind in "iu" or dt in (_np.float32, _np.float64)


def order_filter(a, domain, rank):
    """scipy.signal.order_filter: the rank-th element (in sorted order) of the elements
    under the nonzero entries of `domain` centered on each element, zero-padded."""
    domain = _np.asarray(_host(domain))
    for dimsize in domain.shape:
        if dimsize % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _asarray(a)
    if not _rank_dtype_ok(a.dtype):
        raise ValueError("dtype=%s is not supported by order_filter" % a.dtype)
    if domain.ndim != a.ndim:
        raise RuntimeError("footprint array has incorrect shape.")
    return _rank_filter(a, operator.index(rank), domain != 0)


def medfilt(volume, kernel_size=None):
    """scipy.signal.medfilt: the median over a window of kernel_size (odd, default 3 on
    every axis) around each element, zero-padded."""
    volume = _asarray(volume)
    if volume.ndim == 0:
        volume = volume.reshape(1)
    if not _rank_dtype_ok(volume.dtype):
        raise ValueError("dtype=%s is not supported by medfilt" % volume.dtype)
    if kernel_size is None:
        kernel_size = [3] * volume.ndim
    kernel_size = _np.asarray(_host(kernel_size))
    if kernel_size.shape == ():
        kernel_size = _np.repeat(kernel_size.item(), volume.ndim)
    for k in range(volume.ndim):
        if kernel_size[k] % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if any(k > s for k, s in zip(kernel_size, volume.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.", stacklevel=2)
    size = int(_np.prod(kernel_size))
    return _rank_filter(volume, size // 2, _np.ones(tuple(int(k) for k in kernel_size), dtype=bool))


def medfilt2d(input, kernel_size=3):
    """scipy.signal.medfilt2d: medfilt of a 2-d array (uint8, float32 and float64 as
    themselves, other dtypes through medfilt)."""
    image = _asarray(input)
    if image.dtype.type not in (_np.ubyte, _np.float32, _np.float64):
        return medfilt(image, kernel_size)
    if kernel_size is None:
        kernel_size = [3] * 2
    kernel_size = _np.asarray(_host(kernel_size))
    if kernel_size.shape == ():
        kernel_size = _np.repeat(kernel_size.item(), 2)
    for size in kernel_size:
        if size % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if image.ndim != 2 or len(kernel_size) != 2:
        raise ValueError("medfilt2d: input must be 2-D (got shape %s) with a kernel_size of 2" % (image.shape,))
    return _rank_filter(image, int(_np.prod(kernel_size)) // 2,
                        _np.ones(tuple(int(k) for k in kernel_size), dtype=bool))


def wiener(im, mysize=None, noise=None):
    """scipy.signal.wiener: the local-statistics Wiener filter over windows of mysize."""
    im = _asarray(im)
    if mysize is None:
        mysize = [3] * im.ndim
    if _np.asarray(mysize).shape == ():
        mysize = [mysize] * im.ndim
    size = math.prod(mysize)
    ones = _cunp.ones(tuple(mysize), device=im.device)
    l_mean = _correlate(im, ones, "same") / float(size)
    l_var = _correlate(im ** 2, ones, "same") / float(size) - l_mean ** 2
    if noise is None:
        noise = _cunp.mean(l_var.ravel(), axis=0)
    res = im - l_mean
    res *= 1 - noise / l_var
    res += l_mean
    return _cunp.where(l_var < noise, l_mean, res)


# ---- Savitzky-Golay -------------------------------------------------------------------------

def _savgol_coeffs_host(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen - 0.5 if rem == 0 else halflen
    if not (0 <= pos < window_length):
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ["conv", "dot"]:
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return _np.zeros(window_length)
    # Least squares of the polynomial through the window (powers of -pos..L-1-pos),
    # evaluated (or differentiated `deriv` times) at the window's position pos.
    x = _np.arange(-pos, window_length - pos, dtype=_np.float64)
    if use == "conv":
        x = x[::-1]
    order = _np.arange(polyorder + 1).reshape(-1, 1)
    design = x ** order
    y = _np.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / (delta ** deriv)
    return _np.linalg.lstsq(design, y, rcond=None)[0]


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv", *, xp=None, device=None):
    """scipy.signal.savgol_coeffs: the Savitzky-Golay FIR coefficients (float64)."""
    return _cunp.asarray(_savgol_coeffs_host(window_length, polyorder, deriv, delta, pos, use), device=device)


_NDIMAGE_PAD = {"mirror": "reflect", "nearest": "edge", "wrap": "wrap", "constant": "constant"}


def _convolve1d(x, weights, axis, mode, cval=0.0):
    """ndimage.convolve1d: y[i] = sum_j w[j] x[i + L//2 - j] along `axis`, x extended by
    `mode` (mirror, nearest, wrap, constant)."""
    n_w = len(weights)
    right = n_w // 2
    left = n_w - 1 - right
    before, after = [0] * x.ndim, [0] * x.ndim
    before[axis], after[axis] = left, right
    shape = [1] * x.ndim
    shape[axis] = n_w
    taps = _cunp.asarray(_np.ascontiguousarray(weights[::-1]).astype(x.dtype).reshape(shape), device=x.device)
    if mode == "constant":  # padded by the correlation itself
        return _core._signal.correlate_valid(x, taps, before, after, float(cval))
    widths = list(zip(before, after))
    return _core._signal.correlate_valid(_cunp.pad(x, widths, mode=_NDIMAGE_PAD[mode]), taps)


def _edge_operator(window_length, polyorder, deriv, delta, positions):
    """The linear map from a window's samples to the values (or derivatives) at
    `positions` of their least-squares polynomial of degree polyorder."""
    t = _np.arange(window_length, dtype=_np.float64)
    vander = t[:, None] ** _np.arange(polyorder + 1)[None, :]
    fit = _np.linalg.pinv(vander)  # coefficients (lowest power first) from samples
    powers = _np.arange(polyorder + 1)
    scale = _np.zeros(polyorder + 1)
    keep = powers >= deriv
    scale[keep] = [math.factorial(int(p)) / math.factorial(int(p - deriv)) for p in powers[keep]]
    p = _np.asarray(positions, dtype=_np.float64)
    exps = _np.clip(powers - deriv, 0, None)
    evaluate = scale[None, :] * p[:, None] ** exps[None, :]
    return (evaluate @ fit) / (delta ** deriv)


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0):
    """scipy.signal.savgol_filter: the Savitzky-Golay filter along `axis`; the edges
    extended by `mode` or, for 'interp', each end fitted by its window's polynomial."""
    if mode not in ["mirror", "constant", "nearest", "interp", "wrap"]:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = _asarray(x)
    if x.dtype != _np.float64 and x.dtype != _np.float32:
        x = x.astype(_np.float64)
    coeffs = _savgol_coeffs_host(window_length, polyorder, deriv=deriv, delta=delta)
    if mode != "interp":
        return _convolve1d(x, coeffs, axis, mode, cval)
    n = x.shape[axis]
    if window_length > n:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to the size of x.")
    y = _convolve1d(x, coeffs, axis, "constant", 0.0)
    halflen = window_length // 2
    if halflen:
        ym = _cunp.moveaxis(y, axis, -1)
        xm = _cunp.moveaxis(x, axis, -1)
        left = _edge_operator(window_length, polyorder, deriv, delta, _np.arange(halflen))
        right = _edge_operator(window_length, polyorder, deriv, delta,
                               _np.arange(window_length - halflen, window_length))
        lt = _cunp.asarray(left.T.astype(x.dtype), device=x.device)
        rt = _cunp.asarray(right.T.astype(x.dtype), device=x.device)
        ym[..., :halflen] = xm[..., :window_length] @ lt
        ym[..., n - halflen:] = xm[..., n - window_length:] @ rt
    return y
