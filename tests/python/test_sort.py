"""Sorting, searching and set operations against NumPy (cunp.sort, argsort, lexsort,
partition, searchsorted, unique, isin, intersect1d, ...), on every device."""
import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array

FLOATS = [numpy.dtype(t) for t in (numpy.float16, numpy.float32, numpy.float64)]
COMPLEX = [numpy.dtype(t) for t in (numpy.complex64, numpy.complex128)]
SPECIAL = [numpy.nan, -numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.5, -2.0, 1.5]


def _arr(xp, host):
    return xp.asarray(host)


def _special(shape, dtype, seed=0):
    """Float/complex data drawn from NaN, ±inf, ±0.0 and a few repeated finite values."""
    rng = numpy.random.default_rng(seed)
    values = numpy.array(SPECIAL)
    data = rng.choice(values, size=shape)
    if dtype.kind == "c":
        real, imag = data, rng.choice(values, size=shape)
        real = numpy.where(rng.random(shape) < 0.3, numpy.nan, real)
        data = numpy.empty(shape, dtype=numpy.complex128)
        data.real, data.imag = real, imag
    return data.astype(dtype)


def _dup(shape, dtype, seed=1):
    """Random data with many duplicates (small range)."""
    return random_array(shape, dtype, numpy.random.default_rng(seed), low=-4, high=4)


# ---- sort / argsort
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@numpy_cunp_equal()
def test_sort_every_dtype(xp, device, dtype, axis):
    return xp.sort(_arr(xp, _dup((3, 4, 37), dtype)), axis=axis)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@numpy_cunp_equal()
def test_argsort_stable_every_dtype(xp, device, dtype, axis):
    return xp.argsort(_arr(xp, _dup((3, 4, 37), dtype)), axis=axis, kind="stable")


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=str)
@pytest.mark.parametrize("axis", [0, -1, None])
@numpy_cunp_equal()
def test_sort_nan_inf_signed_zero(xp, device, dt, axis):
    return xp.sort(_arr(xp, _special((5, 41), dt)), axis=axis)


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=str)
@pytest.mark.parametrize("axis", [0, -1, None])
@numpy_cunp_equal()
def test_argsort_nan_inf_signed_zero(xp, device, dt, axis):
    # -0.0 and 0.0 are equal, so a stable argsort keeps their input order.
    return xp.argsort(_arr(xp, _special((5, 41), dt)), axis=axis, kind="stable")


def test_sort_orders_nan_last_and_zeros_equal(device):
    a = cunp.asarray(numpy.array([numpy.nan, 1.0, -0.0, -numpy.inf, 0.0, -numpy.nan, -1.0]))
    got = cunp.sort(a).get()
    assert numpy.isnan(got[-2:]).all()
    numpy.testing.assert_array_equal(got[:5], [-numpy.inf, -1.0, 0.0, 0.0, 1.0])
    numpy.testing.assert_array_equal(cunp.argsort(a).get(), [3, 6, 2, 4, 1, 0, 5])


@pytest.mark.parametrize("shape,axis", [((0,), -1), ((1,), -1), ((3, 0), 0), ((0, 3), -1), ((0, 3), 0),
                                        ((), None), ((1, 1), 0), ((2, 1, 3), 1)])
@numpy_cunp_equal()
def test_sort_empty_and_single(xp, device, shape, axis):
    a = _arr(xp, random_array(shape, numpy.float32, numpy.random.default_rng(2)))
    return xp.sort(a, axis=axis), xp.argsort(a, axis=axis, kind="stable")


@numpy_cunp_equal()
def test_argsort_0d(xp, device):
    return xp.argsort(xp.asarray(3.0))


@numpy_cunp_equal()
def test_sort_0d_axis_error(xp, device):
    return xp.sort(xp.asarray(3.0))


@numpy_cunp_equal()
def test_sort_axis_out_of_bounds(xp, device):
    return xp.sort(xp.zeros((2, 3)), axis=2)


@pytest.mark.parametrize("kind", [None, "quicksort", "mergesort", "heapsort", "stable"])
@numpy_cunp_equal()
def test_sort_kinds(xp, device, kind):
    a = _arr(xp, _dup((50,), numpy.int32))
    return xp.sort(a, kind=kind), xp.argsort(a, kind="stable" if kind is None else kind)[:0]


@numpy_cunp_equal()
def test_sort_bad_kind(xp, device):
    return xp.sort(xp.asarray([2, 1]), kind="bogus")


@numpy_cunp_equal()
def test_sort_noncontiguous_input(xp, device):
    a = _arr(xp, random_array((6, 8, 10), numpy.float64, numpy.random.default_rng(3)))
    v = a[::2, :, ::-3].transpose(2, 0, 1)
    return xp.sort(v, axis=1), xp.argsort(v, axis=0, kind="stable"), xp.sort(v, axis=None)


@pytest.mark.parametrize("dt", [numpy.float32, numpy.int32, numpy.float64, numpy.complex64], ids=str)
@numpy_cunp_equal()
def test_sort_large_single_row(xp, device, dt):
    # Past the threaded cpu threshold and a real multi-pass radix sort on the GPU.
    a = _arr(xp, random_array((300_001,), dt, numpy.random.default_rng(4), low=-1000, high=1000))
    return xp.sort(a), xp.argsort(a, kind="stable")


@pytest.mark.parametrize("shape", [(6, 700), (3, 2100), (2, 4096)])
@numpy_cunp_equal()
def test_sort_rows_one_block_each(xp, device, dtype, shape):
    # Rows of 257..4096 elements: one thread block per row on the GPU (4- and 8-byte
    # keys), with padding at the row's end; stable with many duplicates.
    a = _arr(xp, _dup(shape, dtype))
    return xp.sort(a, axis=-1), xp.argsort(a, axis=-1, kind="stable")


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=str)
@numpy_cunp_equal()
def test_sort_rows_one_block_each_special(xp, device, dt):
    a = _arr(xp, _special((4, 1500), dt))
    return xp.sort(a, axis=-1), xp.argsort(a, axis=-1, kind="stable")


@pytest.mark.parametrize("shape", [(64, 5000), (1000, 17), (512, 1024), (3, 1 << 20 | 3)])
@numpy_cunp_equal()
def test_sort_large_batched_rows(xp, device, shape):
    a = _arr(xp, random_array(shape, numpy.float32, numpy.random.default_rng(5), low=-100, high=100))
    return xp.sort(a, axis=-1), xp.argsort(a, axis=-1, kind="stable")


@numpy_cunp_equal()
def test_ndarray_sort_in_place(xp, device, dtype):
    a = _arr(xp, _dup((4, 9), dtype))
    b = a.copy()
    assert a.sort() is None
    b.sort(axis=0)
    return a, b


@numpy_cunp_equal()
def test_ndarray_sort_view_writes_base(xp, device):
    a = _arr(xp, numpy.array([[5, 1, 4], [3, 2, 0]], dtype=numpy.int64))
    a[:, 1:].sort(axis=0)
    return a


@numpy_cunp_equal()
def test_ndarray_argsort_method(xp, device):
    a = _arr(xp, _dup((4, 9), numpy.float32))
    return a.argsort(kind="stable"), a.argsort(axis=0, kind="stable")


# ---- lexsort
@numpy_cunp_equal()
def test_lexsort(xp, device):
    rng = numpy.random.default_rng(6)
    k1 = _arr(xp, rng.integers(0, 3, 40))
    k2 = _arr(xp, rng.integers(0, 3, 40).astype(numpy.float32))
    k3 = _arr(xp, rng.integers(0, 2, 40).astype(numpy.bool_))
    return xp.lexsort((k1, k2, k3)), xp.lexsort([k1])


@numpy_cunp_equal()
def test_lexsort_axis(xp, device):
    rng = numpy.random.default_rng(7)
    k1 = _arr(xp, rng.integers(0, 3, (4, 6)))
    k2 = _arr(xp, rng.integers(0, 3, (4, 6)))
    return xp.lexsort((k1, k2), axis=0), xp.lexsort((k1, k2), axis=-1)


@numpy_cunp_equal()
def test_lexsort_shape_mismatch(xp, device):
    return xp.lexsort((xp.zeros(3), xp.zeros(4)))


@numpy_cunp_equal()
def test_lexsort_no_keys(xp, device):
    return xp.lexsort([])


# ---- partition / argpartition
def _check_partition(part, host, kth, axis):
    ref = numpy.sort(host, axis=axis)
    part = numpy.moveaxis(part, axis, -1)
    ref = numpy.moveaxis(ref, axis, -1)
    for k in kth:
        k = k % host.shape[axis]
        numpy.testing.assert_array_equal(part[..., k], ref[..., k])
        # NaNs sort last, so compare through the sort order of the whole row.
        for row, rrow in zip(part.reshape(-1, part.shape[-1]), ref.reshape(-1, ref.shape[-1])):
            numpy.testing.assert_array_equal(numpy.sort(row[:k]), rrow[:k])
            numpy.testing.assert_array_equal(numpy.sort(row[k + 1:]), rrow[k + 1:])


@pytest.mark.parametrize("kth", [0, 3, -1, [1, 5], (2, 2, 7)])
@pytest.mark.parametrize("axis", [0, -1])
def test_partition(device, dtype, kth, axis):
    host = _dup((9, 8), dtype)
    kths = [kth] if isinstance(kth, int) else list(kth)
    got = cunp.partition(cunp.asarray(host), kth, axis=axis)
    assert got.dtype == host.dtype and got.shape == host.shape
    _check_partition(got.get(), host, kths, axis)
    idx = cunp.argpartition(cunp.asarray(host), kth, axis=axis)
    assert idx.dtype == numpy.int64
    _check_partition(numpy.take_along_axis(host, idx.get(), axis=axis), host, kths, axis)


def test_partition_nan_and_flattened(device):
    host = _special((60,), numpy.dtype(numpy.float64))
    _check_partition(cunp.partition(cunp.asarray(host.reshape(6, 10)), 17, axis=None).get(), host, [17], 0)


def test_ndarray_partition_in_place(device):
    host = _dup((5, 7), numpy.dtype(numpy.int32))
    a = cunp.asarray(host)
    assert a.partition(3) is None
    _check_partition(a.get(), host, [3], -1)


@numpy_cunp_equal()
def test_partition_kth_out_of_bounds(xp, device):
    return xp.partition(xp.arange(3), 5)


@numpy_cunp_equal()
def test_argpartition_kth_out_of_bounds(xp, device):
    return xp.argpartition(xp.arange(3), -4)


# ---- sort_complex
@pytest.mark.parametrize("dt", [numpy.int8, numpy.uint16, numpy.int32, numpy.float16, numpy.float32,
                                numpy.float64, numpy.complex64, numpy.complex128], ids=str)
@numpy_cunp_equal()
def test_sort_complex(xp, device, dt):
    return xp.sort_complex(_arr(xp, _dup((3, 11), numpy.dtype(dt))))


# ---- searchsorted
@pytest.mark.parametrize("side", ["left", "right"])
@numpy_cunp_equal()
def test_searchsorted_every_dtype(xp, device, dtype, side):
    a = numpy.sort(_dup((40,), dtype))
    v = _dup((3, 7), dtype, seed=9)
    return xp.searchsorted(_arr(xp, a), _arr(xp, v), side=side)


@pytest.mark.parametrize("side", ["left", "right"])
@numpy_cunp_equal()
def test_searchsorted_nan_inf_zero(xp, device, side):
    a = numpy.sort(_special((30,), numpy.dtype(numpy.float32)))
    v = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.5, 7.0], dtype=numpy.float32)
    return xp.searchsorted(_arr(xp, a), _arr(xp, v), side=side)


@pytest.mark.parametrize("side", ["left", "right"])
@numpy_cunp_equal()
def test_searchsorted_sorter(xp, device, side):
    host = _dup((25,), numpy.dtype(numpy.float64))
    a = _arr(xp, host)
    sorter = _arr(xp, numpy.argsort(host, kind="stable"))
    return xp.searchsorted(a, _arr(xp, numpy.array([-5.0, 0.0, 2.0, 9.0])), side=side, sorter=sorter)


@numpy_cunp_equal()
def test_searchsorted_scalar_and_mixed_dtype(xp, device):
    a = _arr(xp, numpy.array([1, 3, 5, 7], dtype=numpy.int32))
    return (xp.searchsorted(a, 4), xp.searchsorted(a, 4.5), xp.searchsorted(a, [2.5, 7.0], side="right"),
            a.searchsorted(5))


@numpy_cunp_equal()
def test_searchsorted_complex(xp, device):
    a = numpy.sort(_special((30,), numpy.dtype(numpy.complex128)))
    v = _special((9,), numpy.dtype(numpy.complex128), seed=3)
    return xp.searchsorted(_arr(xp, a), _arr(xp, v)), xp.searchsorted(_arr(xp, a), _arr(xp, v), side="right")


@numpy_cunp_equal()
def test_searchsorted_empty(xp, device):
    a = xp.asarray(numpy.array([], dtype=numpy.float32))
    return xp.searchsorted(a, xp.asarray([1.0, 2.0])), xp.searchsorted(xp.asarray([1.0]), xp.zeros((0,)))


@numpy_cunp_equal()
def test_searchsorted_2d_error(xp, device):
    return xp.searchsorted(xp.ones((2, 2)), 1.0)


@numpy_cunp_equal()
def test_searchsorted_bad_side(xp, device):
    return xp.searchsorted(xp.ones(3), 1.0, side="middle")


@numpy_cunp_equal()
def test_searchsorted_bad_sorter_length(xp, device):
    return xp.searchsorted(xp.ones(3), 1.0, sorter=xp.asarray([0, 1]))


# ---- unique
@pytest.mark.parametrize("flags", [(False, False, False), (True, False, False), (False, True, False),
                                   (False, False, True), (True, True, True)])
@numpy_cunp_equal()
def test_unique_every_dtype(xp, device, dtype, flags):
    a = _arr(xp, _dup((6, 11), dtype))
    return xp.unique(a, return_index=flags[0], return_inverse=flags[1], return_counts=flags[2])


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=str)
@pytest.mark.parametrize("equal_nan", [True, False])
@numpy_cunp_equal()
def test_unique_nan(xp, device, dt, equal_nan):
    host = _special((40,), dt, seed=4)
    return xp.unique(_arr(xp, host), return_index=True, return_inverse=True, return_counts=True,
                     equal_nan=equal_nan)


@pytest.mark.parametrize("axis", [0, 1, -1])
@numpy_cunp_equal()
def test_unique_axis(xp, device, axis):
    rng = numpy.random.default_rng(8)
    a = _arr(xp, rng.integers(0, 2, (6, 5, 4)).astype(numpy.int16))
    return xp.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)


@numpy_cunp_equal()
def test_unique_axis_rows_of_floats(xp, device):
    host = numpy.array([[1.0, 2.0], [0.5, 3.0], [1.0, 2.0], [1.0, -1.0], [0.5, 3.0]])
    return xp.unique(_arr(xp, host), axis=0), xp.unique(_arr(xp, host), axis=1)


@numpy_cunp_equal()
def test_unique_empty_and_0d(xp, device):
    e = _arr(xp, numpy.array([], dtype=numpy.int8))
    return (xp.unique(e, return_index=True, return_inverse=True, return_counts=True),
            xp.unique(xp.asarray(5), return_inverse=True))


@numpy_cunp_equal()
def test_unique_array_api_forms(xp, device):
    a = _arr(xp, numpy.array([[3.0, numpy.nan, 1.0], [1.0, numpy.nan, 2.0]]))
    return (xp.unique_values(a), tuple(xp.unique_counts(a)), tuple(xp.unique_inverse(a)),
            tuple(xp.unique_all(a)))


def test_unique_named_results(device):
    r = cunp.unique_all(cunp.asarray([2, 1, 2]))
    numpy.testing.assert_array_equal(r.values.get(), [1, 2])
    numpy.testing.assert_array_equal(r.indices.get(), [1, 0])
    numpy.testing.assert_array_equal(r.inverse_indices.get(), [1, 0, 1])
    numpy.testing.assert_array_equal(r.counts.get(), [1, 2])


@numpy_cunp_equal()
def test_unique_axis_out_of_bounds(xp, device):
    return xp.unique(xp.zeros((2, 2)), axis=2)


# ---- set operations
@pytest.mark.parametrize("invert", [False, True])
@numpy_cunp_equal()
def test_isin(xp, device, dtype, invert):
    el = _arr(xp, _dup((4, 6), dtype))
    test = _arr(xp, _dup((5,), dtype, seed=11))
    return xp.isin(el, test, invert=invert)


@numpy_cunp_equal()
def test_isin_nan_mixed_dtypes_and_empty(xp, device):
    el = _arr(xp, numpy.array([numpy.nan, 1.0, 2.5, 3.0, -0.0]))
    return (xp.isin(el, _arr(xp, numpy.array([numpy.nan, 3, 0]))), xp.isin(el, _arr(xp, numpy.array([]))),
            xp.isin(el, _arr(xp, numpy.array([], dtype=numpy.int64))[:0], invert=True),
            xp.isin(_arr(xp, numpy.array([1, 2, 3])), [2.0, 2.5]))


def test_in1d(device):
    # NumPy 2.4 dropped in1d; it was isin of the flattened first argument.
    host = numpy.array([[0, 1], [2, 5]])
    a = cunp.asarray(host)
    for invert in (False, True):
        got = cunp.in1d(a, [1, 5, 7], invert=invert)
        assert got.shape == (4,) and got.dtype == numpy.bool_
        numpy.testing.assert_array_equal(got.get(), numpy.isin(host.ravel(), [1, 5, 7], invert=invert))


@pytest.mark.parametrize("assume_unique", [False, True])
@numpy_cunp_equal()
def test_intersect1d(xp, device, assume_unique):
    if assume_unique:
        a, b = numpy.array([5, 1, 3, 9]), numpy.array([3, 2, 9, 7, 0])
    else:
        a, b = numpy.array([5, 1, 3, 3, 9, 1]), numpy.array([[3, 2], [9, 3], [0, 2]])
    a, b = _arr(xp, a), _arr(xp, b)
    return (xp.intersect1d(a, b, assume_unique=assume_unique),
            xp.intersect1d(a, b, assume_unique=assume_unique, return_indices=True))


@numpy_cunp_equal()
def test_intersect1d_mixed_dtypes_empty(xp, device):
    a = _arr(xp, numpy.array([1.5, 2.0, 3.0], dtype=numpy.float32))
    b = _arr(xp, numpy.array([2, 3, 4], dtype=numpy.int16))
    e = _arr(xp, numpy.array([], dtype=numpy.int16))
    return xp.intersect1d(a, b), xp.intersect1d(e, e, return_indices=True)


@numpy_cunp_equal()
def test_union1d(xp, device, dtype):
    return xp.union1d(_arr(xp, _dup((3, 4), dtype)), _arr(xp, _dup((5,), dtype, seed=12)))


@pytest.mark.parametrize("assume_unique", [False, True])
@numpy_cunp_equal()
def test_setdiff1d(xp, device, assume_unique):
    a = numpy.array([9, 1, 4, 7, 2]) if assume_unique else numpy.array([[9, 1, 4], [4, 7, 9]])
    return xp.setdiff1d(_arr(xp, a), _arr(xp, numpy.array([4, 2, 8])), assume_unique=assume_unique)


@pytest.mark.parametrize("assume_unique", [False, True])
@numpy_cunp_equal()
def test_setxor1d(xp, device, assume_unique):
    a = numpy.array([9, 1, 4, 7, 2]) if assume_unique else numpy.array([9, 1, 4, 4, 7, 9])
    b = numpy.array([4, 2, 8, 0]) if assume_unique else numpy.array([4, 2, 8, 2, 0])
    return (xp.setxor1d(_arr(xp, a), _arr(xp, b), assume_unique=assume_unique),
            xp.setxor1d(_arr(xp, a)[:0], _arr(xp, b)[:0]))


@numpy_cunp_equal()
def test_set_ops_floats_with_nan(xp, device):
    a = _arr(xp, numpy.array([numpy.nan, 1.0, -0.0, 2.0]))
    b = _arr(xp, numpy.array([0.0, numpy.nan, 2.0, 5.0]))
    return xp.union1d(a, b), xp.setdiff1d(a, b), xp.setxor1d(a, b), xp.intersect1d(a, b)


def _searchsorted_cases():
    from cases import Message as M
    cases = []
    a = lambda xp, dt="int64": xp.asarray(numpy.array([1, 3, 5, 7], dtype=dt))  # noqa: E731
    for v in [4, 4.5, [2.5, 7.0], [[1, 8], [3, 3]], numpy.array([0, 9]), numpy.float32(3), True, 1 + 2j, [],
              numpy.int8(5), 2 ** 70, -2 ** 70, 2 ** 63, numpy.nan, [numpy.nan, 3.0]]:
        for side in ("left", "right"):
            cases += [lambda xp, v=v, s=side: xp.searchsorted(a(xp), v, side=s),
                      lambda xp, v=v, s=side: a(xp).searchsorted(v, s),
                      lambda xp, v=v, s=side: xp.searchsorted(a(xp), xp.asarray(numpy.asarray(v)), s)]
            if isinstance(v, int) and abs(v) >= 2 ** 64:  # an object array: no cunp array of it
                cases.pop()
    for dt in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
               "float32", "float64", "complex64", "complex128"]:
        for v in [-1, 0, 2, 2.0001, 300, 2 ** 63, [1, 2.5, 300], numpy.array([3, 9], dtype="int8")]:
            cases.append(lambda xp, v=v, dt=dt: xp.searchsorted(xp.asarray(numpy.sort(numpy.array([7, 1, 5, 3, 1]).astype(dt))), v))
    cases += [M(lambda xp, s=s: xp.searchsorted(a(xp), 4, side=s))
              for s in ("l", "r", "L", "Right", "lefty", "LEFT", "middle", "", "x", None, 1, b"left", b"right")]
    cases += [M(lambda xp: a(xp).searchsorted(4, side=None)), M(lambda xp: a(xp).searchsorted(4, side="r"))]
    unsorted = lambda xp: xp.asarray(numpy.array([7, 1, 5, 3]))  # noqa: E731
    for sorter in [lambda xp: xp.asarray([1, 3, 2, 0]), [1, 3, 2, 0], (1, 3, 2, 0), numpy.array([1, 3, 2, 0]),
                   lambda xp: xp.asarray(numpy.array([1, 3, 2, 0], "int32")),
                   lambda xp: xp.asarray(numpy.array([1, 3, 2, 0], "uint8")),
                   lambda xp: xp.asarray([0, 1, 3, 2, 0])[1:], lambda xp: xp.asarray([1, 9, 3, 9, 2, 9, 0])[::2],
                   lambda xp: xp.asarray([1, 3, 2]), lambda xp: xp.asarray([1, 3, 2, 0, 0]),
                   lambda xp: xp.asarray([1, 3, 2, 4]), lambda xp: xp.asarray([1, 3, 2, -1]),
                   lambda xp: xp.asarray([1.0, 3, 2, 0]), lambda xp: xp.asarray([[1, 3, 2, 0]]),
                   lambda xp: xp.asarray([True, False, True, False]), None, [], 5]:
        def srt(xp, sorter=sorter):
            return sorter(xp) if callable(sorter) else sorter
        cases += [M(lambda xp, srt=srt: xp.searchsorted(unsorted(xp), [0, 4, 8, 5], sorter=srt(xp))),
                  M(lambda xp, srt=srt: xp.searchsorted(unsorted(xp), [0, 4, 8, 5], "right", srt(xp))),
                  M(lambda xp, srt=srt: unsorted(xp).searchsorted(numpy.array([5, 7]), sorter=srt(xp)))]
    cases += [
        lambda xp: xp.searchsorted(xp.asarray(numpy.array([])), 5), lambda xp: xp.searchsorted(xp.asarray([]), 5, sorter=[]),
        lambda xp: xp.searchsorted(xp.zeros(0), [5], sorter=xp.zeros(0, int)), M(lambda xp: xp.searchsorted(xp.asarray(5), 5)),
        M(lambda xp: xp.searchsorted(xp.ones((2, 2)), 1)), lambda xp: xp.searchsorted([1, 2, 3], 2),
        lambda xp: xp.searchsorted((1, 2, 3), [2]), lambda xp: xp.searchsorted(xp.arange(10)[::3], [4, 6]),
        lambda xp: xp.searchsorted(xp.arange(10)[::-1][::-1], xp.arange(6).reshape(2, 3)[:, ::2]),
        lambda xp: xp.searchsorted(a=xp.asarray([1, 2]), v=1), lambda xp: xp.asarray([1, 2]).searchsorted(v=1, side="right"),
        lambda xp: xp.asarray([1, 2]).searchsorted(1, "left", None), lambda xp: xp.searchsorted(xp.asarray([1, 2, 3]), xp.ones((2, 0))),
    ]
    return cases


def test_searchsorted_argument_forms(device):
    from cases import check_cases
    check_cases(_searchsorted_cases())
