"""NumPy's dispatch protocols on cunp arrays (__array_ufunc__, __array_function__,
__array__) and Python's object protocols (pickle, copy, iteration, truth, index),
against NumPy as the oracle on every device."""
import copy
import pickle

import numpy
import pytest

import cunp


def _same(got, want, rtol=1e-12):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w, rtol)
        return
    assert type(got) is cunp.ndarray, type(got)
    assert got.dtype == numpy.asarray(want).dtype, (got.dtype, numpy.asarray(want).dtype)
    assert got.shape == numpy.shape(want)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-12, equal_nan=True)


def _pair(device, h):
    return cunp.asarray(h, device=device), h


H = numpy.array([[0.5, -1.25, 3.0], [2.0, numpy.nan, -0.0]])
I = numpy.array([[3, -7, 12], [5, 0, -2]], dtype=numpy.int32)

UFUNC_CALLS = [
    ("add", lambda x, y: numpy.add(x, y)), ("multiply", lambda x, y: numpy.multiply(x, 2.5)),
    ("sin", lambda x, y: numpy.sin(x)), ("maximum", lambda x, y: numpy.maximum(x, y[::-1])),
    ("less", lambda x, y: numpy.less(x, 1.0)), ("true_divide", lambda x, y: numpy.true_divide(7, x)),
    ("matmul", lambda x, y: numpy.matmul(x, y.T)), ("isnan", lambda x, y: numpy.isnan(x)),
    ("power-dtype", lambda x, y: numpy.power(x, 2, dtype=numpy.float32)),
    ("where=", lambda x, y: numpy.add(x, 1.0, where=numpy.asarray([True, False, True]) if isinstance(x, numpy.ndarray)
                                      else cunp.asarray([True, False, True], device=x.device),
                                      out=numpy.zeros_like(x) if isinstance(x, numpy.ndarray) else cunp.zeros_like(x))),
    ("operators", lambda x, y: (numpy.float64(2) * x, numpy.int8(3) + x, numpy.float32(1) - x)),
]


@pytest.mark.parametrize("name,call", UFUNC_CALLS, ids=[c[0] for c in UFUNC_CALLS])
def test_ufunc_call_runs_in_cunp(device, name, call):
    x, hx = _pair(device, H)
    with numpy.errstate(all="ignore"):
        want = call(hx, hx)
    with cunp.errstate(all="ignore"):
        got = call(x, x)
    _same(got, want)


def test_ufunc_out_tuples_and_multiple_outputs(device):
    x, hx = _pair(device, H)
    o, ho = cunp.empty((2, 3), device=device), numpy.empty((2, 3))
    r = numpy.multiply(x, 3, out=(o,))
    numpy.multiply(hx, 3, out=(ho,))
    assert r is o
    _same(o, ho)
    q, rem = cunp.empty((2, 3), device=device), cunp.empty((2, 3), device=device)
    with numpy.errstate(all="ignore"):
        want = numpy.divmod(hx, 2.0)
    with cunp.errstate(all="ignore"):
        got = numpy.divmod(x, 2.0, out=(q, rem))
    assert got[0] is q and got[1] is rem
    _same(got, want)
    _same(numpy.modf(x), numpy.modf(hx))
    _same(numpy.frexp(x), numpy.frexp(hx))


def test_ufunc_methods(device):
    x, hx = _pair(device, numpy.nan_to_num(H))
    i, hi = _pair(device, I)
    _same(numpy.add.reduce(x, axis=1), numpy.add.reduce(hx, axis=1))
    _same(numpy.add.reduce(x, axis=None, keepdims=True), numpy.add.reduce(hx, axis=None, keepdims=True))
    _same(numpy.maximum.reduce(i, axis=0), numpy.maximum.reduce(hi, axis=0))
    _same(numpy.multiply.accumulate(x, axis=1), numpy.multiply.accumulate(hx, axis=1))
    _same(numpy.add.accumulate(i, axis=0, dtype=numpy.int64), numpy.add.accumulate(hi, axis=0, dtype=numpy.int64))
    _same(numpy.multiply.outer(x[0], i[1]), numpy.multiply.outer(hx[0], hi[1]))
    _same(numpy.subtract.outer(x, x[0]), numpy.subtract.outer(hx, hx[0]))
    _same(numpy.greater.outer(i[0], i[:, 0]), numpy.greater.outer(hi[0], hi[:, 0]))
    for idx in ([0, 4, 1, 5], [0, 3, 3, 7], [7], [2, 1, 0]):
        a, ha = _pair(device, numpy.arange(8.0) ** 2)
        _same(numpy.add.reduceat(a, idx), numpy.add.reduceat(ha, idx))
        _same(numpy.maximum.reduceat(a, idx), numpy.maximum.reduceat(ha, idx))
    m, hm = _pair(device, numpy.arange(24).reshape(4, 6))
    _same(numpy.add.reduceat(m, [0, 2, 1], axis=1), numpy.add.reduceat(hm, [0, 2, 1], axis=1))
    _same(numpy.multiply.reduceat(m, [1, 3], axis=0), numpy.multiply.reduceat(hm, [1, 3], axis=0))
    # (called on cunp's ufunc: NumPy's reduceat override path keeps a reference to its
    # operand when the override raises)
    with pytest.raises(IndexError, match="out-of-bounds"):
        cunp.add.reduceat(m, [0, 9], axis=1)
    with pytest.raises(ValueError, match="binary"):
        numpy.sin.outer(x, x)
    # at: unbuffered, repeated indices accumulate
    a, ha = _pair(device, numpy.zeros(5))
    numpy.add.at(a, [0, 1, 1, 4, 1], 1.5)
    numpy.add.at(ha, [0, 1, 1, 4, 1], 1.5)
    _same(a, ha)


FUNCTION_CALLS = [
    ("concatenate", lambda x: numpy.concatenate([x, x], axis=1)),
    ("stack", lambda x: numpy.stack([x, x])),
    ("where", lambda x: numpy.where(x > 0, x, -x)),
    ("sum", lambda x: numpy.sum(x, axis=0)), ("nansum", lambda x: numpy.nansum(x)),
    ("mean", lambda x: numpy.mean(x, axis=1, keepdims=True)), ("std", lambda x: numpy.nanstd(x, ddof=1)),
    ("sort", lambda x: numpy.sort(x, axis=1)), ("argsort", lambda x: numpy.argsort(x[0])),
    ("unique", lambda x: numpy.unique(x[0])), ("cumsum", lambda x: numpy.cumsum(x)),
    ("reshape", lambda x: numpy.reshape(x, (3, 2))), ("transpose", lambda x: numpy.transpose(x)),
    ("clip", lambda x: numpy.clip(x, -1, 1)), ("dot", lambda x: numpy.dot(x, x.T)),
    ("einsum", lambda x: numpy.einsum("ij,kj->ik", x, x)), ("take", lambda x: numpy.take(x, [2, 0], axis=1)),
    ("round", lambda x: numpy.round(x, 1)), ("argmax", lambda x: numpy.nanargmax(x) if hasattr(cunp, "nanargmax")
                                               else numpy.argmax(x, axis=1)),
    ("nonzero", lambda x: numpy.nonzero(x)), ("isclose", lambda x: numpy.isclose(x, x + 1e-12)),
    ("diff", lambda x: numpy.diff(x, axis=1)) if hasattr(cunp, "diff") else ("ravel", lambda x: numpy.ravel(x)),
    ("linalg.norm", lambda x: numpy.linalg.norm(x, axis=1)),
    ("linalg.solve", lambda x: numpy.linalg.solve(x[:, :2].T @ x[:, :2] + numpy.eye(2) if isinstance(x, numpy.ndarray)
                                                  else x[:, :2].T @ x[:, :2] + cunp.eye(2, device=x.device), x[0, :2])),
    ("fft.fft", lambda x: numpy.fft.fft(x, axis=1)), ("fft.rfft2", lambda x: numpy.fft.rfft2(x)),
    ("zeros_like", lambda x: numpy.zeros_like(x)), ("full_like", lambda x: numpy.full_like(x, 7, dtype=numpy.int16)),
    ("shape", lambda x: numpy.broadcast_to(x[0], (4, 3))), ("flip", lambda x: numpy.flip(x, 0)),
]


@pytest.mark.parametrize("name,call", FUNCTION_CALLS, ids=[c[0] for c in FUNCTION_CALLS])
def test_array_function_runs_in_cunp(device, name, call):
    h = numpy.nan_to_num(H) if name not in ("nansum", "std", "argmax", "where", "sort") else H
    if name == "argmax":
        h = numpy.nan_to_num(H)
    x = cunp.asarray(h, device=device)
    with numpy.errstate(all="ignore"):
        want = call(h)
    with cunp.errstate(all="ignore"):
        got = call(x)
    _same(got, want)


def test_array_function_scalars_and_python_results(device):
    x, hx = _pair(device, numpy.nan_to_num(H))
    assert numpy.allclose(x, x) is True or bool(numpy.allclose(x, x)) is True
    assert bool(numpy.array_equal(x, x)) == numpy.array_equal(hx, hx)
    assert numpy.ndim(x) == 2 and numpy.shape(x) == (2, 3) and numpy.size(x) == 6
    assert numpy.result_type(x, 1.0) == numpy.float64


def test_missing_numpy_function_raises_type_error_naming_it(device):
    x = cunp.asarray(H, device=device)
    with pytest.raises(TypeError, match="sliding_window_view"):
        numpy.lib.stride_tricks.sliding_window_view(x, 2)
    vec = numpy.frompyfunc(lambda v: v, 1, 1)
    with pytest.raises(TypeError, match="cunp does not implement the ufunc"):
        vec(x)


def test_numpy_and_cunp_arrays_in_one_call(device):
    x, hx = _pair(device, numpy.nan_to_num(H))
    if device == "cpu":
        # The cpu device wraps the NumPy array without copying: the call runs in cunp.
        _same(numpy.add(x, hx), hx + hx)
        _same(numpy.concatenate([x, hx]), numpy.concatenate([hx, hx]))
        _same(hx + x, hx + hx)
        return
    for call in (lambda: numpy.add(x, hx), lambda: numpy.add(hx, x), lambda: hx + x,
                 lambda: numpy.concatenate([x, hx]), lambda: numpy.where(hx > 0, x, 0),
                 lambda: numpy.multiply(x, 2, out=(numpy.empty((2, 3)),))):
        with pytest.raises(TypeError, match=r"cunp array on cuda:0 and a numpy\.ndarray"):
            call()


def test_zero_d_numpy_arrays_are_scalars(device):
    # NumPy passes a NumPy scalar on the left of a comparison as a 0-d array
    # (np.int8(2) < x calls less(array(2, int8), x)): a scalar of its dtype on every device.
    x, hx = _pair(device, numpy.nan_to_num(H))
    for got, want in [(numpy.int8(2) < x, numpy.int8(2) < hx), (numpy.float32(1.5) >= x, numpy.float32(1.5) >= hx),
                      (numpy.less(numpy.array(2, numpy.int16), x), numpy.less(numpy.array(2, numpy.int16), hx)),
                      (numpy.add(numpy.array(2.5), x), numpy.add(numpy.array(2.5), hx))]:
        assert isinstance(got, cunp.ndarray) and got.device == x.device
        _same(got, want)


def test_np_asarray_rule(device):
    x, hx = _pair(device, H)
    if device == "cpu":
        v = numpy.asarray(x)
        assert type(v) is numpy.ndarray and v.ctypes.data == x.data.ptr  # zero-copy
        numpy.testing.assert_array_equal(v, hx)
    else:
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            numpy.asarray(x)
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            numpy.array(x)


class _Foreign:
    """Another library's array: NumPy calls it next when cunp returns NotImplemented."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("foreign", ufunc.__name__, method)

    def __array_function__(self, func, types, args, kwargs):
        return ("foreign", func.__name__)


def test_other_libraries_arrays_decide(device):
    x = cunp.asarray(H, device=device)
    assert numpy.add(x, _Foreign()) == ("foreign", "add", "__call__")
    assert numpy.concatenate([x, _Foreign()]) == ("foreign", "concatenate")


# ---- Python's object protocols ---------------------------------------------------------

@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickle_round_trip(device, dtype, protocol):
    h = (numpy.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    for a in (cunp.asarray(h, device=device), cunp.asarray(h, device=device)[:, ::-1, 1::2],
              cunp.asarray(h[0, 0, 0], device=device), cunp.asarray(h[:0], device=device)):
        b = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert type(b) is cunp.ndarray and b.dtype == a.dtype and b.shape == a.shape
        assert str(b.device) == str(a.device)
        numpy.testing.assert_array_equal(b.get(), a.get())


def test_copy_and_deepcopy_are_independent(device):
    a = cunp.asarray(numpy.arange(6.0).reshape(2, 3), device=device)
    for b in (copy.copy(a), copy.deepcopy(a), copy.deepcopy([a])[0]):
        assert type(b) is cunp.ndarray and str(b.device) == str(a.device)
        numpy.testing.assert_array_equal(b.get(), a.get())
        b[0, 0] = 100
        assert float(a[0, 0]) == 0.0


def test_len_iter_bool_index(device):
    h = numpy.arange(6).reshape(3, 2)
    a = cunp.asarray(h, device=device)
    assert len(a) == 3
    rows = list(a)
    assert len(rows) == 3 and all(type(r) is cunp.ndarray for r in rows)
    for r, hr in zip(rows, h):
        numpy.testing.assert_array_equal(r.get(), hr)
    assert [int(v) for v in a[:, 1]] == [1, 3, 5]
    z = cunp.asarray(numpy.float64(2.5), device=device)
    with pytest.raises(TypeError, match="0-d"):
        iter(z)
    with pytest.raises(TypeError, match="unsized"):
        len(z)
    assert bool(cunp.asarray([0], device=device)) is False and bool(z) is True
    with pytest.raises(ValueError, match="ambiguous"):
        bool(a)
    assert [10, 20, 30][cunp.asarray(numpy.int64(2), device=device)] == 30
    assert operator_index(cunp.asarray(numpy.int8(-1), device=device)) == -1
    with pytest.raises(TypeError):
        [1, 2][cunp.asarray(1.0, device=device)]
    assert list(cunp.asarray(numpy.zeros((0, 2)), device=device)) == []


def operator_index(x):
    import operator

    return operator.index(x)
