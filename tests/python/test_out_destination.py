"""out= writes into the given array: around/round and trace (the array is returned,
non-contiguous views receive the values, the rest of the base is untouched; trace's
through the C++ routine), ndarray.partition in place (in C++), against NumPy; and the
names whose semantics are the C++ library's (linalg.vector_norm, random.SeedSequence)."""
import numpy
import pytest

import cunp


def _strided_out(shape, dtype, xp):
    """A non-contiguous view (every other column) of a larger array filled with -7."""
    base = xp.full(shape[:-1] + (2 * shape[-1],), -7, dtype=dtype)
    return base, base[..., ::2]


@pytest.mark.parametrize("dt, decimals", [(d, k) for d in ("float32", "float64", "complex64") for k in (0, 2, -1)]
                         + [("int64", 0), ("int64", 2)])
def test_around_out_is_written_and_returned(device, rng, dt, decimals):
    host = (rng.standard_normal((5, 6)) * 100).astype(dt)
    if numpy.dtype(dt).kind == "c":
        host = host + 1j * (rng.standard_normal((5, 6)) * 100).astype(dt)
    a = cunp.asarray(host)
    want_base, want_view = _strided_out((5, 6), dt, numpy)
    numpy.around(host, decimals, out=want_view)
    base, view = _strided_out((5, 6), dt, cunp)
    assert not view.flags.c_contiguous
    got = cunp.around(a, decimals, out=view)
    assert got is view
    numpy.testing.assert_array_equal(base.get(), want_base)
    # The method, into a contiguous out.
    out = cunp.empty((5, 6), dtype=dt)
    assert a.round(decimals, out=out) is out
    numpy.testing.assert_array_equal(out.get(), host.round(decimals))


@pytest.mark.parametrize("dt", ["int32", "float64"])
def test_trace_out_is_written_and_returned(device, rng, dt):
    host = (rng.standard_normal((4, 5, 3)) * 10).astype(dt)
    a = cunp.asarray(host)
    rdt = numpy.trace(host).dtype
    want_base, want_view = _strided_out((3,), rdt, numpy)
    numpy.trace(host, 1, out=want_view)
    base, view = _strided_out((3,), rdt, cunp)
    assert cunp.trace(a, 1, out=view) is view
    numpy.testing.assert_allclose(base.get(), want_base, rtol=1e-12)
    out = cunp.empty(5, dtype="float64")
    assert a.trace(0, 0, 2, out=out) is out
    numpy.testing.assert_allclose(out.get(), host.trace(0, 0, 2).astype("float64"), rtol=1e-12)
    with pytest.raises(ValueError):
        cunp.trace(a, out=cunp.empty(4, dtype=rdt))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_partition_in_place_of_a_strided_view(device, rng, axis):
    host = rng.integers(-50, 50, (6, 16)).astype("float32")
    base = cunp.asarray(host)
    view = base[:, ::2]
    assert view.partition(2, axis=axis) is None
    got = base.get()
    numpy.testing.assert_array_equal(got[:, 1::2], host[:, 1::2])  # the rest is untouched
    part, orig = got[:, ::2], host[:, ::2]
    kth = numpy.sort(orig, axis=axis).take(2, axis=axis)
    numpy.testing.assert_array_equal(part.take(2, axis=axis), kth)
    numpy.testing.assert_array_equal(numpy.sort(part, axis=axis), numpy.sort(orig, axis=axis))
    below = numpy.moveaxis(part, axis, -1)[..., :2]
    assert (below <= numpy.expand_dims(kth, -1)).all()


def test_partition_in_place_read_only(device):
    a = cunp.arange(5.0)
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        a.partition(1)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0), (0, 1, 2)])
@pytest.mark.parametrize("ord", [2, 1, 0, 3, 0.5, numpy.inf, -numpy.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm(device, rng, axis, ord, keepdims):
    host = rng.standard_normal((3, 4, 5))
    want = numpy.linalg.vector_norm(host, axis=axis, ord=ord, keepdims=keepdims)
    got = cunp.linalg.vector_norm(cunp.asarray(host), axis=axis, ord=ord, keepdims=keepdims)
    assert got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-12)


def test_vector_norm_dtypes_and_errors(device):
    i = numpy.arange(-6, 6, dtype="int16").reshape(3, 4)
    got = cunp.linalg.vector_norm(cunp.asarray(i), axis=1)
    assert got.dtype == numpy.linalg.vector_norm(i, axis=1).dtype
    numpy.testing.assert_allclose(got.get(), numpy.linalg.vector_norm(i, axis=1))
    f = numpy.ones((2, 3), dtype="float32")
    assert cunp.linalg.vector_norm(cunp.asarray(f)).dtype == numpy.linalg.vector_norm(f).dtype
    z = numpy.float64(3.0)
    numpy.testing.assert_allclose(cunp.linalg.vector_norm(cunp.asarray(z)).get(), numpy.linalg.vector_norm(z))
    with pytest.raises(numpy.exceptions.AxisError):
        cunp.linalg.vector_norm(cunp.asarray(f), axis=2)
    with pytest.raises(ValueError):
        cunp.linalg.vector_norm(cunp.asarray(f), ord="fro")


def test_seed_sequence_spawn_as_numpy():
    ours, theirs = cunp.random.SeedSequence(12345), numpy.random.SeedSequence(12345)
    a, b = ours.spawn(2), theirs.spawn(2)
    assert [c.spawn_key for c in a] == [c.spawn_key for c in b] == [(0,), (1,)]
    c, d = ours.spawn(1), theirs.spawn(1)
    assert c[0].spawn_key == d[0].spawn_key == (2,)
    assert ours.n_children_spawned == theirs.n_children_spawned == 3
    grand, grand_np = a[1].spawn(2), b[1].spawn(2)
    assert [g.spawn_key for g in grand] == [g.spawn_key for g in grand_np] == [(1, 0), (1, 1)]
    # A child is the sequence its entropy and spawn key name.
    assert grand[1].generate_key() == cunp.random.SeedSequence(12345, spawn_key=(1, 1)).generate_key()
    assert len({x.generate_key() for x in [ours] + a + c + grand}) == 6
    # n_children_spawned= continues the numbering, as NumPy's does.
    later = cunp.random.SeedSequence(7, spawn_key=(4,), n_children_spawned=5).spawn(1)[0]
    assert later.spawn_key == numpy.random.SeedSequence(7, spawn_key=(4,), n_children_spawned=5).spawn(1)[0].spawn_key
    assert later.entropy == 7
