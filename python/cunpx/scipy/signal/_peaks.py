"""scipy.signal's peak finding for cunp arrays: argrelmin, argrelmax, argrelextrema (on
the array's device), find_peaks, peak_prominences and peak_widths.

Note [Peaks on the host]: find_peaks and its property functions walk the signal from
each peak to its bases, a data-dependent amount of sequential work per peak; like
cupyx.scipy.signal for parts of it, they copy the 1-d signal to the host and compute with
NumPy there (vectorized over peaks where the algorithm allows), and return cunp arrays
on the signal's device.
"""
import math
import warnings

import numpy as _np

import cunp as _cunp

__all__ = ["argrelmin", "argrelmax", "argrelextrema", "find_peaks", "peak_prominences", "peak_widths",
           "PeakPropertyWarning"]


class PeakPropertyWarning(RuntimeWarning):
    """A peak's property is unusual (a prominence or width of 0), as SciPy warns."""


def _asarray(a):
    return a if isinstance(a, _cunp.ndarray) else _cunp.asarray(a)


def _host(a):
    return a.get() if isinstance(a, _cunp.ndarray) else a


# ---- relative extrema (on the device) ---------------------------------------------------

def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    data = _asarray(data)
    datalen = data.shape[axis]
    locs = _cunp.arange(0, datalen, device=data.device)
    results = _cunp.ones(data.shape, dtype=bool, device=data.device)
    main = _cunp.take(data, locs, axis=axis, mode=mode)
    for shift in range(1, int(order) + 1):
        plus = _cunp.take(data, locs + shift, axis=axis, mode=mode)
        minus = _cunp.take(data, locs - shift, axis=axis, mode=mode)
        results &= _asarray(comparator(main, plus))
        results &= _asarray(comparator(main, minus))
        if not bool(results.any()):
            return results
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelextrema: the indices (a tuple, as np.nonzero) of the elements
    for which comparator(x, neighbour) holds against the `order` neighbours on each side
    along `axis` (mode 'clip' or 'wrap' at the ends)."""
    return _cunp.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmin(data, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelmin: argrelextrema with numpy.less."""
    return argrelextrema(data, _cunp.less, axis, order, mode)


def argrelmax(data, axis=0, order=1, mode="clip"):
    """scipy.signal.argrelmax: argrelextrema with numpy.greater."""
    return argrelextrema(data, _cunp.greater, axis, order, mode)


# ---- argument checks ---------------------------------------------------------------------

def _arg_x(value):
    value = _np.asarray(_host(value), order="C", dtype=_np.float64)
    if value.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return value


def _arg_peaks(value):
    value = _np.asarray(_host(value))
    if value.size == 0:
        value = _np.array([], dtype=_np.intp)
    try:
        value = value.astype(_np.intp, order="C", casting="safe", subok=False, copy=False)
    except TypeError as e:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')") from e
    if value.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return value


def _arg_wlen(value):
    if value is None:
        return -1
    if 1 < value:
        if isinstance(value, float):
            value = math.ceil(value)
        return int(value)
    raise ValueError("`wlen` must be larger than 1, was %s" % (value,))


def _device_of(x):
    return x.device if isinstance(x, _cunp.ndarray) else None


def _to_device(arrays, device):
    return tuple(_cunp.asarray(a, device=device) for a in arrays)


# ---- the peak algorithms (NumPy, Note [Peaks on the host]) ------------------------------

def _local_maxima_1d(x):
    """Every local maximum of x with its plateau: a run of equal samples whose neighbouring
    runs are both lower (the first and last runs excluded). Returns the midpoints (the
    left edge when the plateau has an even length) and the plateau edges."""
    n = x.shape[0]
    if n < 3:
        empty = _np.array([], dtype=_np.intp)
        return empty, empty.copy(), empty.copy()
    starts = _np.flatnonzero(_np.concatenate(([True], x[1:] != x[:-1])))
    values = x[starts]
    ends = _np.concatenate((starts[1:], [n])) - 1
    mid = _np.arange(1, len(starts) - 1)
    peak = (values[mid - 1] < values[mid]) & (values[mid + 1] < values[mid])
    runs = mid[peak]
    left = starts[runs].astype(_np.intp)
    right = ends[runs].astype(_np.intp)
    return (left + right) // 2, left, right


def _select_by_peak_distance(peaks, priority, distance):
    """Keeps peaks from the highest priority down, dropping the unkept neighbours closer
    than `distance` to each kept one."""
    size = peaks.shape[0]
    distance_ = math.ceil(distance)
    keep = _np.ones(size, dtype=bool)
    order = _np.argsort(priority)
    lo = _np.searchsorted(peaks, peaks - distance_, side="right")
    hi = _np.searchsorted(peaks, peaks + distance_, side="left")
    for i in range(size - 1, -1, -1):
        j = order[i]
        if not keep[j]:
            continue
        keep[lo[j]:j] = False
        keep[j + 1:hi[j]] = False
    return keep


def _peak_prominences(x, peaks, wlen):
    """Each peak's prominence and bases: on each side, the lowest sample (the nearest to
    the peak among equals) before the signal rises above the peak (or the window of
    wlen samples, or the signal, ends)."""
    size = x.shape[0]
    prominences = _np.empty(peaks.shape[0], dtype=_np.float64)
    left_bases = _np.empty(peaks.shape[0], dtype=_np.intp)
    right_bases = _np.empty(peaks.shape[0], dtype=_np.intp)
    warn = False
    for k, peak in enumerate(peaks):
        peak = int(peak)
        if not 0 <= peak <= size - 1:
            raise ValueError("peak %d is not a valid index for `x`" % peak)
        i_min, i_max = 0, size - 1
        if 2 <= wlen:
            i_min = max(peak - wlen // 2, i_min)
            i_max = min(peak + wlen // 2, i_max)
        top = x[peak]
        left = x[i_min:peak + 1][::-1]  # from the peak leftwards
        stop = _np.flatnonzero(~(left <= top))
        left = left[:stop[0]] if stop.size else left
        jl = int(_np.argmin(left))  # the first minimum from the peak: the nearest
        left_bases[k] = peak - jl
        right = x[peak:i_max + 1]
        stop = _np.flatnonzero(~(right <= top))
        right = right[:stop[0]] if stop.size else right
        jr = int(_np.argmin(right))
        right_bases[k] = peak + jr
        prominences[k] = top - max(left[jl], right[jr])
        if prominences[k] == 0:
            warn = True
    if warn:
        warnings.warn("some peaks have a prominence of 0", PeakPropertyWarning, stacklevel=3)
    return prominences, left_bases, right_bases


def _peak_widths(x, peaks, rel_height, prominences, left_bases, right_bases):
    """Each peak's width at height x[peak] - rel_height * prominence: the crossings of
    that height nearest to the peak within its bases, linearly interpolated."""
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if not (peaks.shape[0] == prominences.shape[0] == left_bases.shape[0] == right_bases.shape[0]):
        raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
    size = x.shape[0]
    count = peaks.shape[0]
    widths = _np.empty(count, dtype=_np.float64)
    heights = _np.empty(count, dtype=_np.float64)
    left_ips = _np.empty(count, dtype=_np.float64)
    right_ips = _np.empty(count, dtype=_np.float64)
    warn = False
    for k in range(count):
        i_min, i_max, peak = int(left_bases[k]), int(right_bases[k]), int(peaks[k])
        if not 0 <= i_min <= peak <= i_max < size:
            raise ValueError("prominence data is invalid for peak %d" % peak)
        height = x[peak] - prominences[k] * rel_height
        heights[k] = height
        # Leftwards: the first sample at or below the height (or the base).
        seg = x[i_min + 1:peak + 1][::-1]
        below = _np.flatnonzero(~(height < seg))
        i = peak - int(below[0]) if below.size else i_min
        left_ip = float(i)
        if x[i] < height:
            left_ip += (height - x[i]) / (x[i + 1] - x[i])
        seg = x[peak:i_max]
        below = _np.flatnonzero(~(height < seg))
        i = peak + int(below[0]) if below.size else i_max
        right_ip = float(i)
        if x[i] < height:
            right_ip -= (height - x[i]) / (x[i - 1] - x[i])
        widths[k] = right_ip - left_ip
        left_ips[k] = left_ip
        right_ips[k] = right_ip
        if widths[k] == 0:
            warn = True
    if warn:
        warnings.warn("some peaks have a width of 0", PeakPropertyWarning, stacklevel=3)
    return widths, heights, left_ips, right_ips


# ---- the public functions -----------------------------------------------------------------

def peak_prominences(x, peaks, wlen=None):
    """scipy.signal.peak_prominences: (prominences, left_bases, right_bases)."""
    device = _device_of(x)
    out = _peak_prominences(_arg_x(x), _arg_peaks(peaks), _arg_wlen(wlen))
    return _to_device(out, device)


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """scipy.signal.peak_widths: (widths, width_heights, left_ips, right_ips)."""
    device = _device_of(x)
    xh = _arg_x(x)
    peaks = _arg_peaks(peaks)
    if prominence_data is None:
        prominence_data = _peak_prominences(xh, peaks, _arg_wlen(wlen))
    else:
        prominence_data = tuple(_np.asarray(_host(p)) for p in prominence_data)
    return _to_device(_peak_widths(xh, peaks, rel_height, *prominence_data), device)


def _unpack_condition_args(interval, x, peaks):
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    imin, imax = _host(imin), _host(imax)
    if isinstance(imin, _np.ndarray):
        if imin.size != x.size:
            raise ValueError("array size of lower interval border must match x")
        imin = imin[peaks]
    if isinstance(imax, _np.ndarray):
        if imax.size != x.size:
            raise ValueError("array size of upper interval border must match x")
        imax = imax[peaks]
    return imin, imax


def _select_by_property(values, pmin, pmax):
    keep = _np.ones(values.size, dtype=bool)
    if pmin is not None:
        keep &= pmin <= values
    if pmax is not None:
        keep &= values <= pmax
    return keep


def _select_by_peak_threshold(x, peaks, tmin, tmax):
    stacked = _np.vstack([x[peaks] - x[peaks - 1], x[peaks] - x[peaks + 1]])
    keep = _np.ones(peaks.size, dtype=bool)
    if tmin is not None:
        keep &= tmin <= _np.min(stacked, axis=0)
    if tmax is not None:
        keep &= _np.max(stacked, axis=0) <= tmax
    return keep, stacked[0], stacked[1]


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None,
               rel_height=0.5, plateau_size=None):
    """scipy.signal.find_peaks: the local maxima of a 1-d signal that meet the given
    conditions, and their properties; (peaks, {name: array}) as cunp arrays."""
    device = _device_of(x)
    x = _arg_x(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left_edges, right_edges = _local_maxima_1d(x)
    props = {}

    def keep_only(keep):
        return peaks[keep], {key: array[keep] for key, array in props.items()}

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        pmin, pmax = _unpack_condition_args(plateau_size, x, peaks)
        keep = _select_by_property(sizes, pmin, pmax)
        props.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        peaks, props = keep_only(keep)
    if height is not None:
        heights = x[peaks]
        hmin, hmax = _unpack_condition_args(height, x, peaks)
        keep = _select_by_property(heights, hmin, hmax)
        props["peak_heights"] = heights
        peaks, props = keep_only(keep)
    if threshold is not None:
        tmin, tmax = _unpack_condition_args(threshold, x, peaks)
        keep, left_t, right_t = _select_by_peak_threshold(x, peaks, tmin, tmax)
        props.update(left_thresholds=left_t, right_thresholds=right_t)
        peaks, props = keep_only(keep)
    if distance is not None:
        peaks, props = keep_only(_select_by_peak_distance(peaks, x[peaks], distance))
    if prominence is not None or width is not None:
        props.update(zip(["prominences", "left_bases", "right_bases"],
                         _peak_prominences(x, peaks, _arg_wlen(wlen))))
    if prominence is not None:
        pmin, pmax = _unpack_condition_args(prominence, x, peaks)
        peaks, props = keep_only(_select_by_property(props["prominences"], pmin, pmax))
    if width is not None:
        props.update(zip(["widths", "width_heights", "left_ips", "right_ips"],
                         _peak_widths(x, peaks, rel_height, props["prominences"], props["left_bases"],
                                      props["right_bases"])))
        wmin, wmax = _unpack_condition_args(width, x, peaks)
        peaks, props = keep_only(_select_by_property(props["widths"], wmin, wmax))
    return (_cunp.asarray(peaks, device=device),
            {key: _cunp.asarray(value, device=device) for key, value in props.items()})
