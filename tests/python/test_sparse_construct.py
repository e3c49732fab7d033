"""Building cunpx.scipy.sparse matrices against scipy.sparse: the constructors (dense,
triplets, compressed arrays, shapes, dtypes, copies, SciPy objects), their errors,
and the construction functions (eye, diags, random, kron, stacks, tril/triu, find,
save_npz/load_npz, the type predicates), on every device."""
import io
import warnings

import numpy
import pytest
import scipy.sparse as ss

import cunp
import cunpx.scipy.sparse as cs
from sparse_cases import FORMATS, KINDS, check, classes, pair, raises_like, triplets, values


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ss.SparseEfficiencyWarning)
        warnings.simplefilter("ignore", cs.SparseEfficiencyWarning)
        yield


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_from_dense(device, fmt, kind):
    host_cls, cls = classes(fmt, kind)
    rng = numpy.random.default_rng(0)
    for dtype in (numpy.bool_, numpy.int16, numpy.uint64, numpy.float32, numpy.complex64):
        for shape in ((0, 0), (1, 4), (4, 1), (3, 5)):
            a = values(shape[0] * shape[1], dtype, rng).reshape(shape)
            check(cls(cunp.asarray(a)), host_cls(a))
            check(cls(a), host_cls(a))  # NumPy input lands on the current device
            check(cls(a.tolist(), dtype=dtype) if a.size else cls(a), host_cls(a.tolist(), dtype=dtype)
                  if a.size else host_cls(a))
            check(cls(cunp.asarray(a), dtype=numpy.complex128), host_cls(a, dtype=numpy.complex128))
    check(cls(numpy.arange(3.0)), ss.csr_matrix(numpy.arange(3.0)).asformat(fmt) if kind == "matrix"
          else getattr(ss, fmt + "_array")(numpy.arange(3.0)[None]))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_from_arrays(device, fmt, kind):
    host_cls, cls = classes(fmt, kind)
    for dtype in (numpy.int8, numpy.float64, numpy.complex128):
        for shape in ((0, 3), (1, 5), (5, 1), (4, 6)):
            data, row, col = triplets(shape, dtype)
            if fmt == "coo":
                args_t = (data, (row, col))
                args_o = (cunp.asarray(data), (cunp.asarray(row), cunp.asarray(col)))
            else:
                t = ss.coo_matrix((data, (row, col)), shape=shape).asformat(fmt)
                args_t = (t.data, t.indices, t.indptr)
                args_o = tuple(cunp.asarray(x) for x in args_t)
            check(cls(args_o, shape=shape), host_cls(args_t, shape=shape))
            check(cls(args_o, shape=shape, dtype=numpy.complex64), host_cls(args_t, shape=shape,
                                                                           dtype=numpy.complex64))
            if data.shape[0]:
                check(cls(args_o), host_cls(args_t))  # the shape inferred from the indices
    check(cls((3, 4)), host_cls((3, 4)))
    check(cls((3, 4), dtype=numpy.int8), host_cls((3, 4), dtype=numpy.int8))
    assert cls((3, 4)).nnz == 0


def test_copy_semantics(device):
    a = cunp.asarray(numpy.array([[1.0, 0, 2], [0, 3, 0]]))
    A = cs.csr_array(a)
    B = cs.csr_array(A)
    C = cs.csr_array(A, copy=True)
    A.data[0] = 10
    assert float(B.data[0]) == 10  # shares arrays, as SciPy
    assert float(C.data[0]) == 1
    D = cs.csr_array((A.data, A.indices, A.indptr), shape=A.shape, copy=True)
    A.data[0] = 20
    assert float(D.data[0]) == 10
    E = A.copy()
    A.data[0] = 30
    assert float(E.data[0]) == 20
    M = cs.csr_matrix(A)
    assert isinstance(M, cs.spmatrix) and not isinstance(M, cs.sparray)
    assert M.get().format == "csr" and isinstance(M.get(), ss.spmatrix)


def test_constructor_errors(device):
    d = numpy.array([1.0, 2, 3])
    cases = [
        lambda m: m.csr_matrix((d, numpy.array([[0, 1, 2]]), numpy.array([0, 1, 3])), shape=(2, 3)),
        lambda m: m.csr_matrix((d, numpy.array([0, 1, 2]), numpy.array([0, 1, 2, 3])), shape=(2, 3)),
        lambda m: m.csr_matrix((d, numpy.array([0, 1, 2]), numpy.array([1, 1, 3])), shape=(2, 3)),
        lambda m: m.csr_matrix((d[:2], numpy.array([0, 1, 2]), numpy.array([0, 1, 3])), shape=(2, 3)),
        lambda m: m.csr_matrix((d, numpy.array([0, 1, 2]), numpy.array([0, 1, 4])), shape=(2, 3)),
        lambda m: m.csc_matrix((d, numpy.array([0, 1, 2]), numpy.array([0, 1, 3])), shape=(2, 3)),
        lambda m: m.coo_matrix((d, (numpy.array([0, 1, 5]), numpy.array([0, 1, 2]))), shape=(2, 3)),
        lambda m: m.coo_matrix((d, (numpy.array([0, -1, 1]), numpy.array([0, 1, 2]))), shape=(2, 3)),
        lambda m: m.coo_matrix((d, (numpy.array([0, 1, 1]), numpy.array([0, 1, 3]))), shape=(2, 3)),
        lambda m: m.coo_matrix((d, (numpy.array([0, 1]), numpy.array([0, 1, 2]))), shape=(2, 3)),
        lambda m: m.coo_matrix((numpy.array([]), (numpy.array([], int), numpy.array([], int)))),
        lambda m: m.csr_matrix((-1, 3)),
        lambda m: m.csr_matrix(numpy.ones((2, 2), numpy.float16)),
        lambda m: m.csr_matrix(numpy.ones((2, 2)), dtype=numpy.float16),
        lambda m: m.coo_array(numpy.ones((2, 2)), dtype=numpy.float16),
        lambda m: m.csr_matrix(numpy.array(["a", "b"])),
        lambda m: m.dia_matrix((numpy.ones((2, 3)), [0, 1, 2]), shape=(3, 3)),
        lambda m: m.dia_matrix((numpy.ones((2, 3)), [0, 0]), shape=(3, 3)),
        lambda m: m.dia_matrix((numpy.ones((2, 3)), [0, 1])),
        lambda m: m.dia_matrix((numpy.ones((1, 1, 3)), 0), shape=(3, 3)),
        lambda m: m.dia_matrix((numpy.ones((2, 3)), [[0, 1]]), shape=(3, 3)),
        lambda m: m.csr_array(3.0),
    ]
    for case in cases:
        e, expected = raises_like(lambda: case(cs), lambda: case(ss))
        assert str(e) == str(expected), (str(e), str(expected))
    raises_like(lambda: cs.csr_matrix(numpy.ones((2, 2, 2))), lambda: ss.csr_matrix(numpy.ones((2, 2, 2))))
    # Nothing half-built: a failed construction leaves no object, the sources untouched.
    indptr = cunp.asarray(numpy.array([0, 1, 4]))
    with pytest.raises(ValueError):
        cs.csr_matrix((cunp.asarray(d), cunp.asarray(numpy.array([0, 1, 2])), indptr), shape=(2, 3))
    numpy.testing.assert_array_equal(indptr.get(), [0, 1, 4])
    # Full format check (SciPy's check_format) catches indices past the shape.
    A = cs.csr_matrix((cunp.asarray(d), cunp.asarray(numpy.array([0, 1, 5])), cunp.asarray(numpy.array([0, 1, 3]))),
                      shape=(2, 3))
    e, expected = raises_like(A.check_format, ss.csr_matrix((d, numpy.array([0, 1, 5]), numpy.array([0, 1, 3])),
                                                            shape=(2, 3)).check_format)
    assert str(e) == str(expected)


def test_from_and_to_scipy(device):
    for fmt in FORMATS:
        for kind in KINDS:
            host_cls, cls = classes(fmt, kind)
            theirs, _ = pair(fmt, kind, (5, 4), numpy.complex64)
            ours = cls(theirs)
            check(ours, theirs)
            assert str(ours.device) == device
            back = ours.get()
            assert type(back) is host_cls
            numpy.testing.assert_array_equal(back.toarray(), theirs.toarray())
            for other in FORMATS:
                check(cls(theirs.asformat(other)), host_cls(theirs.asformat(other)))
    with pytest.raises(TypeError, match="scipy.sparse"):
        cs.csr_array(numpy.eye(2)) @ ss.csr_array(numpy.eye(2))
    with pytest.raises(TypeError, match="get"):
        numpy.asarray(cs.csr_array(numpy.eye(2)))


def test_predicates(device):
    A = cs.csr_array(numpy.eye(2))
    M = cs.csr_matrix(numpy.eye(2))
    assert cs.issparse(A) and cs.issparse(M) and not cs.issparse(numpy.eye(2))
    assert not cs.issparse(ss.csr_array(numpy.eye(2)))
    assert cs.isspmatrix(M) and not cs.isspmatrix(A)
    for fmt in FORMATS:
        pred = getattr(cs, "isspmatrix_" + fmt)
        assert pred(M.asformat(fmt)) and not pred(A.asformat(fmt))
        assert not pred(M.asformat("csr" if fmt != "csr" else "csc"))
    assert isinstance(A, cs.sparray) and isinstance(M, cs.spmatrix)


@pytest.mark.parametrize("kind", KINDS)
def test_eye_identity_diags(device, kind):
    mod_t, mod_o = (ss, cs)
    for fmt in (None, "csr", "csc", "coo", "dia"):
        for (m, n, k) in ((4, 4, 0), (3, 5, 1), (5, 3, -2), (4, 4, 3), (0, 0, 0)):
            if kind == "array":
                check(mod_o.eye_array(m, n, k=k, dtype=numpy.int8, format=fmt),
                      mod_t.eye_array(m, n, k=k, dtype=numpy.int8, format=fmt))
            else:
                check(mod_o.eye(m, n, k, dtype=numpy.float32, format=fmt),
                      mod_t.eye(m, n, k, dtype=numpy.float32, format=fmt))
        if kind == "matrix":
            check(mod_o.identity(3, format=fmt), mod_t.identity(3, format=fmt))
    e, expected = raises_like(lambda: cs.eye(4, 4, 7), lambda: ss.eye(4, 4, 7))
    assert str(e) == str(expected)
    diag_cases = [
        (([1.0, 2.0, 3.0],), dict()),
        (([[1, 2, 3], [4, 5]],), dict(offsets=[0, 1])),
        (([[1, 2, 3], [4, 5], [7]],), dict(offsets=[0, -1, 2], shape=(3, 5))),
        (([[2.0], [1.0 + 1j]],), dict(offsets=[0, 1], shape=(4, 4))),
        (([[1, 2], [3, 4]],), dict(offsets=[-1, 1], shape=(3, 3), dtype=numpy.int16)),
    ]
    for args, kwargs in diag_cases:
        if kind == "array":
            kw = dict(kwargs)
            kw.setdefault("dtype", None)
            check(cs.diags_array(*args, **kw), ss.diags_array(*args, **kw))
            check(cs.diags_array(*args, **kw, format="csr"), ss.diags_array(*args, **kw, format="csr"))
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                check(cs.diags(*args, **kwargs), ss.diags(*args, **kwargs))
    for diagonals, kw in ((([1, 2], [3]), dict(offsets=[0])), ([[1, 2, 3, 4]], dict(offsets=0, shape=(2, 2))),
                          ([1, 2], dict(offsets=5, shape=(2, 2))), ([[1, 2, 3]], dict(offsets=[0], shape=(5, 5)))):
        kw["dtype"] = None
        e, expected = raises_like(lambda: cs.diags_array(diagonals, **kw), lambda: ss.diags_array(diagonals, **kw))
        assert str(e) == str(expected)
    data = numpy.array([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]])
    check(cs.spdiags(data, numpy.array([0, -1, 2]), 4, 4), ss.spdiags(data, numpy.array([0, -1, 2]), 4, 4))
    check(cs.spdiags(data, [0, -1, 2], (3, 5), format="csr"), ss.spdiags(data, [0, -1, 2], (3, 5), format="csr"))


def test_random(device):
    for fmt in ("coo", "csr", "csc"):
        for dtype in (numpy.float64, numpy.float32, numpy.int16, numpy.complex128):
            check(cs.random(6, 5, density=0.3, format=fmt, dtype=dtype, rng=7),
                  ss.random(6, 5, density=0.3, format=fmt, dtype=dtype, rng=7))
            check(cs.random_array((6, 5), density=0.3, format=fmt, dtype=dtype, rng=7),
                  ss.random_array((6, 5), density=0.3, format=fmt, dtype=dtype, rng=7))
    check(cs.rand(7, 3, density=0.5, rng=1), ss.rand(7, 3, density=0.5, rng=1))
    A = cs.random(200, 100, density=0.05, rng=3)
    assert A.nnz == 1000 and A.tocsr().has_canonical_format
    assert str(A.device) == device
    raises_like(lambda: cs.random(3, 3, density=2), lambda: ss.random(3, 3, density=2))


@pytest.mark.parametrize("kind", KINDS)
def test_kron_stack_block(device, kind):
    A_t, A_o = pair("csr", kind, (3, 2), numpy.float64)
    B_t, B_o = pair("csc", kind, (2, 4), numpy.int8)
    C_t, C_o = pair("coo", kind, (3, 4), numpy.complex64)
    check(cs.kron(A_o, B_o), ss.kron(A_t, B_t, format="coo"))
    check(cs.kron(A_o, B_o, format="csr"), ss.kron(A_t, B_t, format="csr"))
    check(cs.kron(A_o, numpy.eye(2)), ss.kron(A_t, numpy.eye(2), format="coo"))
    S_t, S_o = pair("csr", kind, (3, 3), numpy.float64)
    T_t, T_o = pair("dia", kind, (2, 2), numpy.float64)
    check(cs.kronsum(S_o, T_o), ss.kronsum(S_t, T_t))
    check(cs.kronsum(S_o, T_o, format="csc"), ss.kronsum(S_t, T_t, format="csc"))
    raises_like(lambda: cs.kronsum(A_o, S_o), lambda: ss.kronsum(A_t, S_t))
    check(cs.vstack([A_o, A_o]), ss.vstack([A_t, A_t]))
    check(cs.hstack([A_o, A_o]), ss.hstack([A_t, A_t]))
    check(cs.hstack([C_o, C_o.tocsc()]), ss.hstack([C_t, C_t.tocsc()]))
    check(cs.vstack([C_o.tocsc(), C_o.tocsc()]), ss.vstack([C_t.tocsc(), C_t.tocsc()]))
    check(cs.vstack([B_o, C_o], format="csr"), ss.vstack([B_t, C_t], format="csr"))
    check(cs.hstack([A_o, C_o], dtype=numpy.complex128), ss.hstack([A_t, C_t], dtype=numpy.complex128))
    grid_o = [[A_o, None], [None, B_o]]
    grid_t = [[A_t, None], [None, B_t]]
    check(cs.bmat(grid_o), ss.bmat(grid_t))
    check(cs.bmat(grid_o, format="csc"), ss.bmat(grid_t, format="csc"))
    check(cs.block_array([[A_o, A_o]]), ss.block_array([[A_t, A_t]]))
    raises_like(lambda: cs.bmat([[A_o, B_o]]), lambda: ss.bmat([[A_t, B_t]]))
    raises_like(lambda: cs.vstack([A_o, B_o]), lambda: ss.vstack([A_t, B_t]))
    dense = numpy.arange(4.0).reshape(2, 2)
    check(cs.block_diag([A_o, B_o, dense]), ss.block_diag([A_t, B_t, dense]))
    check(cs.block_diag([A_o, B_o], format="csr"), ss.block_diag([A_t, B_t], format="csr"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_tril_triu_find(device, fmt):
    for kind in KINDS:
        A_t, A_o = pair(fmt, kind, (5, 4), numpy.float64)
        for k in (0, 1, -2):
            check(cs.tril(A_o, k), ss.tril(A_t, k))
            check(cs.triu(A_o, k), ss.triu(A_t, k))
        check(cs.tril(A_o, format="csr"), ss.tril(A_t, format="csr"))
        r_o, c_o, v_o = cs.find(A_o)
        r_t, c_t, v_t = ss.find(A_t)
        order_o = numpy.lexsort((c_o.get(), r_o.get()))
        order_t = numpy.lexsort((c_t, r_t))
        numpy.testing.assert_array_equal(r_o.get()[order_o], r_t[order_t])
        numpy.testing.assert_array_equal(c_o.get()[order_o], c_t[order_t])
        numpy.testing.assert_array_equal(v_o.get()[order_o], v_t[order_t])


def test_save_load_npz(device):
    for fmt in FORMATS:
        for kind in KINDS:
            A_t, A_o = pair(fmt, kind, (4, 5), numpy.float32)
            buf = io.BytesIO()
            cs.save_npz(buf, A_o)
            buf.seek(0)
            loaded_t = ss.load_npz(buf)
            numpy.testing.assert_array_equal(loaded_t.toarray(), A_t.toarray())
            buf.seek(0)
            loaded_o = cs.load_npz(buf)
            check(loaded_o, A_t)
            assert str(loaded_o.device) == device
