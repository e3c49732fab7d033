"""Manipulation routines against NumPy: views where NumPy gives views, copies elsewhere,
NumPy's errors."""
import numpy
import pytest

import cunp
from helpers import numpy_cunp_equal, random_array


def _a(xp, shape=(2, 3, 4), dtype="float32", seed=0):
    return xp.asarray(random_array(shape, dtype, numpy.random.default_rng(seed)))


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), ((0, 1), (-1, -2)), ((0, 2), (2, 0)), (1, 1), (3, 0),
                                     ((0, 0), (1, 2)), ((0, 1), (2,))])
@numpy_cunp_equal()
def test_moveaxis(device, src, dst, xp):
    return xp.moveaxis(_a(xp), src, dst)


@pytest.mark.parametrize("args", [(0, 2), (-1, 0), (1, 1), (0, 3)])
@numpy_cunp_equal()
def test_swapaxes(device, args, xp):
    a = _a(xp)
    return xp.swapaxes(a, *args), a.swapaxes(*args)


@pytest.mark.parametrize("args", [(2,), (2, 1), (0, 3), (1, -1), (-1, 0), (1, 5), (3, 0)])
@numpy_cunp_equal()
def test_rollaxis(device, args, xp):
    return xp.rollaxis(_a(xp), *args)


@pytest.mark.parametrize("axis", [0, -1, 3, (0, 2), (0, -1), (1, 1), 5, (0, 4, 1)])
@numpy_cunp_equal()
def test_expand_dims(device, axis, xp):
    return xp.expand_dims(_a(xp), axis)


@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), -1, 1])
@numpy_cunp_equal()
def test_squeeze_function(device, axis, xp):
    return xp.squeeze(xp.asarray(numpy.zeros((1, 3, 1))), axis=axis)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
@numpy_cunp_equal()
def test_atleast(device, shape, xp):
    a = _a(xp, shape)
    return xp.atleast_1d(a), xp.atleast_2d(a), xp.atleast_3d(a), xp.atleast_2d(a, a)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), 3])
@numpy_cunp_equal()
def test_flip(device, axis, xp):
    return xp.flip(_a(xp), axis)


@numpy_cunp_equal()
def test_fliplr_flipud_rot90(device, xp):
    a = _a(xp, (3, 4))
    return (xp.fliplr(a), xp.flipud(a), xp.rot90(a), xp.rot90(a, 2), xp.rot90(a, 3), xp.rot90(a, -1),
            xp.rot90(a, 4), xp.rot90(_a(xp), 1, (2, 0)))


@pytest.mark.parametrize("call", ["fliplr1d", "flipud0d", "rot90_same", "rot90_range"])
@numpy_cunp_equal()
def test_flip_errors(device, call, xp):
    a = _a(xp, (3, 4))
    if call == "fliplr1d":
        return xp.fliplr(a[0])
    if call == "flipud0d":
        return xp.flipud(a[0, 0])
    if call == "rot90_same":
        return xp.rot90(a, 1, (1, 1))
    return xp.rot90(a, 1, (0, 5))


def test_flip_is_a_view(device):
    a = cunp.arange(6).reshape(2, 3)
    f = cunp.flip(a, 1)
    f[0, 0] = 100
    assert a[0, 2].item() == 100


@numpy_cunp_equal()
def test_broadcast_arrays(device, xp):
    a, b = _a(xp, (3, 1)), _a(xp, (1, 4), seed=1)
    return xp.broadcast_arrays(a, b)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@numpy_cunp_equal()
def test_concatenate(device, axis, xp):
    a = _a(xp, (2, 3))
    b = xp.asarray(numpy.arange(6, dtype="int16").reshape(2, 3))
    c = _a(xp, (2, 3), "float64", seed=2)
    return xp.concatenate([a, b, c], axis=axis), xp.concatenate((a[:, :0], a), axis=axis)


@pytest.mark.parametrize("case", ["empty_list", "0d", "ndim", "shape", "axis", "dtype_cast"])
@numpy_cunp_equal()
def test_concatenate_errors(device, case, xp):
    a = _a(xp, (2, 3))
    if case == "empty_list":
        return xp.concatenate([])
    if case == "0d":
        return xp.concatenate([a[0, 0], a[0, 1]])
    if case == "ndim":
        return xp.concatenate([a, a[0]])
    if case == "shape":
        return xp.concatenate([a, _a(xp, (2, 4))], axis=0)
    if case == "axis":
        return xp.concatenate([a, a], axis=2)
    return xp.concatenate([a, a], dtype="int32")


@numpy_cunp_equal()
def test_concatenate_out_and_dtype(device, xp):
    a, b = _a(xp, (2, 3)), _a(xp, (1, 3), seed=3)
    out = xp.zeros((3, 3), dtype="float64")
    r = xp.concatenate([a, b], out=out)
    return r is out, out, xp.concatenate([a, b], dtype="float64", casting="same_kind")


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
@numpy_cunp_equal()
def test_stack(device, axis, xp):
    a, b = _a(xp, (2, 3)), _a(xp, (2, 3), seed=1)
    return xp.stack([a, b, a], axis=axis)


@numpy_cunp_equal()
def test_stack_shape_mismatch(device, xp):
    return xp.stack([_a(xp, (2, 3)), _a(xp, (3, 2))])


@pytest.mark.parametrize("shapes", [[(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(2, 2, 2), (2, 2, 2)]])
@numpy_cunp_equal()
def test_vstack_hstack_dstack_column_stack(device, shapes, xp):
    arrs = [_a(xp, s, seed=i) for i, s in enumerate(shapes)]
    out = [xp.vstack(arrs), xp.dstack(arrs)]
    try:
        out.append(xp.hstack(arrs))
    except ValueError:
        out.append("hstack raises")
    try:
        out.append(xp.column_stack(arrs))
    except ValueError:
        out.append("column_stack raises")
    return out


@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_cunp_equal()
def test_append(device, axis, xp):
    a = _a(xp, (2, 3))
    return xp.append(a, a if axis is not None else [1.0, 2.0], axis=axis)


@pytest.mark.parametrize("spec", [3, [1, 2], [1, 5], [-1], [2, 1], [0, 0, 6], 1])
@pytest.mark.parametrize("axis", [0, -1])
@numpy_cunp_equal()
def test_array_split(device, spec, axis, xp):
    a = _a(xp, (6, 6))
    return tuple(xp.array_split(a, spec, axis=axis))


@pytest.mark.parametrize("spec", [2, 3, 4, [2, 4], 0])
@numpy_cunp_equal()
def test_split(device, spec, xp):
    return tuple(xp.split(_a(xp, (6, 4)), spec))


@numpy_cunp_equal()
def test_split_views_and_hvd(device, xp):
    a = _a(xp, (4, 6, 2))
    parts = xp.split(a, 2)
    parts[0][0, 0, 0] = 42
    return (a, tuple(xp.hsplit(a, 3)), tuple(xp.vsplit(a, 2)), tuple(xp.dsplit(a, 2)),
            tuple(xp.hsplit(a[0, 0], 2)), tuple(xp.hsplit(a, [1, 4])))


@pytest.mark.parametrize("call", ["v1d", "d2d", "h0d"])
@numpy_cunp_equal()
def test_split_errors(device, call, xp):
    a = _a(xp, (4, 6))
    if call == "v1d":
        return xp.vsplit(a[0], 2)
    if call == "d2d":
        return xp.dsplit(a, 2)
    return xp.hsplit(a[0, 0], 2)


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 1, 2), (0, 2), (1, 1), (3,)])
@pytest.mark.parametrize("shape", [(3,), (2, 3), ()])
@numpy_cunp_equal()
def test_tile(device, reps, shape, xp):
    return xp.tile(_a(xp, shape), reps)


@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, 1), (0, 1), ([1, 2, 0], 1), ([2], None),
                                          ([1, 0, 2, 1, 1, 3], None), (-1, None), ([1, 2], 1)])
@numpy_cunp_equal()
def test_repeat(device, repeats, axis, xp):
    a = _a(xp, (2, 3), "int32")
    return xp.repeat(a, repeats, axis=axis), a.repeat(repeats, axis)


@numpy_cunp_equal()
def test_repeat_scalar_array(device, xp):
    return xp.repeat(_a(xp, ()), 3)


@pytest.mark.parametrize("shift,axis", [(1, None), (-2, None), (7, None), (1, 0), (2, 1), ((1, 2), (0, 1)),
                                        ((1, -1), (1, 1)), (3, (0, 1)), (0, 1), (-5, -1)])
@numpy_cunp_equal()
def test_roll(device, shift, axis, xp):
    return xp.roll(_a(xp, (3, 5), "int64"), shift, axis=axis)


@pytest.mark.parametrize("new_shape", [(7,), (2, 5), (3,), (0,), (2, 3)])
@numpy_cunp_equal()
def test_resize(device, new_shape, xp):
    return xp.resize(_a(xp, (2, 3), "int8"), new_shape)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("width", [1, (2, 3), ((1, 0), (0, 4)), ((5, 6), (7, 2)), 0])
@numpy_cunp_equal()
def test_pad(device, mode, width, xp):
    a = _a(xp, (3, 4), "float64")
    kw = {"constant_values": 7.5} if mode == "constant" else {}
    return xp.pad(a, width, mode=mode, **kw)


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
@numpy_cunp_equal()
def test_pad_1d_large_widths(device, mode, xp):
    return [xp.pad(xp.asarray(numpy.arange(1, n + 1)), (7, 5), mode=mode) for n in (1, 2, 3)]


@numpy_cunp_equal()
def test_pad_constant_default_and_dtype(device, xp):
    return xp.pad(_a(xp, (2, 2), "int16"), 1), xp.pad(_a(xp, (2,), "uint8"), (1, 2), constant_values=3)


# ---- copies whose two sides have different contiguous axes (the tiled transpose on GPUs)

@pytest.mark.parametrize("shape", [(16, 16), (64, 64), (65, 130), (300, 17), (17, 300), (1000, 3), (2, 1000)])
@numpy_cunp_equal()
def test_transpose_copy(shape, dtype, device, xp):
    a = xp.asarray(random_array(shape, dtype, numpy.random.default_rng(2)))
    return xp.ascontiguousarray(a.T)


@numpy_cunp_equal()
def test_transpose_copy_batched_and_views(device, xp):
    a = xp.asarray(random_array((3, 70, 90), "float32", numpy.random.default_rng(3)))
    b = xp.asarray(random_array((130, 3, 70), "float64", numpy.random.default_rng(4)))
    c = xp.asarray(random_array((101, 67), "float32", numpy.random.default_rng(5)))
    out = xp.zeros((67, 101), dtype=numpy.float32)
    out[...] = c.T                                     # into an existing array
    return (xp.ascontiguousarray(a.transpose(0, 2, 1)), xp.ascontiguousarray(b.transpose(1, 2, 0)),
            xp.ascontiguousarray(c[1:, 1:].T),         # unaligned rows: element path
            xp.ascontiguousarray(c[:, ::2].T), out, xp.asfortranarray(c))


# ---- concatenate in one launch

@numpy_cunp_equal()
def test_concatenate_many_and_mixed(device, xp):
    rng = numpy.random.default_rng(6)
    parts = [xp.asarray(random_array((3, int(n), 2), "float32", rng)) for n in rng.integers(0, 5, size=40)]
    mixed = [xp.asarray(random_array((2, 3), "int16", rng)), xp.asarray(random_array((2, 5), "float32", rng)),
             xp.asarray(random_array((3, 2), "float32", rng)).T, xp.asarray(random_array((2, 1), "int8", rng))]
    odd = [xp.asarray(random_array((7,), "uint8", rng)), xp.asarray(random_array((3,), "uint8", rng))]
    return (xp.concatenate(parts, axis=1), xp.concatenate(parts, axis=None), xp.concatenate(mixed, axis=1),
            xp.concatenate(odd), xp.stack([xp.asarray(random_array((4, 5), "complex128", rng))] * 3, axis=1))


# ---- trim_zeros, insert, delete

@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@numpy_cunp_equal()
def test_trim_zeros(trim, device, xp):
    a = xp.asarray(numpy.array([0, 0, 3, 0, 2, 0, 0]))
    m = xp.asarray(numpy.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 2, 0]]))
    return (xp.trim_zeros(a, trim), xp.trim_zeros(m, trim), xp.trim_zeros(m, trim, axis=1),
            xp.trim_zeros(xp.zeros(4), trim))


@numpy_cunp_equal()
def test_trim_zeros_bad_trim(device, xp):
    return xp.trim_zeros(xp.asarray(numpy.array([0, 1])), "x")


@pytest.mark.parametrize("obj,values,axis", [
    (1, 9, None), (-1, [7, 8], None), ([1, 3, 3], [7, 8, 9], None), (slice(0, 4, 2), 5, None),
    (1, [7, 8, 9], 1), ([1], [[7], [8]], 1), ([0, 2], [[1, 2, 3, 4]], 0), (4, 0, 1), ([], [], None),
])
@numpy_cunp_equal()
def test_insert(obj, values, axis, device, xp):
    a = xp.asarray(numpy.arange(12).reshape(3, 4))
    v = xp.asarray(numpy.array(values)) if isinstance(values, list) and values else values
    return xp.insert(a, obj, v, axis=axis)


@pytest.mark.parametrize("obj", [5, -6, [0, 9]])
@numpy_cunp_equal()
def test_insert_out_of_bounds(obj, device, xp):
    return xp.insert(xp.asarray(numpy.arange(4)), obj, 1)


@pytest.mark.parametrize("obj,axis", [(1, None), (-1, 0), ([0, 2, 2], 1), (slice(1, None, 2), 1),
                                      (numpy.array([True, False, True, False]), 1), ([], 0)])
@numpy_cunp_equal()
def test_delete(obj, axis, device, xp):
    return xp.delete(xp.asarray(numpy.arange(12).reshape(3, 4)), obj, axis=axis)


@pytest.mark.parametrize("obj", [4, [0, -5], numpy.array([True, False])])
@numpy_cunp_equal()
def test_delete_errors(obj, device, xp):
    return xp.delete(xp.asarray(numpy.arange(4)), obj)


# ---- pad: the statistic and ramp modes, per-axis constants

@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median", "linear_ramp"])
@pytest.mark.parametrize("dtype_name", ["int16", "float32", "float64", "uint8"])
@numpy_cunp_equal(rtol=1e-6)
def test_pad_stat_and_ramp(mode, dtype_name, device, xp):
    a = xp.asarray(random_array((4, 5), dtype_name, numpy.random.default_rng(8), low=0, high=50))
    return xp.pad(a, ((2, 1), (0, 3)), mode=mode), xp.pad(a, 2, mode=mode)


@numpy_cunp_equal(rtol=1e-12)
def test_pad_options(device, xp):
    a = xp.asarray(numpy.arange(12.0).reshape(3, 4))
    return (xp.pad(a, 2, mode="mean", stat_length=((1, 2), (3, 1))), xp.pad(a, (1, 3), mode="maximum", stat_length=2),
            xp.pad(a, 2, mode="linear_ramp", end_values=((-1, 5), (10, -10))),
            xp.pad(xp.asarray(numpy.arange(5)), (4, 3), mode="linear_ramp", end_values=(20, -7)),
            xp.pad(a, 1, constant_values=((1, 2), (3, 4))), xp.pad(a, 0, mode="minimum"),
            xp.pad(xp.asarray(numpy.arange(6)), 2, mode="median", stat_length=2))


@numpy_cunp_equal()
def test_pad_empty_shape(device, xp):
    return xp.pad(xp.asarray(numpy.arange(6.0).reshape(2, 3)), 2, mode="empty").shape


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("mode", ["maximum", "mean"])
@numpy_cunp_equal()
def test_pad_stat_length_zero(mode, device, xp):
    return xp.pad(xp.asarray(numpy.arange(5.0)), 2, mode=mode, stat_length=0)


@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_cunp_equal()
def test_repeat_long_counts(axis, device, xp):
    # More counts than the per-element copy path takes: one gather.
    a = _a(xp, (20, 30), "float32")
    n = a.size if axis is None else a.shape[axis]
    counts = numpy.random.default_rng(4).integers(0, 4, size=n)
    return xp.repeat(a, counts.tolist(), axis=axis)


# ---- joins: argument forms, dtype=/out=/casting=, NumPy's errors

def _join_cases():
    from cases import Message as M
    gen = lambda xp: (xp.ones(2) for _ in range(2))  # noqa: E731
    cases = []
    for f in ("stack", "hstack", "vstack", "dstack", "column_stack", "concatenate"):
        def call(*args, _f=f, **kw):
            return lambda xp: getattr(xp, _f)(*[a(xp) if callable(a) else a for a in args], **kw)
        zero_d = call(lambda xp: xp.asarray(5))  # concatenate: NumPy's message comes from its dispatcher
        cases += [
            M(call(gen)), M(call([])), M(call(())), call(5), zero_d if f == "concatenate" else M(zero_d),
            call([[1, 2], [3, 4]]), call(([1, 2], (3, 4))), call((1.5, 2)), call([1, 2]),
            call(lambda xp: [xp.ones(2, "f4"), xp.ones(2, "i2")]), call(lambda xp: [xp.ones(2, "f4"), numpy.ones(2, "i2")]),
            call(lambda xp: [numpy.ones(2, "u1"), numpy.ones(2, "i1")]), call(lambda xp: xp.arange(6).reshape(2, 3)),
            call(lambda xp: xp.asarray(numpy.arange(6).reshape(2, 3))), call(lambda xp: numpy.arange(6).reshape(2, 3)),
            M(call(lambda xp: [xp.ones(2), xp.ones(3)])), M(call(lambda xp: [xp.ones((2, 2)), xp.ones((2, 2, 2))])),
            call(lambda xp: [xp.zeros((0, 2)), xp.zeros((0, 2))]), call(lambda xp: [xp.array(1), xp.array(2)]),
            call(lambda xp: [xp.ones((2, 4))[:, ::2], xp.ones((3, 2)).T[:2, ::-1]]), call(lambda xp: [1, xp.ones(1)]),
            call(lambda xp: [numpy.float32(1), numpy.float32(2)]), call(lambda xp: [xp.ones(2, "i1"), [1, 300]]),
        ]
        for dt in (None, "f4", float, numpy.complex64, "?", "bool", "i1", "u8"):
            for casting in (None, "no", "equiv", "safe", "same_kind", "unsafe", "bad"):
                kw = {} if dt is None else {"dtype": dt}
                if casting is not None:
                    kw["casting"] = casting
                # dstack/column_stack take neither: a TypeError of the argument parser.
                exact = M if f not in ("dstack", "column_stack") else (lambda c: c)
                cases += [exact(call([[1], [2]], **kw)), exact(call([[1.5], [2]], **kw)),
                          exact(call([[True], [False]], **kw))]
    return cases


def _join_out_cases():
    from cases import Message as M

    def with_out(f, arrays, out_shape, out_dtype="f8", **kw):
        def case(xp):
            out = xp.zeros(out_shape, out_dtype)
            r = getattr(xp, f)(arrays(xp) if callable(arrays) else arrays, out=out, **kw)
            return r is out, out
        return case

    ones = lambda *s, dt="f8": lambda xp: [xp.ones(x, dt) for x in s]  # noqa: E731
    return [
        M(with_out("concatenate", [[1], [2]], (2,))), M(with_out("concatenate", [[1], [2]], (3,))),
        M(with_out("concatenate", [[1], [2]], (2, 1))), M(with_out("concatenate", [[1], [2]], (2,), dtype="f4")),
        M(with_out("concatenate", [[1.5], [2]], (2,), "i8")), with_out("concatenate", [[1.5], [2]], (2,), "i8",
                                                                       casting="unsafe"),
        M(with_out("concatenate", [[1], [2]], (2,), casting="bad")),
        M(with_out("concatenate", [[1], [2]], (1, 1), axis=None)), M(with_out("concatenate", [[1], [2]], (3,), axis=None)),
        M(with_out("concatenate", [[1], [2]], (2, 1), axis=None)), with_out("concatenate", [[[1]], [[2]]], (2,), axis=None),
        with_out("concatenate", ones((2, 2), (2, 3)), (2, 5), "c8", axis=1),
        M(with_out("concatenate", ones((2, 2), (2, 3)), (2, 5), "f4", axis=1, casting="safe")),
        with_out("concatenate", ones((2, 2), (2, 3), dt="i2"), (2, 5), "f4", axis=1, casting="safe"),
        with_out("concatenate", lambda xp: [xp.arange(3), xp.arange(2)], (5,), "?", casting="unsafe"),
        with_out("stack", [[1], [2]], (2, 1)), with_out("stack", [[1], [2]], (1, 2), "i2", axis=1),
        M(with_out("stack", [[1], [2]], (2, 2))), M(with_out("stack", [[1.5], [2]], (2, 1), "i8")),
        with_out("stack", [[1.5], [2]], (2, 1), "i8", casting="unsafe"), M(with_out("stack", [[1], [2]], (2, 1),
                                                                                    dtype="f4")),
        # a strided out
        lambda xp: (lambda big: (xp.concatenate([[1], [2]], out=big[:, 1]) is not None, big))(xp.zeros((2, 3))),
        lambda xp: (lambda big: (xp.concatenate([[1], [2, 3]], axis=None, out=big[::2]), big))(xp.zeros(6, "f4")),
        M(lambda xp: xp.concatenate([[1], [2]], out=[0, 0])),
        M(lambda xp: xp.concatenate([[1], [2]], out=xp.zeros(2), dtype="f4")),
        M(lambda xp: xp.concatenate([], out=xp.zeros(2), dtype="f4")),
        M(lambda xp: xp.stack([], out=xp.zeros(2), dtype="f4")),
    ]


def _join_axis_cases():
    from cases import Message as M
    a = lambda xp: [[[1]], [[2]]]  # noqa: E731
    return [
        lambda xp: xp.concatenate([[[1]], [[2, 3]]], axis=None), lambda xp: xp.concatenate([1, 2], axis=None),
        lambda xp: xp.concatenate([xp.array(1), [[2.5]]], axis=None),
        lambda xp: xp.concatenate(xp.arange(6).reshape(2, 3), axis=None),
        lambda xp: xp.concatenate([xp.ones((0, 3))], axis=None),
        M(lambda xp: xp.concatenate(a(xp), axis=2)), M(lambda xp: xp.concatenate(a(xp), axis=-3)),
        lambda xp: xp.concatenate(a(xp), axis=-1), lambda xp: xp.concatenate(a(xp), 1),
        lambda xp: xp.concatenate(a(xp), axis=numpy.int64(1)), M(lambda xp: xp.concatenate(a(xp), axis=1.0)),
        M(lambda xp: xp.concatenate(a(xp), axis="0")), M(lambda xp: xp.concatenate(a(xp), axis=True)),
        lambda xp: xp.concatenate([[1], [2]]),
        M(lambda xp: xp.concatenate([1, 2])), M(lambda xp: xp.concatenate([xp.ones((2, 2)), xp.ones(3)])),
        M(lambda xp: xp.concatenate([xp.ones((2, 2)), xp.ones((3, 3))])),
        M(lambda xp: xp.concatenate([xp.ones((2, 2)), xp.ones((3, 2))], axis=1)),
        lambda xp: xp.stack([[1], [2]], axis=1), M(lambda xp: xp.stack([[1], [2]], axis=2)),
        M(lambda xp: xp.stack([[1], [2]], axis=-3)), lambda xp: xp.stack([[1], [2]], axis=-2),
        lambda xp: xp.stack([[1], [2]], axis=1.0), lambda xp: xp.stack([xp.ones(3)], axis=numpy.int8(1)),
        lambda xp: xp.stack([xp.ones(3)], axis=True), lambda xp: xp.stack([xp.zeros((0, 3))] * 2, axis=2),
        M(lambda xp: xp.vstack([xp.ones(2), xp.ones(3)])), M(lambda xp: xp.hstack([xp.ones((2, 1)), xp.ones((3, 1))])),
        lambda xp: xp.hstack([xp.array(1), xp.ones(3)]), M(lambda xp: xp.vstack([xp.array(1), xp.ones(3)])),
        lambda xp: xp.hstack([[1], [2]], "f4"), lambda xp: xp.dstack([[1], [2]], dtype="f4"),
        lambda xp: xp.column_stack([[1], [2]], casting="no"), lambda xp: xp.column_stack([xp.ones((2, 2)), [3, 4]]),
        M(lambda xp: xp.column_stack([xp.ones(2), xp.ones(3)])), lambda xp: xp.dstack([1, 2]),
        M(lambda xp: xp.dstack([xp.ones((2, 2, 2)), xp.ones((2, 3))])),
        lambda xp: xp.vstack([xp.ones((2, 2), "i4")[:, ::-1], xp.ones(2, "u1")], dtype="i1", casting="unsafe"),
        lambda xp: xp.concatenate((xp.ones(3)[::2], xp.ones(4)[1::2])),
        lambda xp: xp.concatenate([xp.ones((3, 4), "c8")[:, ::2], xp.ones((4, 3), "c16").T[::-1, 1::2]], axis=0),
    ]


def _append_cases():
    from cases import Message as M
    return [
        lambda xp: xp.append([1, 2], [3]), lambda xp: xp.append([[1, 2]], [[3, 4]], axis=0),
        M(lambda xp: xp.append([[1, 2]], [3, 4], axis=0)), lambda xp: xp.append(xp.ones(2, "f4"), 1),
        lambda xp: xp.append(xp.ones(2, "i1"), 1.5), lambda xp: xp.append(1, 2), lambda xp: xp.append([], []),
        lambda xp: xp.append(xp.ones((2, 2)), [[1], [2]], axis=1), M(lambda xp: xp.append(xp.ones((2, 2)), xp.ones(2),
                                                                                            axis=2)),
        lambda xp: xp.append(xp.ones(2, "u1"), 300), lambda xp: xp.append(xp.ones(2, "f4"), numpy.ones(2, "f8")),
        lambda xp: xp.append(numpy.ones(2, "f4"), xp.ones(2, "f8")), lambda xp: xp.append(xp.ones((2, 2)), xp.ones((1, 2)), 0),
        M(lambda xp: xp.append(xp.ones(3), [1], axis=False)), lambda xp: xp.append(xp.ones((2, 2)), 5, axis=None),
        lambda xp: xp.append(xp.ones((2, 2))[:, ::-1], xp.ones((2, 1), "i2"), axis=1),
    ]


@pytest.mark.parametrize("table", ["forms", "out", "axis", "append"])
def test_join_argument_forms(device, table):
    from cases import check_cases
    check_cases({"forms": _join_cases, "out": _join_out_cases, "axis": _join_axis_cases,
                 "append": _append_cases}[table]())


def test_join_device_of_first_cunp_array(device):
    r = cunp.concatenate([numpy.ones(2), cunp.ones(2, device=device), [3.0]])
    assert r.device == cunp.ones(1, device=device).device
    assert cunp.stack([[1, 2], numpy.zeros(2)]).device == cunp.ones(1).device
