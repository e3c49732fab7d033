"""scipy.signal's convolution half for cunp arrays: convolve, correlate (direct and FFT
methods), fftconvolve, oaconvolve, convolve2d, correlate2d, choose_conv_method,
correlation_lags, deconvolve, hilbert and hilbert2.

The direct method is one C++ kernel (cunp._core._signal.correlate_valid: a 'valid'
N-d correlation, a thread per output on CUDA devices); the 'full' and 'same' modes and
convolve2d's boundaries pad the input first (cunp.pad), and convolution flips the kernel.
The FFT methods are cunp.fft (cuFFT / FFTW) over next_fast_len sizes.
"""
import math
import operator
import warnings

import numpy as _np

import cunp as _cunp
from cunp import _core
from cunpx.scipy.fft import next_fast_len as _next_fast_len

__all__ = ["convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d",
           "choose_conv_method", "correlation_lags", "deconvolve", "hilbert", "hilbert2"]

_MODES = {"valid": 0, "same": 1, "full": 2}
# convolve2d's boundary names, as np.pad modes.
_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
               "symm": "symmetric", "symmetric": "symmetric"}


def _asarray(a):
    return a if isinstance(a, _cunp.ndarray) else _cunp.asarray(a)


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")


def _inputs_swap_needed(mode, shape1, shape2, axes=None):
    """True when 'valid' mode needs in2 first: it is at least as large as in1 on every
    axis (ValueError when neither input contains the other)."""
    if mode != "valid" or not shape1:
        return False
    if axes is None:
        axes = range(len(shape1))
    ok1 = all(shape1[i] >= shape2[i] for i in axes)
    ok2 = all(shape2[i] >= shape1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not ok1


def _reverse_and_conj(x):
    x = x[(slice(None, None, -1),) * x.ndim]
    return _cunp.conj(x) if x.dtype.kind == "c" else x


# ---- the direct method -------------------------------------------------------------------

def _work_dtype(dt):
    """The dtype the direct kernel computes a result of dtype `dt` in: itself for float32/64
    and complex64/128, float32 for float16, int64 (modulo 2^64, cast back) for integers
    and bool."""
    if dt.kind in "biu":
        return _np.dtype(_np.int64)
    if dt == _np.float16:
        return _np.dtype(_np.float32)
    return dt


def _direct(in1, in2, mode, flip):
    """out = sum_j in1[i + j] * w[j] in `mode` (in1 the first input's frame), w = in2
    reversed on every axis (flip: convolution) or conjugated (correlation)."""
    dt = _np.result_type(in1.dtype, in2.dtype)
    work = _work_dtype(dt)
    a = in1.astype(work, copy=False)
    w = in2.astype(work, copy=False)
    if flip:
        w = w[(slice(None, None, -1),) * w.ndim]
    elif work.kind == "c":
        w = _cunp.conj(w)
    if mode == "full":
        widths = [(k - 1, k - 1) for k in w.shape]
    elif mode == "same":
        widths = [(k // 2, (k - 1) // 2) for k in w.shape]
    else:
        widths = [(0, 0)] * w.ndim
    out = _core._signal.correlate_valid(a, w, [p[0] for p in widths], [p[1] for p in widths], 0)
    if dt == _np.bool_:
        return out != 0
    return out if out.dtype == dt else out.astype(dt)


def _check_nonempty(in1, in2):
    if in1.size == 0 or in2.size == 0:
        raise ValueError("in1 and in2 cannot be empty (got shapes %s and %s)" % (in1.shape, in2.shape))


def _correlate_direct(in1, in2, mode):
    _check_nonempty(in1, in2)
    # The smaller input as the taps in 'full' mode (the work is output size x taps), and
    # 'valid' needs the larger first: correlate(b, a) is correlate(a, b) reversed and
    # conjugated.
    if (mode == "full" and in2.size > in1.size) or _inputs_swap_needed(mode, in1.shape, in2.shape):
        return _reverse_and_conj(_direct(in2, in1, mode, flip=False)).copy()
    return _direct(in1, in2, mode, flip=False)


def _convolve_direct(in1, in2, mode):
    _check_nonempty(in1, in2)
    if mode == "full" and in2.size > in1.size:
        in1, in2 = in2, in1
    return _direct(in1, in2, mode, flip=True)


# ---- method choice -----------------------------------------------------------------------

def _prod(iterable):
    return math.prod(int(v) for v in iterable)


def _conv_ops(x_shape, h_shape, mode):
    """Operation counts of the two methods (SciPy's model): the direct method's
    multiply-adds, and 3 N log N for the FFT method's three transforms of the full size."""
    if mode == "full":
        out_shape = [n + k - 1 for n, k in zip(x_shape, h_shape)]
    elif mode == "valid":
        out_shape = [abs(n - k) + 1 for n, k in zip(x_shape, h_shape)]
    elif mode == "same":
        out_shape = x_shape
    else:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full', not mode=%s" % (mode,))
    s1, s2 = x_shape, h_shape
    if len(x_shape) == 1:
        s1, s2 = s1[0], s2[0]
        if mode == "full":
            direct_ops = s1 * s2
        elif mode == "valid":
            direct_ops = (s2 - s1 + 1) * s1 if s2 >= s1 else (s1 - s2 + 1) * s2
        else:
            direct_ops = s1 * s2 if s1 < s2 else s1 * s2 - (s2 // 2) * ((s2 + 1) // 2)
    else:
        if mode in ("full", "valid"):
            direct_ops = min(_prod(s1), _prod(s2)) * _prod(out_shape)
        else:
            direct_ops = _prod(s1) * _prod(s2)
    n = _prod(n + k - 1 for n, k in zip(x_shape, h_shape))
    fft_ops = 3 * n * math.log(max(n, 1))
    return fft_ops, direct_ops


# Note [Convolution crossover]: method='auto' takes the FFT method when
#   O_fft * fft_ops < O_direct * direct_ops + offset
# (_conv_ops counts the operations, as SciPy's model does). The seconds per operation are
# cunp's own on the cpu device, fitted by bench/conv_crossover.py (FFTW against the
# direct kernel, float64, on the 2-core AMD EPYC this was developed on); the offset is
# the FFT method's fixed cost (about 0.1 ms for three small transforms), which keeps
# tiny problems direct. Measured crossovers: 1-d, direct up to ~33 taps and the FFT from
# ~65 taps for 4096 to 262144 samples; 2-d, direct up to 9x9 and the FFT from 13x13
# (docs/scipy/signal-filtering.md has the table). CUDA devices use the same model and
# constants, as the FFT-versus-direct trade-off is one of sizes on both.
_CROSSOVER_1D = {"full": (8.7e-10, 7.7e-10), "same": (7.7e-10, 7.2e-10), "valid": (7.4e-10, 6.7e-10)}
_CROSSOVER_ND = {"full": (7.7e-10, 4.7e-10), "same": (9.9e-10, 4.7e-10), "valid": (9.4e-10, 4.2e-10)}
_CROSSOVER_OFFSET = (-1e-4, -1e-4)  # seconds: 1-d, N-d


def _fftconv_faster(x, h, mode):
    fft_ops, direct_ops = _conv_ops(x.shape, h.shape, mode)
    one_d = x.ndim == 1
    o_fft, o_direct = (_CROSSOVER_1D if one_d else _CROSSOVER_ND)[mode]
    offset = _CROSSOVER_OFFSET[0 if one_d else 1]
    return o_fft * fft_ops < o_direct * direct_ops + offset


def choose_conv_method(in1, in2, mode="full", measure=False):
    """scipy.signal.choose_conv_method: 'fft' or 'direct' for convolve/correlate (Note
    [Convolution crossover]); measure=True times both and returns (method, times)."""
    volume = _asarray(in1)
    kernel = _asarray(in2)
    if measure:
        import timeit

        times = {}
        for method in ("fft", "direct"):
            def run(method=method):
                out = convolve(volume, kernel, mode=mode, method=method)
                _cunp.cuda.Device().synchronize() if out.device != "cpu" else None

            timer = timeit.Timer(run)
            number = 1
            while timer.timeit(number) < 5e-4 and number < 10 ** 6:
                number *= 10
            times[method] = min(timer.repeat(3, number)) / number
        return ("fft" if times["fft"] < times["direct"] else "direct"), times
    # Integers: the FFT's float64 loses exactness past 2^52 (the largest possible sum).
    if volume.dtype.kind in "ui" or kernel.dtype.kind in "ui":
        max_value = int(_cunp.abs(volume).max().item()) * int(_cunp.abs(kernel).max().item())
        max_value *= int(min(volume.size, kernel.size))
        if max_value > 2 ** _np.finfo("float").nmant - 1:
            return "direct"
    if volume.dtype.kind == "b" and kernel.dtype.kind == "b":
        return "direct"
    if _fftconv_faster(volume, kernel, mode):
        return "fft"
    return "direct"


# ---- convolve / correlate ----------------------------------------------------------------

def convolve(in1, in2, mode="full", method="auto"):
    """scipy.signal.convolve: the N-d convolution of in1 and in2 (modes 'full', 'valid',
    'same'), by the direct kernel or the FFT (method 'auto' picks, Note [Convolution
    crossover]). Integer inputs give integers (the FFT result rounded)."""
    volume = _asarray(in1)
    kernel = _asarray(in2)
    if volume.ndim == kernel.ndim == 0:
        return volume * kernel
    if volume.ndim != kernel.ndim:
        raise ValueError("volume and kernel should have the same dimensionality")
    if _inputs_swap_needed(mode, volume.shape, kernel.shape):
        volume, kernel = kernel, volume
    if method == "auto":
        _check_nonempty(volume, kernel)
        method = choose_conv_method(volume, kernel, mode=mode)
    if method == "fft":
        _check_nonempty(volume, kernel)
        out = fftconvolve(volume, kernel, mode=mode)
        result_type = _np.result_type(volume.dtype, kernel.dtype)
        if result_type.kind in "ui":
            out = _cunp.round(out)
        first = out.ravel()[:1]
        if first.size and bool((_cunp.isnan(first) | _cunp.isinf(first)).item()):
            warnings.warn("Use of fft convolution on input with NAN or inf results in NAN or inf output. "
                          "Consider using method='direct' instead.", category=RuntimeWarning, stacklevel=2)
        return out.astype(result_type, copy=False)
    if method == "direct":
        _check_mode(mode)
        return _convolve_direct(volume, kernel, mode)
    raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def correlate(in1, in2, mode="full", method="auto"):
    """scipy.signal.correlate: z[k] = sum_l in1[l] conj(in2[l - k + N - 1]) over N-d
    arrays, in the modes and methods of convolve."""
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if in1.ndim == in2.ndim == 0:
        return in1 * (_cunp.conj(in2) if in2.dtype.kind == "c" else in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    if method in ("fft", "auto"):
        return convolve(in1, _reverse_and_conj(in2), mode, method)
    if method == "direct":
        return _correlate_direct(in1, in2, mode)
    raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def correlation_lags(in1_len, in2_len, mode="full"):
    """scipy.signal.correlation_lags: the lag of each output of a 1-d correlation of
    inputs of these lengths, as a cunp int64 array."""
    if mode == "full":
        return _cunp.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = _cunp.arange(-in2_len + 1, in1_len)
        mid = lags.size // 2
        lag_bound = in1_len // 2
        if in1_len % 2 == 0:
            return lags[(mid - lag_bound):(mid + lag_bound)]
        return lags[(mid - lag_bound):(mid + lag_bound) + 1]
    if mode == "valid":
        lag_bound = in1_len - in2_len
        return _cunp.arange(lag_bound + 1) if lag_bound >= 0 else _cunp.arange(lag_bound, 1)
    raise ValueError("Mode %s is invalid" % (mode,))


# ---- FFT convolution ---------------------------------------------------------------------

def _normalize_axes(ndim, axes):
    """scipy.fft's axes checks: an int or a sequence of ints, in range, unique."""
    if axes is None:
        return list(range(ndim))
    try:
        axes = [operator.index(axes)]
    except TypeError:
        try:
            axes = [operator.index(a) for a in axes]
        except TypeError:
            raise ValueError("axes must be a scalar or iterable of integers") from None
    if any(a >= ndim or a < -ndim for a in axes):
        raise ValueError("axes exceeds dimensionality of input")
    axes = [a % ndim for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("all axes must be unique")
    return axes


def _init_freq_conv_axes(in1, in2, mode, axes, sorted_axes=False):
    s1, s2 = in1.shape, in2.shape
    noaxes = axes is None
    axes = _normalize_axes(in1.ndim, axes)
    if not noaxes and not len(axes):
        raise ValueError("when provided, axes cannot be empty")
    axes = [a for a in axes if s1[a] != 1 and s2[a] != 1]  # broadcast: no transform needed
    if sorted_axes:
        axes.sort()
    if not all(s1[a] == s2[a] or s1[a] == 1 or s2[a] == 1 for a in range(in1.ndim) if a not in axes):
        raise ValueError("incompatible shapes for in1 and in2: %s and %s" % (s1, s2))
    if _inputs_swap_needed(mode, s1, s2, axes=axes):
        in1, in2 = in2, in1
    return in1, in2, axes


def _freq_domain_conv(in1, in2, axes, shape, calc_fast_len=False):
    """in1 * in2 over `axes` through the FFT of the sizes `shape` (of those axes)."""
    if not len(axes):
        return in1 * in2
    complex_result = in1.dtype.kind == "c" or in2.dtype.kind == "c"
    fshape = [_next_fast_len(shape[a], not complex_result) for a in axes] if calc_fast_len else list(shape)
    if in1.dtype.kind in "biu":
        in1 = in1.astype(_np.float64)
    if in2.dtype.kind in "biu":
        in2 = in2.astype(_np.float64)
    forward, inverse = (_cunp.fft.fftn, _cunp.fft.ifftn) if complex_result else (_cunp.fft.rfftn, _cunp.fft.irfftn)
    sp1 = forward(in1, s=fshape, axes=axes)
    sp2 = forward(in2, s=fshape, axes=axes)
    if sp1.shape == _np.broadcast_shapes(sp1.shape, sp2.shape) and sp1.dtype == _np.result_type(sp1, sp2):
        sp1 *= sp2  # in place: one spectrum less to allocate
    else:
        sp1 = sp1 * sp2
    ret = inverse(sp1, s=fshape, axes=axes)
    if calc_fast_len:
        ret = ret[tuple(slice(shape[a]) if a in axes else slice(None) for a in range(ret.ndim))]
    return ret


def _centered(arr, newshape):
    start = [(c - n) // 2 for c, n in zip(arr.shape, newshape)]
    return arr[tuple(slice(s, s + n) for s, n in zip(start, newshape))]


def _apply_conv_mode(ret, s1, s2, mode, axes):
    """The `mode` part of the full result, C-contiguous (copied only when it is not)."""
    if mode == "full":
        return _cunp.ascontiguousarray(ret)
    if mode == "same":
        return _cunp.ascontiguousarray(_centered(ret, s1))
    if mode == "valid":
        shape_valid = [ret.shape[a] if a not in axes else s1[a] - s2[a] + 1 for a in range(ret.ndim)]
        return _cunp.ascontiguousarray(_centered(ret, shape_valid))
    raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")


def fftconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.fftconvolve: the convolution over `axes` (default all) through
    cunp.fft; a float or complex result (integers computed in float64)."""
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if in1.size == 0 or in2.size == 0:
        return _cunp.asarray([])
    in1, in2, axes = _init_freq_conv_axes(in1, in2, mode, axes, sorted_axes=False)
    s1, s2 = in1.shape, in2.shape
    shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1 for i in range(in1.ndim)]
    ret = _freq_domain_conv(in1, in2, axes, shape, calc_fast_len=True)
    return _apply_conv_mode(ret, s1, s2, mode, axes)


def _lambertw_m1(y):
    """The lower real branch W_{-1}(y) for -1/e <= y < 0 (Halley's iteration on
    w e^w = y, started from the asymptote log(-y) - log(-log(-y)))."""
    ly = math.log(-y)
    w = ly - math.log(-ly) if ly < -1 else -2.0
    for _ in range(64):
        ew = math.exp(w)
        f = w * ew - y
        step = f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2))
        w -= step
        if abs(step) <= 1e-15 * abs(w):
            break
    return w


def _oa_block(s1, s2):
    """Overlap-add along one axis: (fft size, step of the longer input) or None when one
    FFT of the full length is as good (equal sizes, a short input of half the long one
    or more, or a single block). The block minimizes N log2(2N) / (N - K), K = the short
    length - 1: N = -K W_{-1}(-1 / (2 e K))."""
    if s1 == s2 or s1 == 1 or s2 == 1:
        return None
    long_, short = max(s1, s2), min(s1, s2)
    if short >= long_ / 2:
        return None
    overlap = short - 1
    block = _next_fast_len(math.ceil(-overlap * _lambertw_m1(-1 / (2 * math.e * overlap))))
    if block >= long_ or block - short + 1 < overlap:
        return None
    return block, block - short + 1


def oaconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.oaconvolve: the convolution by overlap-add. Along each axis where one
    input is much longer, it is cut into blocks (a new axis), every block is convolved
    with the other input by FFTs of the block size at once, and the blocks' tails are
    added into their successors; other axes take one FFT of the full length."""
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if in1.size == 0 or in2.size == 0:
        return _cunp.asarray([])
    if in1.shape == in2.shape:
        return fftconvolve(in1, in2, mode=mode, axes=axes)
    in1, in2, axes = _init_freq_conv_axes(in1, in2, mode, axes, sorted_axes=True)
    s1, s2 = in1.shape, in2.shape
    if not axes:
        return _apply_conv_mode(in1 * in2, s1, s2, mode, axes)
    nd = in1.ndim
    full = [s1[i] + s2[i] - 1 if i in axes else max(s1[i], s2[i]) for i in range(nd)]
    plans = {a: _oa_block(s1[a], s2[a]) for a in axes}
    if all(p is None for p in plans.values()):
        return fftconvolve(in1, in2, mode=mode, axes=axes)
    complex_result = in1.dtype.kind == "c" or in2.dtype.kind == "c"
    # Every axis d becomes the pair (outer_d, inner_d): blocks x block contents along the
    # blocked axes, (1, size) elsewhere.
    a, b = in1, in2
    shape_a, shape_b, fsize, pads_a, pads_b = [], [], [], [], []
    for d in range(nd):
        plan = plans.get(d)
        if plan is None:
            shape_a += [1, s1[d]]
            shape_b += [1, s2[d]]
            pads_a.append((0, 0))
            pads_b.append((0, 0))
            if d in axes:
                fsize.append(_next_fast_len(full[d], not complex_result))
            continue
        block, step = plan
        first_long = s1[d] > s2[d]
        n_long = s1[d] if first_long else s2[d]
        steps = -(-n_long // step)
        pad = (0, steps * step - n_long)
        if first_long:
            shape_a += [steps, step]
            shape_b += [1, s2[d]]
            pads_a.append(pad)
            pads_b.append((0, 0))
        else:
            shape_a += [1, s1[d]]
            shape_b += [steps, step]
            pads_a.append((0, 0))
            pads_b.append(pad)
        fsize.append(block)
    if any(p != (0, 0) for p in pads_a):
        a = _cunp.pad(a, pads_a)
    if any(p != (0, 0) for p in pads_b):
        b = _cunp.pad(b, pads_b)
    a = a.reshape(shape_a)
    b = b.reshape(shape_b)
    inner = [2 * d + 1 for d in axes]
    ret = _freq_domain_conv(a, b, inner, fsize, calc_fast_len=False)
    # Collapse each pair, last axis first so that the earlier pairs keep their places.
    for d in reversed(range(nd)):
        if d not in axes:
            ret = ret.reshape(ret.shape[:2 * d] + ret.shape[2 * d + 1:])
            continue
        plan = plans[d]
        if plan is None:
            ret = ret.reshape(ret.shape[:2 * d] + ret.shape[2 * d + 1:])
            ret = ret[(slice(None),) * (2 * d) + (slice(0, full[d]),)]
            continue
        block, step = plan
        short = min(s1[d], s2[d])
        r = _cunp.moveaxis(ret, (2 * d, 2 * d + 1), (-2, -1))
        steps = r.shape[-2]
        lead = r.shape[:-2]
        total = steps * step + short - 1
        out = _cunp.zeros(lead + (total,), dtype=r.dtype)
        out[..., :steps * step] = r[..., :, :step].reshape(lead + (steps * step,))
        if short > 1:
            tails = _cunp.zeros(lead + (steps, step), dtype=r.dtype)
            tails[..., :, :short - 1] = r[..., :, step:step + short - 1]
            out[..., step:] += tails.reshape(lead + (steps * step,))[..., :total - step]
        ret = _cunp.moveaxis(out, -1, 2 * d)  # the pairs of the axes before d are still pairs
        ret = ret[(slice(None),) * (2 * d) + (slice(0, full[d]),)]
    return _apply_conv_mode(ret, s1, s2, mode, axes)


# ---- 2-d -----------------------------------------------------------------------------------

def _conv2d(in1, in2, mode, boundary, fillvalue, flip, name):
    in1 = _asarray(in1)
    in2 = _asarray(in2)
    if not in1.ndim == in2.ndim == 2:
        raise ValueError("%s inputs must both be 2-D arrays" % name)
    swapped = _inputs_swap_needed(mode, in1.shape, in2.shape)
    if swapped:
        in1, in2 = in2, in1
    _check_mode(mode)
    if boundary not in _BOUNDARIES:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' "
                         "(or 'symm').")
    fill = _np.asarray(fillvalue.get() if isinstance(fillvalue, _cunp.ndarray) else fillvalue)
    if fill.size != 1:
        raise ValueError("`fillvalue` must be scalar or an array with one element.")
    dt = _np.result_type(in1.dtype, in2.dtype)
    fill = fill.reshape(())
    if dt.kind != "c" and fill.dtype.kind == "c":
        if fill.imag != 0:
            raise ValueError("could not cast `fillvalue` directly to the output type (it was first converted "
                             "to complex).")
        fill = fill.real
    work = _work_dtype(dt)
    a = in1.astype(work, copy=False)
    w = in2.astype(work, copy=False)
    if flip:
        w = w[::-1, ::-1]
    elif work.kind == "c":
        w = _cunp.conj(w)
    kh, kw = w.shape
    if mode == "full":
        widths = ((kh - 1, kh - 1), (kw - 1, kw - 1))
    elif mode == "same":
        # convolve2d centers its 'same' output as convolution does; the correlation's
        # frame is the flipped one.
        widths = ((kh // 2, (kh - 1) // 2), (kw // 2, (kw - 1) // 2)) if flip else \
            (((kh - 1) // 2, kh // 2), ((kw - 1) // 2, kw // 2))
    else:
        widths = ((0, 0), (0, 0))
    value = 0
    pad_mode = _BOUNDARIES[boundary]
    if pad_mode == "constant" or a.size == 0:  # padded by the kernel itself
        value = fill.astype(dt).astype(work).item() if a.size else 0
    elif widths != ((0, 0), (0, 0)):
        a = _cunp.pad(a, widths, mode=pad_mode)
        widths = ((0, 0), (0, 0))
    out = _core._signal.correlate_valid(a, w, [p[0] for p in widths], [p[1] for p in widths], value)
    if dt == _np.bool_:
        out = out != 0
    elif out.dtype != dt:
        out = out.astype(dt)
    if swapped and not flip:
        out = out[::-1, ::-1].copy()
    return out


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """scipy.signal.convolve2d: the direct 2-d convolution with boundary 'fill' (the
    fillvalue), 'wrap' or 'symm' around in1."""
    return _conv2d(in1, in2, mode, boundary, fillvalue, True, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """scipy.signal.correlate2d: the direct 2-d cross-correlation (boundaries as
    convolve2d)."""
    return _conv2d(in1, in2, mode, boundary, fillvalue, False, "correlate2d")


# ---- deconvolve, hilbert -------------------------------------------------------------------

def deconvolve(signal, divisor):
    """scipy.signal.deconvolve: (quotient, remainder) with signal = convolve(divisor,
    quotient) + remainder, by inverse filtering."""
    from cunpx.scipy.signal._filtering import lfilter

    num = _cunp.atleast_1d(_asarray(signal))
    den = _cunp.atleast_1d(_asarray(divisor))
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError("Parameter signal must be non-empty 1d array, but its shape is %s!" % (num.shape,))
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError("Parameter divisor must be non-empty 1d array, but its shape is %s!" % (den.shape,))
    n, d = num.shape[0], den.shape[0]
    if d > n:
        return [], num
    impulse = _cunp.zeros(n - d + 1, dtype=_np.float64, device=num.device)
    impulse[0] = 1
    quot = lfilter(num, den, impulse)
    rem = num - convolve(den, quot, mode="full")
    return quot, rem


def hilbert(x, N=None, axis=-1):
    """scipy.signal.hilbert: the analytic signal along `axis` (FFT of length N, the
    negative frequencies zeroed and the positive doubled)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    xf = _cunp.moveaxis(_cunp.fft.fft(x, N, axis=axis), axis, -1)
    h = _np.zeros(N)
    h[0] = 1
    if N % 2 == 0:
        h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[1:(N + 1) // 2] = 2
    xf = xf * _cunp.asarray(h.astype(xf.real.dtype), device=xf.device)
    return _cunp.fft.ifft(_cunp.moveaxis(xf, -1, axis), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """scipy.signal.hilbert2: the 2-d analytic signal over `axes` (the single-orthant
    convention of SciPy)."""
    x = _asarray(x)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or _np.any(_np.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    xf = _cunp.moveaxis(_cunp.fft.fft2(x, N, axes=axes), axes, (-2, -1))
    k0, k1 = (N[0] + 1) // 2, (N[1] + 1) // 2
    h0 = _np.zeros(N[0])
    h0[0] = 1
    h0[1:k0] = 2
    h1 = _np.zeros(N[1])
    h1[0] = 1
    h1[1:k1] = 2
    h = (h0[:, None] * h1[None, :]).astype(xf.real.dtype)
    xf = xf * _cunp.asarray(h, device=xf.device)
    return _cunp.fft.ifft2(_cunp.moveaxis(xf, (-2, -1), axes), axes=axes)
