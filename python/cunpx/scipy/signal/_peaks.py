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


# Note [Vectorized peak walks]: SciPy walks from each peak, sample by sample, to the first
# sample that ends its search (higher than the peak for the bases, at or below the
# height for the widths) and takes the minimum on the way. Here every peak's walk is
# answered at once with two block structures over x (blocks of _BLOCK samples): the
# nearest sample passing a threshold test comes from the peak's own block (a gathered row
# per peak), else from a binary descent over a sparse table of block maxima, then a
# gathered row of the block found; a range minimum (with SciPy's tie-break, the minimum
# nearest to the peak) comes from the partial blocks at both ends and a sparse table of
# block minima between. Each step is one NumPy operation over all peaks (in batches),
# and the _NEAR samples next to each peak are tried first, where most walks end.
_BLOCK = 32
_NEAR = 4
_BATCH = 1 << 16


def _sparse_table(values, combine):
    """levels[k][b] = combine over values[b .. b + 2^k - 1] (only b where that fits)."""
    levels = [values]
    k = 1
    while (1 << k) <= len(values):
        prev = levels[-1]
        half = 1 << (k - 1)
        levels.append(combine(prev[:len(prev) - half], prev[half:]))
        k += 1
    return levels


class _Threshold:
    """Nearest index to a query position whose key passes `key > t` (strict) or
    `key >= t`, searched leftwards or rightwards within bounds. NaN keys pass always."""

    def __init__(self, key, strict):
        n = key.shape[0]
        self.n = n
        self.strict = strict
        nb = -(-n // _BLOCK)
        padded = _np.full(nb * _BLOCK, -_np.inf)
        padded[:n] = _np.where(_np.isnan(key), _np.inf, key)
        self.key = padded
        self.blocks = _sparse_table(padded.reshape(nb, _BLOCK).max(axis=1), _np.maximum)

    def _passes(self, v, t):
        return v > t if self.strict else v >= t

    def _row_search(self, block, lo, hi, t, last):
        """In block `block`, the last (or first) index j in [lo, hi) passing; -1 if none."""
        base = block * _BLOCK
        j = base[:, None] + _np.arange(_BLOCK)[None, :]
        ok = (j >= lo[:, None]) & (j < hi[:, None]) & self._passes(self.key[_np.minimum(j, len(self.key) - 1)],
                                                                   t[:, None])
        anyok = ok.any(axis=1)
        if last:
            pos = _BLOCK - 1 - _np.argmax(ok[:, ::-1], axis=1)
        else:
            pos = _np.argmax(ok, axis=1)
        return _np.where(anyok, base + pos, -1)

    def _near(self, p, lo, hi, t, step):
        """The first j passing among p + step, p + 2 step, ... (_NEAR of them) within
        [lo, hi), -1 if none: most walks end within a few samples."""
        j = p[:, None] + step * _np.arange(1, _NEAR + 1)[None, :]
        ok = (j >= lo[:, None]) & (j < hi[:, None])
        ok &= self._passes(self.key[_np.clip(j, 0, len(self.key) - 1)], t[:, None])
        return _np.where(ok.any(axis=1), p + step * (1 + _np.argmax(ok, axis=1)), -1)

    def left(self, p, lo, t):
        """Largest j in [lo, p) passing, else lo - 1."""
        out = self._near(p, lo, p, t, -1)
        rest = _np.flatnonzero(out < 0)
        if rest.size:
            out[rest] = self._left_far(p[rest], lo[rest], t[rest])
        return out

    def right(self, p, hi, t):
        """Smallest j in (p, hi] passing, else hi + 1."""
        out = self._near(p, p + 1, hi + 1, t, 1)
        rest = _np.flatnonzero(out < 0)
        if rest.size:
            out[rest] = self._right_far(p[rest], hi[rest], t[rest])
        return out

    def _left_far(self, p, lo, t):
        out = self._row_search(p // _BLOCK, lo, p, t, last=True)
        todo = _np.flatnonzero(out < 0)
        if todo.size:
            pq, loq, tq = p[todo], lo[todo], t[todo]
            first_full = loq // _BLOCK + (loq % _BLOCK != 0)  # the first block wholly in range
            pos = pq // _BLOCK  # candidate blocks are [first_full, pos)
            for k in range(len(self.blocks) - 1, -1, -1):
                step = 1 << k
                cand = pos - step
                ok = cand >= first_full
                idx = _np.where(ok, cand, 0)
                fail = ok & ~self._passes(self.blocks[k][_np.minimum(idx, len(self.blocks[k]) - 1)], tq)
                pos = _np.where(fail, cand, pos)
            found = pos - 1 >= first_full
            blk = _np.where(found, pos - 1, loq // _BLOCK)
            hit = self._row_search(blk, loq, pq, tq, last=True)
            out[todo] = _np.where(hit >= 0, hit, loq - 1)
        return out

    def _right_far(self, p, hi, t):
        out = self._row_search((p + 1) // _BLOCK, p + 1, hi + 1, t, last=False)
        todo = _np.flatnonzero(out < 0)
        if todo.size:
            pq, hiq, tq = p[todo], hi[todo], t[todo]
            end_full = (hiq + 1) // _BLOCK  # blocks wholly in range end before this one
            pos = (pq + 1) // _BLOCK + 1  # candidate blocks are [pos, end_full)
            for k in range(len(self.blocks) - 1, -1, -1):
                step = 1 << k
                ok = pos + step <= end_full
                idx = _np.where(ok, pos, 0)
                fail = ok & ~self._passes(self.blocks[k][_np.minimum(idx, len(self.blocks[k]) - 1)], tq)
                pos = _np.where(fail, pos + step, pos)
            found = pos < end_full
            blk = _np.where(found, pos, hiq // _BLOCK)
            hit = self._row_search(blk, pq + 1, hiq + 1, tq, last=False)
            out[todo] = _np.where(hit >= 0, hit, hiq + 1)
        return out


class _RangeMin:
    """The minimum of x over [s, e] and its index: the last one among equal minima
    (nearest = True for a range ending at the peak) or the first (a range starting there)."""

    def __init__(self, x):
        n = x.shape[0]
        nb = -(-n // _BLOCK)
        self.x = _np.full(nb * _BLOCK, _np.inf)
        self.x[:n] = x
        rows = self.x.reshape(nb, _BLOCK)
        base = _np.arange(nb) * _BLOCK
        first = base + _np.argmin(rows, axis=1)
        last = base + _BLOCK - 1 - _np.argmin(rows[:, ::-1], axis=1)
        # Within each block, the argmin of every prefix [block start, j] and suffix [j, block
        # end] (ties by the preference): the partial blocks at a range's ends. Computed on
        # the transposed (_BLOCK, nb) layout, where the running extrema vectorize.
        r = _np.ascontiguousarray(rows.T)
        cols = _np.ascontiguousarray(_np.arange(nb * _BLOCK).reshape(nb, _BLOCK).T)
        inf_row = _np.full((1, nb), _np.inf)
        pre = _np.minimum.accumulate(r, axis=0)
        suf = _np.minimum.accumulate(r[::-1], axis=0)[::-1]
        earlier = _np.concatenate((inf_row, pre[:-1]), axis=0)
        later = _np.concatenate((suf[1:], inf_row), axis=0)
        big = nb * _BLOCK

        def running(values, op, reverse):
            v = values[::-1] if reverse else values
            out = op.accumulate(v, axis=0)
            return _np.ascontiguousarray((out[::-1] if reverse else out).T).ravel()

        self.prefix = {True: running(_np.where(r == pre, cols, -1), _np.maximum, False),
                       False: running(_np.where(r < earlier, cols, -1), _np.maximum, False)}
        self.suffix = {True: running(_np.where(r < later, cols, big), _np.minimum, True),
                       False: running(_np.where(r == suf, cols, big), _np.minimum, True)}
        self.tables = {}
        for prefer_last, idx0 in ((True, last), (False, first)):
            def combine(a, b, prefer_last=prefer_last):
                va, vb = self.x[a], self.x[b]
                take_b = (vb < va) | ((vb == va) & prefer_last)
                return _np.where(take_b, b, a)
            self.tables[prefer_last] = _sparse_table(idx0, combine)

    def _better(self, a, b, prefer_last):
        """Index a or b, whichever holds the smaller value (ties by the preference); -1 = none."""
        va = _np.where(a >= 0, self.x[_np.maximum(a, 0)], _np.inf)
        vb = _np.where(b >= 0, self.x[_np.maximum(b, 0)], _np.inf)
        take_b = (b >= 0) & ((a < 0) | (vb < va) | ((vb == va) & (b > a if prefer_last else b < a)))
        return _np.where(take_b, b, a)

    def _row(self, block, lo, hi, prefer_last):
        base = block * _BLOCK
        j = base[:, None] + _np.arange(_BLOCK)[None, :]
        ok = (j >= lo[:, None]) & (j <= hi[:, None])
        v = _np.where(ok, self.x[j], _np.inf)
        if prefer_last:
            pos = _BLOCK - 1 - _np.argmin(v[:, ::-1], axis=1)
        else:
            pos = _np.argmin(v, axis=1)
        return _np.where(ok.any(axis=1), base + pos, -1)

    def argmin(self, s, e, prefer_last):
        short = e - s < _NEAR
        best = _np.empty(s.shape[0], dtype=_np.int64)
        if short.any():  # a few samples: one gathered row
            i = _np.flatnonzero(short)
            j = s[i, None] + _np.arange(_NEAR)[None, :]
            v = _np.where(j <= e[i, None], self.x[_np.minimum(j, len(self.x) - 1)], _np.inf)
            pos = _NEAR - 1 - _np.argmin(v[:, ::-1], axis=1) if prefer_last else _np.argmin(v, axis=1)
            best[i] = s[i] + pos
        if not short.all():
            i = _np.flatnonzero(~short)
            best[i] = self._blocks_argmin(s[i], e[i], prefer_last)
        return best

    def _blocks_argmin(self, s, e, prefer_last):
        bs, be = s // _BLOCK, e // _BLOCK
        one = bs == be
        best = _np.where(one, -1, self.suffix[prefer_last][s])
        best = self._better(best, _np.where(one, -1, self.prefix[prefer_last][e]), prefer_last)
        if one.any():
            i = _np.flatnonzero(one)
            best[i] = self._row(bs[i], s[i], e[i], prefer_last)
        lo_b, hi_b = bs + 1, be  # full blocks [lo_b, hi_b)
        span = hi_b - lo_b
        has = span > 0
        k = _np.where(has, _np.floor(_np.log2(_np.maximum(span, 1))).astype(_np.int64), 0)
        table = self.tables[prefer_last]
        for level in _np.unique(k[has]):
            sel = _np.flatnonzero(has & (k == level))
            t = table[level]
            a = t[lo_b[sel]]
            b = t[hi_b[sel] - (1 << level)]
            cand = self._better(a, b, prefer_last)
            best[sel] = self._better(best[sel], cand, prefer_last)
        return best


def _peak_prominences(x, peaks, wlen):
    """Each peak's prominence and bases: on each side, the lowest sample (the nearest to
    the peak among equals) before the signal rises above the peak (or the window of
    wlen samples, or the signal, ends); Note [Vectorized peak walks]."""
    size = x.shape[0]
    count = peaks.shape[0]
    prominences = _np.empty(count, dtype=_np.float64)
    left_bases = _np.empty(count, dtype=_np.intp)
    right_bases = _np.empty(count, dtype=_np.intp)
    if count == 0:
        return prominences, left_bases, right_bases
    bad = (peaks < 0) | (peaks > size - 1)
    if bad.any():
        raise ValueError("peak %d is not a valid index for `x`" % peaks[_np.argmax(bad)])
    higher = _Threshold(x, strict=True)  # NaN ends a walk too: `x[i] <= x[peak]` is False
    lows = _RangeMin(_np.where(_np.isnan(x), -_np.inf, x))
    for b0 in range(0, count, _BATCH):
        p = peaks[b0:b0 + _BATCH].astype(_np.int64)
        top = x[p]
        i_min = _np.zeros_like(p)
        i_max = _np.full_like(p, size - 1)
        if 2 <= wlen:
            i_min = _np.maximum(p - wlen // 2, 0)
            i_max = _np.minimum(p + wlen // 2, size - 1)
        nan_top = _np.isnan(top)
        t = _np.where(nan_top, _np.inf, top)
        left_end = higher.left(p, i_min, t) + 1   # the walk covers [left_end, p]
        right_end = higher.right(p, i_max, t) - 1  # and [p, right_end]
        lb = lows.argmin(left_end, p, prefer_last=True)
        rb = lows.argmin(p, right_end, prefer_last=False)
        lb = _np.where(nan_top, p, lb)
        rb = _np.where(nan_top, p, rb)
        left_bases[b0:b0 + _BATCH] = lb
        right_bases[b0:b0 + _BATCH] = rb
        prominences[b0:b0 + _BATCH] = top - _np.maximum(x[lb], x[rb])
    if (prominences == 0).any():
        warnings.warn("some peaks have a prominence of 0", PeakPropertyWarning, stacklevel=3)
    return prominences, left_bases, right_bases


def _peak_widths(x, peaks, rel_height, prominences, left_bases, right_bases):
    """Each peak's width at height x[peak] - rel_height * prominence: the crossings of
    that height nearest to the peak within its bases, linearly interpolated (Note
    [Vectorized peak walks])."""
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
    if count == 0:
        return widths, heights, left_ips, right_ips
    i_min_all = _np.asarray(left_bases).astype(_np.int64)
    i_max_all = _np.asarray(right_bases).astype(_np.int64)
    p_all = _np.asarray(peaks).astype(_np.int64)
    bad = ~((0 <= i_min_all) & (i_min_all <= p_all) & (p_all <= i_max_all) & (i_max_all < size))
    if bad.any():
        raise ValueError("prominence data is invalid for peak %d" % p_all[_np.argmax(bad)])
    # A walk ends at the first sample not above the height: -x >= -height (NaN ends it).
    at_or_below = _Threshold(-x, strict=False)
    for b0 in range(0, count, _BATCH):
        p = p_all[b0:b0 + _BATCH]
        i_min, i_max = i_min_all[b0:b0 + _BATCH], i_max_all[b0:b0 + _BATCH]
        height = x[p] - _np.asarray(prominences[b0:b0 + _BATCH], dtype=_np.float64) * rel_height
        h = -height
        # Leftwards from the peak itself: j in [i_min + 1, p], else i_min.
        left = at_or_below.left(p + 1, i_min + 1, h)
        left = _np.where(left < i_min + 1, i_min, left)
        # Rightwards: j in [p, i_max - 1], else i_max.
        right = at_or_below.right(p - 1, i_max - 1, h)
        right = _np.where(right > i_max - 1, i_max, right)
        with _np.errstate(divide="ignore", invalid="ignore"):
            xl = x[left]
            left_ip = left.astype(_np.float64)
            lo = xl < height
            nxt = x[_np.minimum(left + 1, size - 1)]
            left_ip = _np.where(lo, left_ip + (height - xl) / (nxt - xl), left_ip)
            xr = x[right]
            right_ip = right.astype(_np.float64)
            lo = xr < height
            prv = x[_np.maximum(right - 1, 0)]
            right_ip = _np.where(lo, right_ip - (height - xr) / (prv - xr), right_ip)
        heights[b0:b0 + _BATCH] = height
        left_ips[b0:b0 + _BATCH] = left_ip
        right_ips[b0:b0 + _BATCH] = right_ip
        widths[b0:b0 + _BATCH] = right_ip - left_ip
    if (widths == 0).any():
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
