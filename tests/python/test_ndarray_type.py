"""The ndarray type against NumPy: the constructor (over new memory, cunp buffers and
memory pointers), view(dtype/type), byteswap, flat, data, flags, reshape(copy=, order=),
item/tolist, and every method's keyword names."""
import re

import numpy
import pytest

import cunp
from helpers import assert_array_equal, assert_same, random_array

DTYPES = [numpy.dtype(t) for t in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8",
                                   "c8", "c16")]


def raises_like(np_fn, cp_fn, fragment=None):
    """Both calls raise the same exception type (and cunp's message holds NumPy's, or
    `fragment` when given)."""
    with pytest.raises(Exception) as np_err:
        np_fn()
    with pytest.raises(type(np_err.value)) as cp_err:
        cp_fn()
    assert (fragment or str(np_err.value)) in str(cp_err.value)


LAYOUTS = [("c", lambda x: x), ("t", lambda x: x.transpose(1, 0, 2)), ("step", lambda x: x[:, ::2]),
           ("rev", lambda x: x[::-1, :, ::-1]), ("last", lambda x: x[..., :1]), ("empty", lambda x: x[:, :0]),
           ("f", lambda x: x.transpose(2, 1, 0).copy().transpose(2, 1, 0))]


# ---- constructor --------------------------------------------------------------

def test_constructor_allocates(device):
    forms = [3, (2, 3), [2, 3], (numpy.int64(2), numpy.int32(3)), numpy.int8(4), (), [], (0, 3)]
    for shape in forms:
        expect = numpy.ndarray(shape)
        a = cunp.ndarray(shape)
        assert a.shape == expect.shape and a.dtype == numpy.float64 and a.strides == expect.strides, shape
        assert a.device == cunp.Device(device) and a.flags.owndata
    assert cunp.ndarray(cunp.asarray(5)).shape == (5,)
    assert cunp.ndarray(numpy.array(5)).shape == (5,)
    for dt in ("i4", numpy.complex64, int, bool, "f2"):
        a = cunp.ndarray((2, 3), dt)
        assert a.dtype == numpy.dtype(dt)
        assert a.strides == numpy.ndarray((2, 3), dt).strides
    f = cunp.ndarray((2, 3), "f4", order="F")
    assert f.strides == (4, 8) and f.flags.f_contiguous
    raises_like(lambda: numpy.ndarray((3,), "i4", strides=(-4,)), lambda: cunp.ndarray((3,), "i4", strides=(-4,)))
    g = cunp.ndarray((2, 3), "f8", strides=(8, 16))
    assert g.strides == (8, 16) and g.flags.f_contiguous
    g[...] = 1.5
    assert_array_equal(g, numpy.full((2, 3), 1.5))
    raises_like(lambda: numpy.ndarray((2,), strides=(40,)), lambda: cunp.ndarray((2,), strides=(40,)))
    raises_like(lambda: numpy.ndarray((2, 3), strides=(8,)), lambda: cunp.ndarray((2, 3), strides=(8,)))
    raises_like(lambda: numpy.ndarray((-1,)), lambda: cunp.ndarray((-1,)))
    raises_like(lambda: numpy.ndarray([2, 3.0]), lambda: cunp.ndarray([2, 3.0]))
    raises_like(lambda: numpy.ndarray(2, order="X"), lambda: cunp.ndarray(2, order="X"), "order")


def test_constructor_over_buffers(device):
    host = numpy.arange(12, dtype="f8")
    buf = cunp.asarray(host)
    cases = [dict(), dict(offset=16), dict(strides=(16,)), dict(offset=88, strides=(-8,)),
             dict(offset=8, strides=(24,))]
    for kw in cases:
        expect = numpy.ndarray((3,), "f8", buffer=host, **kw)
        got = cunp.ndarray((3,), "f8", buffer=buf, **kw)
        assert_array_equal(got, expect)
        assert got.strides == expect.strides
        got_mp = cunp.ndarray((3,), "f8", memptr=buf.data, **kw)
        assert_array_equal(got_mp, expect)
    # Reinterpreting bytes and sharing memory: writes go through to the buffer.
    v = cunp.ndarray((2, 2), "i4", buffer=buf, offset=8)
    assert_array_equal(v, numpy.ndarray((2, 2), "i4", buffer=host, offset=8))
    v[0, 0] = 7
    assert buf.view("i4")[2].item() == 7 and v.base is not None and not v.flags.owndata
    # A buffer that is itself a view: offsets count from its first element.
    w = cunp.ndarray((2,), "f8", buffer=buf[4:], offset=8)
    assert_array_equal(w, host[5:7])
    f = cunp.asfortranarray(cunp.asarray(host.reshape(3, 4)))
    f_host = host.reshape(3, 4).T.copy().T
    assert_array_equal(cunp.ndarray((12,), "f8", buffer=f), numpy.ndarray((12,), "f8", buffer=f_host))
    # memptr arithmetic, and memptr as the positional buffer.
    assert_array_equal(cunp.ndarray((2,), "f8", memptr=buf.data + 80), host[10:])
    assert_array_equal(cunp.ndarray((2,), "f8", buf[3:].data), host[3:5])
    # A read-only buffer gives a read-only array.
    ro = cunp.asarray(host).copy()
    ro.flags.writeable = False
    assert not cunp.ndarray((2,), buffer=ro).flags.writeable
    # NumPy's bounds errors.
    raises_like(lambda: numpy.ndarray((13,), buffer=host), lambda: cunp.ndarray((13,), buffer=buf))
    raises_like(lambda: numpy.ndarray((2,), buffer=host, offset=90), lambda: cunp.ndarray((2,), buffer=buf, offset=90))
    raises_like(lambda: numpy.ndarray((2,), buffer=host, offset=100),
                lambda: cunp.ndarray((2,), buffer=buf, offset=100))
    raises_like(lambda: numpy.ndarray((2,), buffer=host, strides=(96,)),
                lambda: cunp.ndarray((2,), buffer=buf, strides=(96,)))
    raises_like(lambda: numpy.ndarray((2,), buffer=host, strides=(-8,)),
                lambda: cunp.ndarray((2,), buffer=buf, strides=(-8,)))
    raises_like(lambda: numpy.ndarray((2,), buffer=host[::2]), lambda: cunp.ndarray((2,), buffer=buf[::2]))
    with pytest.raises(ValueError, match="offset must be non-negative"):
        cunp.ndarray((1,), buffer=buf, offset=-8)
    with pytest.raises(TypeError, match="buffer is too small"):
        cunp.ndarray((3,), memptr=buf.data + 80)
    # The buffer stays alive through the new array alone.
    keep = cunp.ndarray((12,), "f8", memptr=cunp.asarray(host).data)
    assert_array_equal(keep, host)


def test_constructor_over_host_buffers():
    with cunp.Device("cpu"):
        raw = bytearray(numpy.arange(4, dtype="i4").tobytes())
        a = cunp.ndarray((4,), "i4", buffer=raw)
        assert_array_equal(a, numpy.arange(4, dtype="i4"))
        a[0] = 9
        assert raw[0] == 9
        b = cunp.ndarray((2,), "i2", buffer=b"\x01\x00\x02\x00")
        assert_array_equal(b, numpy.array([1, 2], "i2"))
        assert not b.flags.writeable


# ---- view ---------------------------------------------------------------------

def test_view_dtype_every_pair(device):
    rng = numpy.random.default_rng(3)
    shapes = [(), (8,), (3, 8), (2, 0), (4, 1)]
    for shape in shapes:
        for src in DTYPES:
            h = random_array(shape, src, rng)
            d = cunp.asarray(h)
            for dst in DTYPES:
                try:
                    expect = h.view(dst)
                except ValueError as e:
                    with pytest.raises(ValueError) as err:
                        d.view(dst)
                    assert str(err.value) == str(e), (shape, src, dst)
                    continue
                got = d.view(dst)
                assert got.shape == expect.shape and got.strides == expect.strides, (shape, src, dst)
                assert got.dtype == expect.dtype
                assert got.get().tobytes() == expect.tobytes(), (shape, src, dst)
    # Non-contiguous views: the last-axis rule.
    h = numpy.arange(24, dtype="i4").reshape(2, 3, 4)
    for name, make in LAYOUTS:
        v, d = make(h), make(cunp.asarray(h))
        for dst in ("i2", "i8", "u4", "c16", "u1"):
            try:
                expect = v.view(dst)
            except ValueError as e:
                with pytest.raises(ValueError, match=re.escape(str(e))):
                    d.view(dst)
                continue
            got = d.view(dst)
            assert got.shape == expect.shape and got.strides == expect.strides, (name, dst)
            numpy.testing.assert_array_equal(got.get(), expect)


def test_view_writes_through_and_forms(device):
    a = cunp.zeros(4, "f4")
    v = a.view("i4")
    v[1] = 0x3F800000
    assert a[1].item() == 1.0
    assert not v.flags.owndata and v.base is not None
    plain = a.view()
    assert plain.dtype == a.dtype and plain.shape == a.shape and plain.base is not None
    plain[0] = 3
    assert a[0].item() == 3
    assert type(a.view(cunp.ndarray)) is cunp.ndarray
    assert a.view(dtype="u4", type=cunp.ndarray).dtype == numpy.uint32
    assert a.view(type=cunp.ndarray).dtype == numpy.float32
    with pytest.raises(TypeError, match="sub-type of ndarray"):
        a.view(type=numpy.ndarray)
    with pytest.raises(TypeError):
        a.view(numpy.ndarray)
    with pytest.raises(TypeError, match="output type twice"):
        a.view(cunp.ndarray, cunp.ndarray)
    b = cunp.broadcast_to(a, (2, 4)).view("u4")
    assert not b.flags.writeable


def test_getfield_setfield(device):
    h = numpy.arange(6, dtype="i4").reshape(2, 3) * 65537
    d = cunp.asarray(h.copy())
    for hv, dv in ((h, d), (h.T, d.T), (h[:, ::2], d[:, ::2])):
        for dt, off in (("i2", 0), ("i2", 2), ("u1", 1), ("i4", 0), (numpy.uint16, 2)):
            got, expect = dv.getfield(dt, off), hv.getfield(dt, off)
            assert_array_equal(got, expect)
            assert got.strides == expect.strides
        assert_array_equal(dv.getfield(dtype="u1", offset=3), hv.getfield(dtype="u1", offset=3))
    for args in (("i8",), ("i2", 3), ("i2", -1)):
        raises_like(lambda: h.getfield(*args), lambda: d.getfield(*args))
    h2, d2 = h.copy(), cunp.asarray(h.copy())
    assert d2.setfield(7, "i2", 2) is None
    h2.setfield(7, "i2", 2)
    assert_array_equal(d2, h2)
    h2.T.setfield(numpy.arange(6).reshape(3, 2), "u1", offset=0)
    d2.T.setfield(numpy.arange(6).reshape(3, 2), "u1", offset=0)
    assert_array_equal(d2, h2)
    ro = cunp.broadcast_to(d2[0], (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        ro.setfield(1, "i2")
    assert not ro.getfield("i2").flags.writeable


# ---- byteswap -----------------------------------------------------------------

def test_byteswap_every_dtype(device):
    rng = numpy.random.default_rng(5)
    for dt in DTYPES:
        h = random_array((3, 4), dt, rng)
        d = cunp.asarray(h)
        for hv, dv in ((h, d), (h[:, ::-2], d[:, ::-2]), (h.T, d.T), (h[0, 0], d[0, 0]), (h[:0], d[:0])):
            got = dv.byteswap()
            expect = hv.byteswap()
            assert got.dtype == expect.dtype and got.shape == expect.shape
            assert got.get().tobytes() == expect.tobytes()
        # In place, on a non-contiguous view: only the viewed elements swap.
        h2, d2 = h.copy(), d.copy()
        r = d2[:, 1::2].byteswap(inplace=True)
        h2[:, 1::2].byteswap(inplace=True)
        assert d2.get().tobytes() == h2.tobytes()
        assert r.get().tobytes() == h2[:, 1::2].tobytes()
        # Swapping twice is the identity.
        assert_array_equal(d.byteswap().byteswap(), h)
    ro = cunp.broadcast_to(cunp.arange(3), (2, 3))
    with pytest.raises(ValueError):
        ro.byteswap(inplace=True)
    assert_array_equal(ro.byteswap(False), numpy.broadcast_to(numpy.arange(3), (2, 3)).byteswap())


# ---- flat ---------------------------------------------------------------------

def _pair(device, shape=(3, 4), transform=lambda x: x):
    h = numpy.arange(numpy.prod(shape), dtype="i8").reshape(shape)
    return transform(h), transform(cunp.asarray(h))


@pytest.mark.parametrize("transform", [lambda x: x, lambda x: x.T, lambda x: x[:, ::-2], lambda x: x[1:, None]],
                         ids=["c", "t", "step", "newaxis"])
def test_flat_reads(device, transform):
    h, d = _pair(device, transform=transform)
    fh, fd = h.flat, d.flat
    assert len(fd) == len(fh)
    assert fd.base is d
    assert [int(x) for x in d.flat] == [int(x) for x in h.flat]
    it = d.flat
    next(it)
    next(it)
    assert it.index == 2 and it.coords == numpy.unravel_index(2, h.shape)
    for key in (0, 3, -1, numpy.int64(2), cunp.asarray(1)):
        assert d.flat[key].item() == h.flat[int(key)]
    keys = [slice(None), slice(1, 5), slice(None, None, -3), slice(10, 2, -2), [0, 2, -1],
            numpy.array([[1, 0], [3, 2]]),
            numpy.arange(h.size) % 2 == 0, Ellipsis, (), (slice(2, 4),)]
    for key in keys:
        got = d.flat[cunp.asarray(key) if isinstance(key, numpy.ndarray) else key]
        assert_array_equal(got, h.flat[key])
    assert_array_equal(d.flat.copy(), h.flat.copy())
    raises_like(lambda: h.flat[h.size], lambda: d.flat[h.size])
    raises_like(lambda: h.flat[-h.size - 1], lambda: d.flat[-h.size - 1])
    # A slice of flat is a copy, as in NumPy.
    s = d.flat[:]
    s[0] = -5
    assert d.flat[0].item() == h.flat[0]


@pytest.mark.parametrize("transform", [lambda x: x, lambda x: x.T, lambda x: x[:, ::-2]], ids=["c", "t", "step"])
def test_flat_assignment_cycles_values(device, transform):
    cases = [(slice(None), 7), (slice(1, 9), [10, 20, 30]), (slice(None, None, -2), [1, 2]), ([1, 3, 5, 0], [100, 200]),
             ([0, 0, 2], [5, 6, 7]), (numpy.array([[1, 2], [4, 5]]), [[-1, -2], [-3, -4]]), (4, 99), (-1, 42),
             (numpy.int64(3), 2.5),
             (slice(2, 5), [1, 2, 3, 4, 5, 6]), (Ellipsis, [8, 9]), ([0], []), (slice(0, 0), [1])]
    for key, value in cases:
        h, d = _pair(device, transform=transform)
        h.flat[key] = value
        d.flat[cunp.asarray(key) if isinstance(key, numpy.ndarray) else key] = value
        assert_array_equal(d, h)
    h, d = _pair(device, transform=transform)
    mask = (numpy.arange(h.size) % 3) == 0
    h.flat[mask] = [1, 2]
    d.flat[cunp.asarray(mask)] = cunp.asarray([1, 2])
    assert_array_equal(d, h)
    h.flat = [3, 4, 5]
    d.flat = [3, 4, 5]
    assert_array_equal(d, h)
    h.flat[:4] = 2.75  # cast as setitem does
    d.flat[:4] = 2.75
    assert_array_equal(d, h)


def test_flat_read_only(device):
    d = cunp.broadcast_to(cunp.arange(3), (2, 3))
    h = numpy.broadcast_to(numpy.arange(3), (2, 3))
    raises_like(lambda: h.flat.__setitem__(0, 1), lambda: d.flat.__setitem__(0, 1))
    raises_like(lambda: setattr(h, "flat", 1), lambda: setattr(d, "flat", 1))
    assert_array_equal(d.flat[1:3], h.flat[1:3])


@pytest.mark.parametrize("dtype_name,value,key", [("float64", 1j, Ellipsis), ("float32", 2j, 1),
                                                   ("int8", 300, slice(0, 2)), ("uint8", -1, 0)])
def test_flat_scalar_assignment_checks_like_numpy(device, dtype_name, value, key):
    d, h = cunp.zeros(4, dtype=dtype_name), numpy.zeros(4, dtype=dtype_name)
    raises_like(lambda: h.flat.__setitem__(key, value), lambda: d.flat.__setitem__(key, value))
    assert_array_equal(d, h)  # nothing written


# ---- data ---------------------------------------------------------------------

def test_data_memory_pointer(device):
    a = cunp.arange(12, dtype="f8").reshape(3, 4)
    p = a.data
    assert isinstance(p, cunp.cuda.MemoryPointer)
    assert isinstance(p.ptr, int) and p.ptr == a._ptr
    assert a[1, 2:].data.ptr - p.ptr == 6 * 8
    assert a[:, ::-1].data.ptr - p.ptr == 3 * 8
    assert p.size == p.mem.size >= 96 and p.mem.ptr == p.ptr
    assert a[2].data.size == p.mem.size - 64 and a[2].data.mem.ptr == p.ptr
    expect_id = -1 if device == "cpu" else int(device.split(":")[1])
    assert p.device_id == expect_id and p.mem.device_id == expect_id
    assert p.device == a.device
    assert (p + 16).ptr == p.ptr + 16 and (p + 16 - 8).ptr == p.ptr + 8
    assert a.data == a.data and a.data != a[1].data
    if device == "cpu":
        assert p.ptr == numpy.asarray(a).__array_interface__["data"][0]
    # The pointer keeps the allocation alive after the array is gone.
    b = cunp.arange(5, dtype="i4")
    q = b.data
    del b
    again = cunp.ndarray((5,), "i4", memptr=q)
    assert_array_equal(again, numpy.arange(5, dtype="i4"))
    with pytest.raises(ValueError):
        cunp.cuda.MemoryPointer(q.mem, q.mem.size + 1)


# ---- flags --------------------------------------------------------------------

FLAG_ATTRS = ("c_contiguous", "contiguous", "f_contiguous", "fortran", "owndata", "writeable", "aligned",
              "writebackifcopy", "fnc", "forc", "behaved", "carray", "farray", "num")
FLAG_KEYS = ("C", "C_CONTIGUOUS", "CONTIGUOUS", "F", "F_CONTIGUOUS", "FORTRAN", "O", "OWNDATA", "W", "WRITEABLE",
             "A", "ALIGNED", "X", "WRITEBACKIFCOPY", "B", "BEHAVED", "CA", "CARRAY", "FA", "FARRAY", "FNC", "FORC")


def test_flags_every_attribute(device):
    h = numpy.arange(24, dtype="f8").reshape(2, 3, 4).copy()
    d = cunp.asarray(h.copy())
    views = [(h, d), (h.T, d.T), (h[:, 1], d[:, 1]), (h[0, :1, :1], d[0, :1, :1]), (h[:, :0], d[:, :0]),
             (h[..., ::2], d[..., ::2]), (h.reshape(24), d.reshape(24)), (h[1, 1, 1, ...], d[1, 1, 1, ...]),
             (numpy.broadcast_to(h[0], (2, 3, 4)), cunp.broadcast_to(d[0], (2, 3, 4)))]
    for hv, dv in views:
        for attr in FLAG_ATTRS:
            assert getattr(dv.flags, attr) == getattr(hv.flags, attr), (hv.shape, hv.strides, attr)
        for key in FLAG_KEYS:
            assert dv.flags[key] == hv.flags[key], (hv.shape, hv.strides, key)
    own = numpy.zeros((2, 3))
    c_own = cunp.zeros((2, 3))
    assert repr(c_own.flags) == repr(own.flags)
    assert c_own.flags.num == own.flags.num
    assert c_own.flags == cunp.zeros((3, 2)).flags and c_own.flags != c_own.T.flags
    for key in ("c", "U", "UPDATEIFCOPY", 1):
        with pytest.raises(KeyError):
            c_own.flags[key]
    assert c_own.flags[b"C"]
    with pytest.raises(AttributeError):
        c_own.flags.c_contiguous = False
    with pytest.raises(AttributeError):
        c_own.flags.fnc = True
    with pytest.raises(KeyError):
        c_own.flags["C"] = True
    raises_like(lambda: setattr(own.flags, "writebackifcopy", True),
                lambda: setattr(c_own.flags, "writebackifcopy", True))
    c_own.flags.writebackifcopy = False
    c_own.flags["A"] = True


def test_flags_writeable(device):
    a = cunp.arange(6)
    a.flags.writeable = False
    assert not a.flags.writeable and not a.flags["W"] and not a.flags.behaved and not a.flags.carray
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    v = a[1:]
    assert not v.flags.writeable
    h = numpy.arange(6)
    h.flags.writeable = False
    raises_like(lambda: setattr(h[1:].flags, "writeable", True), lambda: setattr(v.flags, "writeable", True))
    a.flags["WRITEABLE"] = True
    a[0] = 5
    assert a[0].item() == 5
    w = a[2:]
    w.flags.writeable = False
    w.flags.writeable = True  # its base is writeable
    w[0] = 8
    assert a[2].item() == 8
    assert a.flags.num == numpy.arange(6).flags.num


# ---- reshape ------------------------------------------------------------------

def test_reshape_copy_and_shape_forms(device):
    h = numpy.arange(24).reshape(4, 6)
    d = cunp.asarray(h)
    for src_h, src_d in ((h, d), (h.T, d.T), (h[:, ::2], d[:, ::2])):
        for shape in ((24,), (2, -1), [3, 2, -1], numpy.int64(src_h.size), (numpy.int32(2), -1)):
            for order in ("C", "F", "A"):
                for copy in (None, True, False):
                    try:
                        expect = src_h.reshape(shape, order=order, copy=copy)
                    except ValueError as e:
                        with pytest.raises(ValueError, match=re.escape(str(e))):
                            src_d.reshape(shape, order=order, copy=copy)
                        continue
                    got = src_d.reshape(shape, order=order, copy=copy)
                    assert_array_equal(got, expect)
                    shares = got.base is not None and cunp.may_share_memory(got, src_d)
                    assert numpy.shares_memory(expect, src_h) == shares, (shape, order, copy)
    assert_array_equal(d.reshape(2, 3, 4), h.reshape(2, 3, 4))
    assert_array_equal(d.reshape(numpy.int64(4), 6), h.reshape(4, 6))
    assert_array_equal(d.reshape(cunp.asarray(24)), h.reshape(24))
    assert_array_equal(d.reshape(numpy.array(24)), h.reshape(numpy.array(24)))
    assert_array_equal(d.reshape(numpy.array([6, 4])), h.reshape(numpy.array([6, 4])))
    assert_array_equal(d.reshape(cunp.asarray([6, 4])), h.reshape(numpy.array([6, 4])))
    assert_array_equal(d.reshape((2, 12), order="F"), h.reshape((2, 12), order="F"))
    raises_like(lambda: h.reshape(), lambda: d.reshape())
    raises_like(lambda: h.reshape((2, 3), (1,)), lambda: d.reshape((2, 3), (1,)))
    raises_like(lambda: h.reshape(5), lambda: d.reshape(5))
    raises_like(lambda: h.reshape(24, order="K"), lambda: d.reshape(24, order="K"))
    raises_like(lambda: h.reshape(shape=(24,)), lambda: d.reshape(shape=(24,)), "shape")
    # cunp.reshape: NumPy 2's keywords (and the older newshape=).
    assert_array_equal(cunp.reshape(d, (6, 4)), numpy.reshape(h, (6, 4)))
    assert_array_equal(cunp.reshape(d, shape=(6, 4), order="F"), numpy.reshape(h, shape=(6, 4), order="F"))
    assert_array_equal(cunp.reshape(d, newshape=24), h.reshape(24))
    assert_array_equal(cunp.reshape(d.T, -1, copy=True), numpy.reshape(h.T, -1, copy=True))
    raises_like(lambda: numpy.reshape(h.T, -1, copy=False), lambda: cunp.reshape(d.T, -1, copy=False))
    c = cunp.reshape(d, (24,), copy=True)
    c[0] = 100
    assert d[0, 0].item() == 0
    with pytest.raises(TypeError):
        cunp.reshape(d, (24,), newshape=(24,))
    with pytest.raises(TypeError):
        cunp.reshape(d)


# ---- item, tolist, itemset ----------------------------------------------------

def test_item_forms_and_errors(device):
    h = numpy.arange(6, dtype="f4").reshape(2, 3)
    d = cunp.asarray(h)
    for args in ((0,), (5,), (-1,), (-6,), ((1, 2),), (1, 2), (numpy.int64(4),), ((-1, -3),), ((4,),)):
        got, expect = d.item(*args), h.item(*args)
        assert got == expect and type(got) is type(expect), args
    for args in ((), (6,), (-7,), (1.5,), ((1, 5),), ((7,),), (1, 2, 3), ((0, 0, 0),), ("a",)):
        raises_like(lambda: h.item(*args), lambda: d.item(*args))
    z, zh = cunp.asarray(numpy.float64(2.5)), numpy.array(2.5)
    for args in ((), (0,), ((),), (-1,)):
        assert z.item(*args) == zh.item(*args)
    raises_like(lambda: zh.item(1), lambda: z.item(1))
    raises_like(lambda: numpy.arange(3).item(5), lambda: cunp.arange(3).item(5))
    assert cunp.asarray([1 + 2j]).item() == 1 + 2j and type(cunp.asarray([True]).item()) is bool
    # NumPy 2 removed itemset, ptp and newbyteorder from ndarray.
    for gone in ("itemset", "ptp", "newbyteorder"):
        assert not hasattr(h, gone) and not hasattr(d, gone), gone
    with pytest.raises(AttributeError):
        d.itemset(0, 1)


def _leaves(x):
    return [y for v in x for y in _leaves(v)] if isinstance(x, list) else [x]


def test_tolist(device, dtype):
    for shape in ((), (0,), (3,), (2, 3), (2, 0, 2)):
        h = random_array(shape, dtype)
        got, expect = cunp.asarray(h).tolist(), h.tolist()
        assert got == expect
        assert [type(x) for x in _leaves(got)] == [type(x) for x in _leaves(expect)]
    h = numpy.arange(12).reshape(3, 4)
    assert cunp.asarray(h).T[::2].tolist() == h.T[::2].tolist()


# ---- every method's keywords --------------------------------------------------

class Out:
    """An `out=` array made for each library (zeros of shape and dtype)."""

    def __init__(self, shape, dtype="f8"):
        self.shape, self.dtype = shape, dtype


class Arr:
    """An array argument: the NumPy array, or its cunp copy."""

    def __init__(self, value):
        self.value = numpy.asarray(value)


MASK = [[True, False, True, True]] * 3
# (method, positional arguments, keyword arguments), the keywords named as NumPy's
# ndarray methods take them (NumPy 2.4: fill's value and choose's choices are
# positional, the methods std/var take no correction=); the array is
# arange(12.).reshape(3, 4) or the one `on` names.
KEYWORD_CALLS = [
    ("all", (), dict(axis=0)), ("all", (), dict(out=Out((4,), "?"), axis=0)), ("all", (), dict(keepdims=True)),
    ("all", (), dict(where=Arr(MASK))),
    ("any", (), dict(axis=1)), ("any", (), dict(out=Out((), "?"))), ("any", (), dict(keepdims=True, axis=0)),
    ("any", (), dict(where=Arr(MASK))),
    ("argmax", (), dict(axis=1)), ("argmax", (), dict(out=Out((4,), "i8"), axis=0)),
    ("argmax", (), dict(keepdims=True)),
    ("argmin", (), dict(axis=0)), ("argmin", (), dict(out=Out((3,), "i8"), axis=1)),
    ("argmin", (), dict(keepdims=True, axis=1)),
    ("argpartition", (1,), dict(axis=0)), ("argpartition", (1,), dict(kind="introselect")),
    ("argpartition", (1,), dict(order=None)),
    ("argsort", (), dict(axis=0)), ("argsort", (), dict(kind="stable")), ("argsort", (), dict(order=None)),
    ("argsort", (), dict(stable=True)),
    ("astype", (), dict(dtype="f4")), ("astype", ("i4",), dict(order="F")),
    ("astype", ("f4",), dict(casting="same_kind")),
    ("astype", ("f8",), dict(subok=True)), ("astype", ("f8",), dict(copy=False)),
    ("byteswap", (), dict(inplace=False)), ("byteswap", (), dict(inplace=True)),
    ("choose", (Arr([[10] * 4, [20] * 4, [30] * 4]),), dict(mode="clip", on="small")),
    ("choose", (Arr([[10] * 4, [20] * 4, [30] * 4]),), dict(out=Out((3, 4), "i8"), on="small")),
    ("clip", (), dict(min=2)), ("clip", (), dict(max=5.5)), ("clip", (1, 4), dict(out=Out((3, 4)))),
    ("compress", (), dict(condition=[True, False, True], axis=0)),
    ("compress", ([False, True],), dict(axis=1, out=Out((3, 1)))),
    ("conj", (), {}), ("conjugate", (), {}),
    ("copy", (), dict(order="F")),
    ("cumprod", (), dict(axis=1)), ("cumprod", (), dict(dtype="f4")), ("cumprod", (), dict(out=Out((12,)))),
    ("cumsum", (), dict(axis=0)), ("cumsum", (), dict(dtype="i8")), ("cumsum", (), dict(out=Out((3, 4)), axis=1)),
    ("diagonal", (), dict(offset=1)), ("diagonal", (), dict(axis1=1, axis2=0)),
    ("dot", (Arr(numpy.ones((4, 2))),), dict(out=Out((3, 2)))),
    ("fill", (3.5,), {}),
    ("flatten", (), dict(order="F")),
    ("getfield", (), dict(dtype="i4", offset=4)), ("setfield", (1.0,), dict(dtype="f4", offset=4)),
    ("max", (), dict(axis=0)), ("max", (), dict(out=Out((3,)), axis=1)), ("max", (), dict(keepdims=True)),
    ("max", (), dict(initial=20.0)), ("max", (), dict(where=Arr(MASK), initial=-1.0)),
    ("mean", (), dict(axis=0)), ("mean", (), dict(dtype="f4")), ("mean", (), dict(out=Out(()))),
    ("mean", (), dict(keepdims=True)), ("mean", (), dict(where=Arr(MASK))),
    ("min", (), dict(axis=1)), ("min", (), dict(out=Out((4,)), axis=0)), ("min", (), dict(keepdims=True, axis=0)),
    ("min", (), dict(initial=-3.0)), ("min", (), dict(where=Arr(MASK), initial=100.0)),
    ("nonzero", (), {}),
    ("partition", (2,), dict(axis=0)), ("partition", (2,), dict(kind="introselect")),
    ("partition", (1,), dict(order=None)),
    ("prod", (), dict(axis=0)), ("prod", (), dict(dtype="f4")), ("prod", (), dict(out=Out((4,)), axis=0)),
    ("prod", (), dict(keepdims=True)), ("prod", (), dict(initial=2.0)), ("prod", (), dict(where=Arr(MASK))),
    ("put", ([0, 5], [-1.0, -2.0]), dict(mode="clip")), ("put", ([0, 50], [7.0]), dict(mode="wrap")),
    ("ravel", (), dict(order="F")),
    ("repeat", (2,), dict(axis=0)),
    ("reshape", (12,), dict(order="F")), ("reshape", (4, 3), dict(copy=True)), ("reshape", ((2, 6),), dict(copy=None)),
    ("round", (), dict(decimals=1, on="frac")), ("round", (), dict(out=Out((3, 4)), on="frac")),
    ("searchsorted", (Arr([2.5, 7.0]),), dict(side="right", on="flat")),
    ("searchsorted", (Arr([2.5, 7.0]),), dict(sorter=Arr(numpy.arange(12)), on="flat")),
    ("setflags", (), dict(write=False)), ("setflags", (), dict(align=True, uic=False)),
    ("sort", (), dict(axis=0)), ("sort", (), dict(kind="stable")), ("sort", (), dict(order=None)),
    ("sort", (), dict(stable=True)),
    ("squeeze", (), dict(axis=0, on="single")),
    ("std", (), dict(axis=0)), ("std", (), dict(dtype="f4")), ("std", (), dict(out=Out(()))), ("std", (), dict(ddof=1)),
    ("std", (), dict(keepdims=True)), ("std", (), dict(where=Arr(MASK))),
    ("sum", (), dict(axis=1)), ("sum", (), dict(dtype="i8")), ("sum", (), dict(out=Out((4,)), axis=0)),
    ("sum", (), dict(keepdims=True)), ("sum", (), dict(initial=5.0)), ("sum", (), dict(where=Arr(MASK))),
    ("swapaxes", (0, 1), {}),
    ("take", ([0, 2],), dict(axis=1)), ("take", ([0, 20],), dict(mode="clip")),
    ("take", ([1, 2],), dict(out=Out((2,)))),
    ("to_device", ("cpu",), dict(stream=None)),
    ("tobytes", (), dict(order="F")), ("tobytes", (), dict(order="A")),
    ("tolist", (), {}),
    ("trace", (), dict(offset=1)), ("trace", (), dict(axis1=1, axis2=0)), ("trace", (), dict(dtype="f4")),
    ("trace", (), dict(out=Out(()))),
    ("transpose", (1, 0), {}), ("transpose", ((1, 0),), {}),
    ("var", (), dict(axis=1)), ("var", (), dict(dtype="f4")), ("var", (), dict(out=Out((4,)), axis=0)),
    ("var", (), dict(ddof=2)), ("var", (), dict(keepdims=True)), ("var", (), dict(where=Arr(MASK))),
    ("view", (), dict(dtype="i8")), ("view", (), dict(type="ndarray")),
    ("item", (5,), {}), ("item", ((1, 2),), {}),
]
# The keywords of NumPy's ndarray methods (NumPy 2.4), all of which the walk must use.
DOCUMENTED_KEYWORDS = {
    "all": "axis out keepdims where", "any": "axis out keepdims where", "argmax": "axis out keepdims",
    "argmin": "axis out keepdims", "argpartition": "axis kind order", "argsort": "axis kind order stable",
    "astype": "dtype order casting subok copy", "byteswap": "inplace", "choose": "out mode", "clip": "min max out",
    "compress": "condition axis out", "copy": "order", "cumprod": "axis dtype out", "cumsum": "axis dtype out",
    "diagonal": "offset axis1 axis2", "dot": "out", "flatten": "order", "getfield": "dtype offset",
    "setfield": "dtype offset", "max": "axis out keepdims initial where",
    "mean": "axis dtype out keepdims where", "min": "axis out keepdims initial where", "partition": "axis kind order",
    "prod": "axis dtype out keepdims initial where", "put": "mode", "ravel": "order", "repeat": "axis",
    "reshape": "order copy", "round": "decimals out", "searchsorted": "side sorter", "setflags": "write align uic",
    "sort": "axis kind order stable", "squeeze": "axis", "std": "axis dtype out ddof keepdims where mean",
    "sum": "axis dtype out keepdims initial where", "take": "axis out mode", "to_device": "stream",
    "tobytes": "order", "trace": "offset axis1 axis2 dtype out", "var": "axis dtype out ddof keepdims where mean",
    "view": "dtype type"}


# Accepted by name, but the reductions do not implement them yet (docs/api.md).
NOT_YET = ("std.mean", "var.mean")


def _make(kind, xp):
    base = numpy.arange(12.0).reshape(3, 4)
    host = {"small": numpy.array([[0, 1, 2, 0], [2, 1, 0, 1], [1, 1, 2, 2]]), "frac": base / 7, "flat": base.ravel(),
            "single": base.reshape(1, 12)}.get(kind, base)
    return host.copy() if xp is numpy else cunp.asarray(host)


def _arg(v, xp):
    if isinstance(v, Out):
        return xp.zeros(v.shape, v.dtype)
    if isinstance(v, Arr):
        return v.value.copy() if xp is numpy else cunp.asarray(v.value)
    if isinstance(v, str) and v == "ndarray":
        return xp.ndarray
    return v


def test_method_keywords_match_numpy(device):
    tried = set()
    for name, args, kwargs in KEYWORD_CALLS:
        kwargs = dict(kwargs)
        on = kwargs.pop("on", None)
        results = []
        for xp in (numpy, cunp):
            a = _make(on, xp)
            call_args = tuple(_arg(v, xp) for v in args)
            call_kwargs = {k: _arg(v, xp) for k, v in kwargs.items()}
            r = getattr(a, name)(*call_args, **call_kwargs)
            results.append((r, a, [v for v in call_kwargs.values() if isinstance(v, xp.ndarray)]))
        (er, ea, eouts), (gr, ga, gouts) = results
        where = "%s(%r, %r)" % (name, args, kwargs)
        if name == "view" and "type" in kwargs:
            assert type(gr) is cunp.ndarray and type(er) is numpy.ndarray, where
        elif er is None:
            assert gr is None, where
        else:
            if isinstance(er, numpy.ndarray):
                assert isinstance(gr, cunp.ndarray), where
            try:
                assert_same(gr, er)
            except AssertionError as e:
                raise AssertionError("%s: %s" % (where, e)) from None
        assert_array_equal(ga, ea)
        for g, e in zip(gouts, eouts):
            assert_array_equal(g, e)
        assert ga.flags.writeable == ea.flags.writeable, where
        tried.update("%s.%s" % (name, k) for k in kwargs)
    documented = {"%s.%s" % (m, k) for m, ks in DOCUMENTED_KEYWORDS.items() for k in ks.split()}
    assert documented - tried == set(NOT_YET), sorted(documented - tried)
    # The keywords cunp accepts but does not implement yet say so.
    a = cunp.arange(12.0).reshape(3, 4)
    for key in NOT_YET:
        name, kw = key.split(".")
        with pytest.raises(NotImplementedError):
            getattr(a, name)(axis=1, keepdims=True, **{kw: cunp.zeros((3, 1))})


def test_method_set_matches_numpy():
    """Every public NumPy ndarray method and attribute exists, except the file/pickle
    family, ctypes and the in-place resize."""
    absent = {"dump", "dumps", "tofile", "ctypes", "resize"}
    missing = [m for m in dir(numpy.ndarray) if not m.startswith("_") and m not in absent
               and not hasattr(cunp.ndarray, m)]
    assert not missing, missing
