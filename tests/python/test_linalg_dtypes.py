"""Result dtypes, out=/dtype=/casting= rules and argument forms of the matrix products
(matmul, dot, vdot, inner, outer, tensordot, einsum) and of cunp.linalg, against NumPy 2:
each table is enumerated inside one test (every dtype pair, 0-d, empty, non-contiguous
and broadcast operands)."""
import numpy
import pytest

import cunp

DTYPES = [numpy.dtype(t) for t in (
    numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32, numpy.int64,
    numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)]
TOL = {"e": 2e-2, "f": 1e-4, "F": 1e-4, "d": 1e-10, "D": 1e-10}


def small(shape, dtype, rng):
    """Integers 0..2 (exact in every dtype: small products neither round nor overflow)."""
    return numpy.asarray(rng.integers(0, 3, size=shape)).astype(dtype)


def up(xp, x):
    """x (host data) as an array of xp (NumPy's own array for NumPy: no copy)."""
    return xp.asarray(x)


def outcome(fn, xp):
    try:
        return True, fn(xp)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return False, e


def assert_like(actual, expected, what, values=True, tol=None):
    """A cunp result against NumPy's: the same type of container (namedtuple fields),
    dtype, shape and (with `values`) values."""
    if isinstance(expected, tuple):
        assert type(actual).__name__ == type(expected).__name__, (what, type(actual), type(expected))
        assert getattr(actual, "_fields", None) == getattr(expected, "_fields", None), what
        assert len(actual) == len(expected), what
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_like(a, e, "%s[%d]" % (what, i), values, tol)
        return
    expected = numpy.asarray(expected)
    assert isinstance(actual, cunp.ndarray), (what, type(actual))
    assert actual.dtype == expected.dtype, (what, actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (what, actual.shape, expected.shape)
    if values and expected.size:
        tol = TOL.get(expected.dtype.char, 0) if tol is None else tol
        numpy.testing.assert_allclose(actual.get(), expected, rtol=tol, atol=tol, equal_nan=True, err_msg=what)


def same(fn, what, values=True, match=None, tol=None):
    """Runs fn(numpy) and fn(cunp): equal results, or exceptions of NumPy's type (cunp
    raises TypeError where NumPy raises its TypeError subclasses); `match`: a fragment of
    NumPy's message that cunp's must contain too."""
    ok_n, rn = outcome(fn, numpy)
    ok_c, rc = outcome(fn, cunp)
    if not ok_n:
        assert not ok_c, "%s: NumPy raised %r, cunp returned" % (what, rn)
        base = TypeError if isinstance(rn, TypeError) else type(rn)
        if isinstance(rn, numpy.linalg.LinAlgError):
            base = numpy.linalg.LinAlgError
        assert isinstance(rc, base), "%s: NumPy %r, cunp %r" % (what, rn, rc)
        if match is not None:
            assert match in str(rn), (what, str(rn))
            assert match in str(rc), (what, str(rc))
        return
    if not ok_c:
        raise AssertionError("%s: NumPy returned, cunp raised %r" % (what, rc))
    if isinstance(rn, (bool, numpy.bool_)):
        assert bool(rc) == bool(rn), what
        return
    assert_like(rc, rn, what, values, tol)


# ---- the products: every dtype pair

def test_product_result_dtypes_every_pair(device, rng):
    for da in DTYPES:
        for db in DTYPES:
            a, b = small((2, 3), da, rng), small((3, 2), db, rng)
            u, v = small((3,), da, rng), small((3,), db, rng)
            t = "%s,%s" % (da, db)
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b)), "matmul " + t)
            same(lambda xp: up(xp, a) @ up(xp, b), "@ " + t)
            same(lambda xp: xp.dot(up(xp, a), up(xp, b)), "dot " + t)
            same(lambda xp: xp.dot(up(xp, u), up(xp, v)), "dot 1-d " + t)
            same(lambda xp: xp.dot(up(xp, u[0]), up(xp, b)), "dot 0-d " + t)
            same(lambda xp: xp.vdot(up(xp, u), up(xp, v)), "vdot " + t)
            same(lambda xp: xp.inner(up(xp, a), up(xp, b.T)), "inner " + t)
            same(lambda xp: xp.outer(up(xp, u), up(xp, v)), "outer " + t)
            same(lambda xp: xp.tensordot(up(xp, a), up(xp, b), 1), "tensordot " + t)
            same(lambda xp: xp.einsum("ij,jk", up(xp, a), up(xp, b)), "einsum " + t)
            same(lambda xp: xp.einsum("ij,kj->ik", up(xp, a), up(xp, b.T)), "einsum explicit " + t)


def test_matmul_dtype_and_casting_every_pair(device, rng):
    """dtype= is the dtype the product computes in (bool inputs with dtype=int8 count,
    they do not or); the inputs and out cast to it under `casting`, NumPy's messages."""
    for din in DTYPES:
        a, b = small((2, 3), din, rng), small((3, 2), din, rng)
        for dt in DTYPES:
            t = "%s->%s" % (din, dt)
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b), dtype=dt), "matmul dtype= " + t,
                 match="Cannot cast ufunc 'matmul' input 0")
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b), dtype=dt, casting="unsafe"), "matmul unsafe dtype= " + t)
            same(lambda xp: xp.einsum("ij,jk", up(xp, a), up(xp, b), dtype=dt), "einsum dtype= " + t)
            same(lambda xp: xp.einsum("ij,jk", up(xp, a), up(xp, b), dtype=dt, casting="unsafe"), "einsum unsafe " + t)
            same(lambda xp: xp.einsum("ij", up(xp, a), dtype=dt, casting="unsafe"), "einsum ij dtype= " + t)
            o = numpy.zeros((2, 2), dt)
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b), out=up(xp, o.copy())), "matmul out= " + t,
                 match="Cannot cast ufunc 'matmul' output")
            same(lambda xp: xp.einsum("ij,jk", up(xp, a), up(xp, b), out=up(xp, o.copy())), "einsum out= " + t)
            same(lambda xp: xp.outer(up(xp, a[0, :2]), up(xp, b[:2, 0]), out=up(xp, o.copy())), "outer out= " + t,
                 match="Cannot cast ufunc 'multiply' output")
            same(lambda xp: xp.dot(up(xp, a), up(xp, b), out=up(xp, o.copy())), "dot out= " + t,
                 match="output array is not acceptable")
    a, b = small((3, 4), numpy.float64, rng), small((4, 5), numpy.float64, rng)
    for casting in ["no", "equiv", "safe", "same_kind", "unsafe"]:
        for dt in [numpy.float32, numpy.float64, numpy.int64, numpy.complex128]:
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b), casting=casting, dtype=dt),
                 "casting %s dtype %s" % (casting, dt),
                 match="with casting rule '%s'" % casting)
            same(lambda xp: xp.matmul(up(xp, a), up(xp, b), casting=casting, out=xp.zeros((3, 5), dt)),
                 "casting %s out %s" % (casting, dt), match="with casting rule '%s'" % casting)
    same(lambda xp: xp.matmul(up(xp, a), up(xp, b.astype(numpy.float32)), casting="no"), "mixed inputs casting='no'",
         match="Cannot cast ufunc 'matmul' input 1 from dtype('float32') to dtype('float64') with casting rule 'no'")
    with pytest.raises(ValueError, match="casting must be one of"):
        cunp.matmul(up(cunp, a), up(cunp, b), casting="bogus")


def test_matmul_out_forms(device, rng):
    a, b = small((2, 3, 4), numpy.float64, rng), small((4, 5), numpy.float64, rng)
    v, w = small((4,), numpy.float64, rng), small((4, 5), numpy.float64, rng)

    def into(xp, x, y, out_shape, view=None, **kw):
        o = xp.zeros(out_shape)
        target = o if view is None else o[view]
        r = xp.matmul(up(xp, x), up(xp, y), out=target, **kw)
        assert r is target
        return o

    for shape in [(2, 3, 5), (4, 2, 3, 5), (1, 2, 3, 5), (3, 3, 5), (3, 5), (2, 3, 6), (2, 5, 3), ()]:
        same(lambda xp: into(xp, a, b, shape), "out %s" % (shape,), match="core dimension" if shape in
             [(2, 3, 6), (2, 5, 3)] else None)
    same(lambda xp: into(xp, a, b, (2, 3, 10), (Ellipsis, slice(None, None, 2))), "out non-contiguous")
    same(lambda xp: into(xp, a, b, (2, 5, 3), (Ellipsis,), ), "out wrong core")
    same(lambda xp: into(xp, v, w, (5,)), "1-d @ 2-d out")
    same(lambda xp: into(xp, v, w, (3, 5)), "1-d @ 2-d broadcast out")
    same(lambda xp: into(xp, v, w, (6,)), "1-d @ 2-d bad out", match="(size 6 is different from 5)")
    same(lambda xp: into(xp, v, v, ()), "1-d @ 1-d out 0-d")
    same(lambda xp: into(xp, w.T, v, (5,)), "2-d @ 1-d out (transposed operand)")
    same(lambda xp: (lambda o: (xp.matmul(up(xp, a), up(xp, b), out=(o,)) is o, o)[1])(xp.zeros((2, 3, 5))),
         "out tuple")
    with pytest.raises(ValueError):
        cunp.matmul(up(cunp, a), up(cunp, b), out=(cunp.zeros((2, 3, 5)), cunp.zeros((2, 3, 5))))
    with pytest.raises(TypeError):
        cunp.matmul(up(cunp, a), up(cunp, b), out=numpy.zeros((2, 3, 5)))
    # out= with dtype=: computed in dtype, cast into out
    same(lambda xp: into(xp, a, b, (2, 3, 5), dtype=numpy.float32), "out and dtype", tol=1e-6)
    # @ and @= follow the same rules
    same(lambda xp: (lambda x: (x.__imatmul__(up(xp, numpy.eye(4))), x)[1])(up(xp, a.copy())), "@=")
    same(lambda xp: (lambda x: (x.__imatmul__(up(xp, w)), x)[1])(up(xp, a.copy())), "@= core mismatch",
         match="Output operand 0 has a mismatch in its core dimension 1")
    same(lambda xp: (lambda x: (x.__imatmul__(up(xp, numpy.eye(4))), x)[1])(up(xp, a.astype(numpy.int64))),
         "int @= float",
         match="Cannot cast ufunc 'matmul' output from dtype('float64') to dtype('int64')")
    same(lambda xp: (lambda x: (x.__imatmul__(up(xp, numpy.eye(4, dtype=numpy.int32))), x)[1])(up(xp, a.copy())),
         "float @= int")


def test_matmul_errors_axes_and_forms(device, rng):
    m, v = small((3, 3), numpy.float64, rng), small((3,), numpy.float64, rng)
    for x, y in [(numpy.float64(2), v), (v, numpy.float64(2)), (numpy.float64(2), numpy.float64(3))]:
        same(lambda xp: xp.matmul(up(xp, numpy.asarray(x)), up(xp, numpy.asarray(y))), "0-d operand",
             match="does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                   "requires 1)")
        same(lambda xp: up(xp, numpy.asarray(x)) @ up(xp, numpy.asarray(y)), "0-d @")
    same(lambda xp: xp.matmul(up(xp, m), up(xp, small((4, 2), numpy.float64, rng))), "core mismatch",
         match="Input operand 1 has a mismatch in its core dimension 0")
    same(lambda xp: xp.matmul(up(xp, small((2, 3, 3), numpy.float64, rng)), up(xp, small((3, 3, 3), numpy.float64,
                                                                                         rng))),
         "batch mismatch")
    for sa, sb in [((0, 3), (3, 2)), ((3, 0), (0, 2)), ((2, 0, 3), (3, 4)), ((0,), (0,)), ((0,), (0, 5))]:
        same(lambda xp: xp.matmul(up(xp, numpy.ones(sa)), up(xp, numpy.ones(sb))), "empty %s %s" % (sa, sb))
        same(lambda xp: xp.dot(up(xp, numpy.ones(sa)), up(xp, numpy.ones(sb))), "dot empty %s %s" % (sa, sb))
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m)[::2].T[::-1]), "strided operands")
    same(lambda xp: xp.matmul([[1, 2], [3, 4]], [5, 6]), "lists")
    same(lambda xp: xp.matmul(up(xp, numpy.eye(2, dtype=bool)), up(xp, numpy.ones((2, 2), bool))),
         "bool matmul is bool")
    a3, b3 = small((3, 4, 2), numpy.float64, rng), small((4, 5, 2), numpy.float64, rng)
    for axes in [[(0, 1), (0, 1), (0, 1)], [(0, 1), (0, 1), (1, 2)], [(0, 1), (0, 1), (-1, 0)],
                 [(-2, -1), (-2, -1), (-2, -1)], [(0, 1), (0, 1)], [(0, 1), (1, 0), (0, 1)]]:
        same(lambda xp: xp.matmul(up(xp, a3), up(xp, b3), axes=axes), "axes=%s" % (axes,))
    same(lambda xp: (lambda o: (xp.matmul(up(xp, a3), up(xp, b3), axes=[(0, 1), (0, 1), (1, 2)], out=o), o)[1])(
        xp.zeros((2, 3, 5))), "axes= with out=")
    vv = small((4, 3), numpy.float64, rng)
    same(lambda xp: xp.matmul(up(xp, vv[:, 0]), up(xp, vv[:, 1]), axes=[0, 0, ()]), "axes 1-d operands")
    same(lambda xp: xp.matmul(up(xp, vv[:, 0]), up(xp, vv[:, 1]), axes=[(0,), (0,)]),
         "axes 1-d operands, no output entry")
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), axis=0), "axis=", match="axis can only be used")
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), order="C"), "order")
    for order in ["C", "F", "A", "K"]:
        same(lambda xp: xp.matmul(up(xp, a3), up(xp, a3.transpose(0, 2, 1)), order=order).flags.f_contiguous,
             "order=%s layout" % order)
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), order="X"), "bad order",
         match="order must be one of 'C', 'F', 'A', or 'K'")
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), subok=True), "subok")
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), signature=None), "signature=None",
         match="the signature object to ufunc must be a string or a tuple.")
    mi = m.astype(numpy.int64)
    for sig in ["dd->d", "ff->f", ("d", "d", "d"), (None, None, "f"), "ll->l"]:
        same(lambda xp: xp.matmul(up(xp, mi), up(xp, mi), signature=sig), "signature=%s" % (sig,))
    same(lambda xp: xp.matmul(up(xp, m), up(xp, m), signature="ll->l"), "signature casting",
         match="Cannot cast ufunc 'matmul' input 0")


def test_dot_out_rules(device, rng):
    """np.dot's out: exactly the result's dtype, number of dimensions and C order, with
    NumPy's two messages; a 0-d operand outside BLAS dtypes is a multiply (ufunc rules)."""
    a, b = small((2, 3, 4), numpy.float64, rng), small((4, 5), numpy.float64, rng)

    def into(xp, x, y, shape, dt=numpy.float64, view=None):
        o = xp.zeros(shape, dt)
        target = o if view is None else o[view]
        r = xp.dot(up(xp, x), up(xp, y), out=target)
        assert r is target or (xp is numpy and target.ndim == 0)  # NumPy returns a scalar then
        return o

    for shape, dt in [((2, 3, 5), numpy.float64), ((2, 3, 5), numpy.float32), ((2, 3, 5), numpy.complex128),
                      ((3, 5), numpy.float64), ((2, 3, 6), numpy.float64), ((2, 5, 3), numpy.float64),
                      ((1, 2, 3, 5), numpy.float64)]:
        msg = "output array has wrong dimensions" if shape in [(2, 3, 6), (2, 5, 3)] else None
        same(lambda xp: into(xp, a, b, shape, dt), "dot out %s %s" % (shape, dt), match=msg)
    same(lambda xp: into(xp, a, b, (2, 3, 10), view=(Ellipsis, slice(None, None, 2))), "dot non-contiguous out",
         match="output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)")
    same(lambda xp: into(xp, a[0], b, (5, 3), view=(Ellipsis,)), "dot transposed out")
    c, d = small((3, 4, 2), numpy.float64, rng), small((2, 2, 5), numpy.float64, rng)
    same(lambda xp: into(xp, c, d, (3, 4, 2, 5)), "dot N-d x M-d out")
    same(lambda xp: into(xp, c, d, (3, 4, 2, 5), numpy.float32), "dot N-d x M-d bad out")
    for dt in [numpy.int64, numpy.int32, numpy.bool_, numpy.float16, numpy.uint8]:
        ia, ib = small((3, 4), dt, rng), small((4, 2), dt, rng)
        for odt in [dt, numpy.float64, numpy.int64]:
            same(lambda xp: into(xp, ia, ib, (3, 2), odt), "dot %s out %s" % (dt, odt))
            same(lambda xp: into(xp, ia[0], ib[:, 0], (), odt), "dot 1-d %s out %s" % (dt, odt))
            same(lambda xp: into(xp, ia[0, 0], ib, (4, 2), odt), "dot 0-d %s out %s" % (dt, odt))
            same(lambda xp: into(xp, ia[0, 0], ib, (3, 4, 2), odt), "dot 0-d %s broadcast out %s" % (dt, odt))
    for x, y in [(2.0, b), (b, 3), (numpy.float64(2.0), 3.0)]:
        same(lambda xp: xp.dot(up(xp, numpy.asarray(x)) if isinstance(x, numpy.ndarray) else x, up(xp, y)),
             "dot scalar")
    h = small((3,), numpy.float16, rng)
    same(lambda xp: xp.dot(2.0, up(xp, h)), "dot Python float with float16")
    same(lambda xp: xp.dot(up(xp, a), up(xp, small((5, 2), numpy.float64, rng))), "dot misaligned", match="not aligned")
    same(lambda xp: up(xp, a).dot(up(xp, b), out=xp.zeros((2, 3, 5))), "ndarray.dot out")


def test_vdot_inner_outer_tensordot_forms(device, rng):
    z = small((2, 3), numpy.complex128, rng) + 1j * small((2, 3), numpy.float64, rng)
    w = small((3, 2), numpy.complex128, rng)
    same(lambda xp: xp.vdot(up(xp, z), up(xp, w)), "vdot conjugates and flattens")
    same(lambda xp: xp.vdot(up(xp, z), up(xp, w.T)), "vdot flattens in C order")
    same(lambda xp: xp.vdot(up(xp, z), up(xp, small((5,), numpy.float64, rng))), "vdot size mismatch")
    same(lambda xp: xp.vdot(up(xp, numpy.zeros(0)), up(xp, numpy.zeros(0))), "vdot empty")
    same(lambda xp: xp.vdot(up(xp, numpy.asarray(2.0)), up(xp, numpy.asarray(3.0))), "vdot 0-d")
    for sa, sb in [((), (3,)), ((3,), ()), ((), ()), ((2, 3), (4, 3)), ((3,), (3,)), ((0,), (0,)), ((2, 0), (3, 0)),
                   ((2, 3), (3,)), ((2, 3), (2,))]:
        x, y = small(sa, numpy.float32, rng), small(sb, numpy.int16, rng)
        same(lambda xp: xp.inner(up(xp, x), up(xp, y)), "inner %s %s" % (sa, sb))
        same(lambda xp: xp.outer(up(xp, x), up(xp, y)), "outer %s %s" % (sa, sb))
        same(lambda xp: xp.dot(up(xp, x), up(xp, y)), "dot %s %s" % (sa, sb))
    u, v = small((4,), numpy.float64, rng), small((4,), numpy.float64, rng)
    for shape, dt in [((4, 4), numpy.float64), ((4, 4), numpy.float32), ((2, 4, 4), numpy.float64),
                      ((4, 4), numpy.int64), ((4, 5), numpy.float64)]:
        same(lambda xp: (lambda o: (xp.outer(up(xp, u), up(xp, v), out=o) is o, o)[1])(xp.zeros(shape, dt)),
             "outer out %s %s" % (shape, dt))
    same(lambda xp: (lambda o: (xp.outer(up(xp, u), up(xp, v), out=o[:, ::2]), o)[1])(xp.zeros((4, 8))),
         "outer strided out")
    a, b = small((2, 3, 4), numpy.float64, rng), small((3, 4, 5), numpy.int32, rng)
    for axes in [0, 1, 2, ([1, 2], [0, 1]), ((2,), (1,)), (2, 1), [[1], [0]], ([], []), 3, -1, ([0, 1], [0])]:
        same(lambda xp: xp.tensordot(up(xp, a), up(xp, b), axes), "tensordot axes=%s" % (axes,))
    same(lambda xp: xp.tensordot(up(xp, numpy.asarray(2.0)), up(xp, b), 0), "tensordot 0-d")
    same(lambda xp: xp.tensordot(up(xp, numpy.zeros((2, 0))), up(xp, numpy.zeros((0, 3))), 1), "tensordot empty")


def test_einsum_computes_in_a_wider_out_dtype(device):
    """With out= wider than the operands, NumPy computes in out's dtype: bool operands
    count, int8 products and sums do not wrap in int64, float32 in float64; dtype= still
    decides, and a narrower out (casting='unsafe') takes the operands' computation."""
    a = numpy.array([[1, 0, 1], [1, 1, 1]], bool)
    b = numpy.array([[1, 1], [1, 0], [1, 1]], bool)
    i = numpy.array([[100, 100, 100]], numpy.int8)
    j = numpy.full((3, 1), 2, numpy.int8)
    f = numpy.full((1, 3), 1 + 2.0 ** -20, numpy.float32)
    cases = [("ij,jk", (a, b), numpy.int8, {}), ("ij,jk", (a, b), numpy.float32, {}),
             ("ij,jk", (i, j), numpy.int64, {}), ("ij,jk", (i, j), numpy.int64, {"dtype": numpy.int8, "casting": "unsafe"}),
             ("ij,jk", (i.astype(numpy.float64) + 0.6, j), numpy.int16, {"casting": "unsafe"}),
             ("ij,kj", (f, f), numpy.float64, {}), ("i,i", (a[1], a[1]), numpy.int64, {}),
             ("ij->i", (a,), numpy.int64, {}), ("ij->i", (i,), numpy.int64, {}), ("ij->", (i,), numpy.int16, {})]
    for sub, ops, odt, kw in cases:
        shape = numpy.einsum(sub, *ops).shape
        want = numpy.einsum(sub, *ops, out=numpy.zeros(shape, odt), **kw)
        out = cunp.zeros(shape, odt)
        got = cunp.einsum(sub, *[cunp.asarray(o) for o in ops], out=out, **kw)
        assert got is out, sub
        numpy.testing.assert_array_equal(got.get(), want, err_msg="%s %s %s" % (sub, odt, kw))


def test_einsum_forms(device, rng):
    a, b = small((2, 3), numpy.float32, rng), small((3, 4), numpy.int8, rng)
    # One operand, nothing summed, no out=: a view of the operand, dtype= unused (NumPy).
    for sub in ["ij", "ij->ji", "...j->j...", "ij->ij"]:
        for dt in ["float64", numpy.int8, numpy.complex64]:
            same(lambda xp: xp.einsum(sub, up(xp, a), dtype=dt), "einsum(%r, dtype=%s)" % (sub, dt))
    sq = small((3, 3), numpy.float32, rng)
    same(lambda xp: xp.einsum("ii->i", up(xp, sq), dtype="float64"), "diagonal view")
    same(lambda xp: xp.einsum("ij->i", up(xp, a), dtype="float64"), "one operand summed: dtype= applies")
    same(lambda xp: xp.einsum("ij", up(xp, a), out=xp.zeros((2, 3))), "one operand with out=")
    x = cunp.asarray(a)
    v = cunp.einsum("ij->ji", x, dtype="float64")
    v[0, 0] = 42
    assert float(x[0, 0]) == 42  # a view
    same(lambda xp: xp.einsum("ij,jk->ik", up(xp, a), up(xp, b), dtype=numpy.float16), "einsum dtype= safe",
         match="according to the rule 'safe'")
    same(lambda xp: xp.einsum("ij,jk->ik", up(xp, a), up(xp, b), dtype=numpy.float16, casting="same_kind"),
         "einsum dtype= same_kind")
    for out_dt in [numpy.float32, numpy.float64, numpy.int32, numpy.float16]:
        same(lambda xp: (lambda o: (xp.einsum("ij,jk->ik", up(xp, a), up(xp, b), out=o) is o, o)[1])(xp.zeros((2, 4),
                                                                                                              out_dt)),
             "einsum out %s" % out_dt)
    same(lambda xp: xp.einsum("ij->i", up(xp, a), out=xp.zeros(3, numpy.float32)), "einsum out bad shape")
    same(lambda xp: xp.einsum("ij,jk", up(xp, numpy.zeros((2, 0))), up(xp, numpy.zeros((0, 3)))),
         "einsum empty contraction")
    same(lambda xp: xp.einsum("ij->", up(xp, numpy.zeros((2, 0), numpy.int32))), "einsum empty sum")
    same(lambda xp: xp.einsum("", up(xp, numpy.asarray(3.0))), "einsum 0-d")
    same(lambda xp: xp.einsum(",i", up(xp, numpy.asarray(3)), up(xp, a[0])), "einsum 0-d times vector")
    bsq, b1, b2, w2 = (small((3, 3), numpy.bool_, rng), small((2, 3), numpy.bool_, rng), small((2, 3), numpy.bool_,
                                                                                               rng),
                       small((2,), numpy.float64, rng))
    same(lambda xp: xp.einsum("ii->i", up(xp, bsq)), "einsum bool diagonal")
    same(lambda xp: xp.einsum("ij,ij->", up(xp, b1), up(xp, b2)), "einsum bool sum")
    same(lambda xp: xp.einsum("...j,j", up(xp, a[:, ::2]), up(xp, w2)), "einsum strided")
    path = lambda xp: xp.einsum_path("ij,jk,kl", xp.ones((2, 3)), xp.ones((3, 4)), xp.ones((4, 5)))
    assert cunp.einsum_path("ij,jk,kl", cunp.ones((2, 3)), cunp.ones((3, 4)), cunp.ones((4, 5))) == path(numpy)


# ---- cunp.linalg

LINALG_DTYPES = [numpy.dtype(t) for t in (numpy.bool_, numpy.int8, numpy.uint8, numpy.int32, numpy.int64,
                                          numpy.uint64, numpy.float16, numpy.float32, numpy.float64,
                                          numpy.complex64, numpy.complex128)]


def test_linalg_result_dtypes(device, rng):
    """Every function's result dtype, result type (namedtuple and its fields) and values
    for each input dtype: integers and bool compute in float64, float16 raises TypeError
    where NumPy does."""
    sym = numpy.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]])
    rot = numpy.array([[0, -1], [1, 0]])
    L = lambda xp: xp.linalg  # noqa: E731
    for dt in LINALG_DTYPES:
        m = sym.astype(dt) if dt != numpy.bool_ else numpy.eye(3, dtype=bool)
        tall = (numpy.array([[3, 1, 0], [1, 2, 1], [0, 1, 2], [1, 1, 1]])).astype(dt)
        b, b4 = numpy.ones(3, dt), numpy.ones(4, dt)
        t = str(dt)
        same(lambda xp: L(xp).solve(up(xp, m), up(xp, b)), "solve " + t)
        same(lambda xp: L(xp).inv(up(xp, m)), "inv " + t)
        same(lambda xp: L(xp).det(up(xp, m)), "det " + t)
        same(lambda xp: L(xp).slogdet(up(xp, m)), "slogdet " + t)
        same(lambda xp: L(xp).cholesky(up(xp, m)), "cholesky " + t)
        for mode in ["reduced", "complete", "r", "raw"]:
            same(lambda xp: L(xp).qr(up(xp, tall), mode=mode), "qr %s %s" % (mode, t), values=False)
        same(lambda xp: L(xp).svd(up(xp, tall)), "svd " + t, values=False)
        same(lambda xp: L(xp).svd(up(xp, tall), compute_uv=False), "svd values " + t)
        same(lambda xp: L(xp).svdvals(up(xp, tall)), "svdvals " + t)
        same(lambda xp: L(xp).svd(up(xp, m), hermitian=True), "svd hermitian " + t, values=False)
        same(lambda xp: L(xp).eigh(up(xp, m)), "eigh " + t, values=False)
        same(lambda xp: L(xp).eigvalsh(up(xp, m)), "eigvalsh " + t)
        same(lambda xp: L(xp).eig(up(xp, m)), "eig " + t, values=False)
        same(lambda xp: L(xp).eigvals(up(xp, m)), "eigvals " + t, values=False)
        if dt.kind in "ifc":  # a rotation: complex eigenvalues of a real input make eig complex
            r = rot.astype(dt)
            same(lambda xp: L(xp).eig(up(xp, r)), "eig rotation " + t, values=False)
            same(lambda xp: L(xp).eigvals(up(xp, r)), "eigvals rotation " + t, values=False)
        for k in [-2, -1, 0, 1, 2, 3]:
            same(lambda xp: L(xp).matrix_power(up(xp, m), k), "matrix_power %d %s" % (k, t))
        same(lambda xp: L(xp).matrix_rank(up(xp, m)), "matrix_rank " + t)
        same(lambda xp: L(xp).pinv(up(xp, tall)), "pinv " + t)
        same(lambda xp: L(xp).lstsq(up(xp, tall), up(xp, b4)), "lstsq " + t)
        same(lambda xp: L(xp).lstsq(up(xp, tall), up(xp, numpy.ones((4, 2), dt))), "lstsq 2-d b " + t)
        same(lambda xp: L(xp).multi_dot([up(xp, tall), up(xp, m), up(xp, b)]), "multi_dot " + t)
        same(lambda xp: L(xp).tensorinv(up(xp, m), ind=1), "tensorinv " + t)
        same(lambda xp: L(xp).tensorsolve(up(xp, m), up(xp, b)), "tensorsolve " + t)
        same(lambda xp: L(xp).vector_norm(up(xp, m)), "vector_norm " + t)
        same(lambda xp: L(xp).matrix_norm(up(xp, m)), "matrix_norm " + t)
        same(lambda xp: L(xp).vecdot(up(xp, m), up(xp, b)), "vecdot " + t)
        same(lambda xp: L(xp).trace(up(xp, m)), "trace " + t)
        for p in [None, 1, -1, 2, -2, "fro", "nuc", numpy.inf, -numpy.inf]:
            same(lambda xp: L(xp).norm(up(xp, m), ord=p), "matrix norm %s %s" % (p, t))
            same(lambda xp: L(xp).cond(up(xp, m), p), "cond %s %s" % (p, t))
        for p in [None, 0, 1, -1, 2, 3, 0.5, numpy.inf, -numpy.inf]:
            same(lambda xp: L(xp).norm(up(xp, b), ord=p), "vector norm %s %s" % (p, t))
            same(lambda xp: L(xp).norm(up(xp, m), ord=p, axis=1, keepdims=True), "norm axis=1 %s %s" % (p, t))
        same(lambda xp: L(xp).norm(up(xp, numpy.ones((2, 2, 2), dt))), "norm of 3-d " + t)


def test_linalg_eig_real_or_complex(device):
    """NumPy 2.0-2.4: eig/eigvals of a real input are real when every eigenvalue is
    real, complex otherwise (per call, for the whole batch); NumPy 2.5: always complex.
    The installed NumPy is the oracle either way."""
    real = numpy.array([[2.0, 1.0], [1.0, 3.0]])
    rot = numpy.array([[0.0, -1.0], [1.0, 0.0]])
    for x in [real, rot, numpy.stack([real, rot]), numpy.stack([real, real]), real.astype(numpy.float32),
              rot.astype(numpy.float32), rot.astype(numpy.int64)]:
        same(lambda xp: xp.linalg.eigvals(up(xp, x)), "eigvals %s %s" % (x.dtype, x.shape))
        same(lambda xp: xp.linalg.eig(up(xp, x)).eigenvalues, "eig %s %s" % (x.dtype, x.shape))


def test_linalg_lstsq_results(device, rng):
    """lstsq: (x, residuals, rank, s) as NumPy, rank a 0-d int32 array (NumPy's int32
    scalar); residuals empty when the rank is below n or m <= n."""
    r = cunp.linalg.lstsq(cunp.ones((3, 2)), cunp.ones(3))
    assert isinstance(r, tuple) and len(r) == 4
    assert isinstance(r[2], cunp.ndarray) and r[2].shape == () and r[2].dtype == numpy.int32
    assert int(r[2]) == numpy.linalg.lstsq(numpy.ones((3, 2)), numpy.ones(3))[2]
    for sa, sb in [((4, 3), (4,)), ((3, 3), (3,)), ((2, 3), (2,)), ((4, 3), (4, 2)), ((0, 3), (0,)), ((3, 0), (3,)),
                   ((0, 0), (0,)), ((4, 3), (4, 0)), ((4, 3), (3,))]:
        a, b = rng.standard_normal(sa), rng.standard_normal(sb)
        same(lambda xp: xp.linalg.lstsq(up(xp, a), up(xp, b)), "lstsq %s %s" % (sa, sb))
    low = numpy.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    same(lambda xp: xp.linalg.lstsq(up(xp, low), up(xp, numpy.ones(3))), "lstsq rank-deficient: no residuals")
    same(lambda xp: xp.linalg.lstsq(up(xp, low.astype(numpy.float32)), up(xp, numpy.ones(3, numpy.complex64))),
         "lstsq mixed")
    same(lambda xp: xp.linalg.lstsq(up(xp, low), up(xp, numpy.ones(3)), rcond=0.5), "lstsq rcond")
    same(lambda xp: xp.linalg.lstsq(up(xp, low.astype(numpy.float16)), up(xp, numpy.ones(3))), "lstsq float16")
    same(lambda xp: xp.linalg.lstsq(up(xp, numpy.ones((2, 3, 2))), up(xp, numpy.ones(3))), "lstsq 3-d")


def test_linalg_empty_matrices(device):
    fns = ["inv", "det", "slogdet", "matrix_rank", "pinv", "svd", "svdvals", "qr", "eigvals", "eig", "eigh",
           "eigvalsh", "cholesky", "norm", "cond"]
    for shape in [(0, 0), (2, 0, 0), (0, 3), (3, 0), (2, 0, 3), (0, 2, 2)]:
        for dt in [numpy.float64, numpy.float32, numpy.int64, numpy.complex64]:
            e = numpy.zeros(shape, dt)
            t = "%s %s" % (shape, dt)
            for fn in fns:
                same(lambda xp: getattr(xp.linalg, fn)(up(xp, e)), "%s %s" % (fn, t))
            same(lambda xp: xp.linalg.qr(up(xp, e), mode="complete"), "qr complete " + t)
            same(lambda xp: xp.linalg.svd(up(xp, e), full_matrices=False), "svd reduced " + t)
            same(lambda xp: xp.linalg.solve(up(xp, e), up(xp, numpy.zeros(shape[:-1] + (2,), dt))), "solve " + t)
            same(lambda xp: xp.linalg.matrix_power(up(xp, e), 2), "matrix_power " + t)
            same(lambda xp: xp.linalg.matrix_power(up(xp, e), 0), "matrix_power 0 " + t)


def test_linalg_matrix_power_and_det_forms(device):
    m = numpy.array([[2, 1], [1, 1]])
    same(lambda xp: xp.linalg.matrix_power(up(xp, m), 2.0), "float exponent")
    same(lambda xp: xp.linalg.matrix_power(up(xp, m), numpy.int64(3)), "NumPy int exponent")
    same(lambda xp: xp.linalg.matrix_power(up(xp, numpy.ones((2, 3))), 2), "non-square")
    same(lambda xp: xp.linalg.matrix_power(up(xp, numpy.ones(3)), 2), "1-d")
    same(lambda xp: xp.linalg.matrix_power(up(xp, numpy.ones((2, 2), int)), -1), "singular, negative exponent")
    same(lambda xp: xp.linalg.matrix_power(up(xp, numpy.stack([m, 2 * m])), -2), "batch, negative exponent")
    same(lambda xp: xp.linalg.matrix_power(up(xp, numpy.eye(2, dtype=bool)), 3), "bool")
    same(lambda xp: xp.linalg.matrix_power(up(xp, m.astype(numpy.uint8)), 0), "uint8, exponent 0")
    same(lambda xp: xp.linalg.det(up(xp, numpy.stack([m, 2 * m]))), "det of ints, batch")
    same(lambda xp: xp.linalg.det(up(xp, m.astype(numpy.float16))), "det of float16")
    same(lambda xp: xp.linalg.det(up(xp, m)[:, ::-1]), "det of a strided view")
    same(lambda xp: xp.linalg.det(up(xp, numpy.broadcast_to(m, (3, 2, 2)))), "det of a broadcast batch")
