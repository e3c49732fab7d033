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
