"""Result dtypes of every ufunc against NumPy 2's, over every input combination: each
dtype pair (1-element and 0-d arrays), each dtype against each kind of Python scalar
(bool, int, float, complex, and ints outside a dtype's range), Python scalars against
each other, and the dtype=/signature=/casting=/out= arguments. Each table is one loop
inside one test, comparing the result's dtype and ndim, or the exception's builtin
class. Also result_type, promote_types and can_cast over the same table."""
import warnings

import numpy
import pytest

import cunp

DTYPES = [numpy.dtype(t) for t in (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
    "float32", "float64", "complex64", "complex128")]
PY_SCALARS = [True, 1, 1.0, 1j]
# Python ints outside some dtype's range: NumPy 2 raises OverflowError for arithmetic
# and compares them by value.
WIDE_INTS = [-1, 300, -1000, 70000, 2 ** 40, 2 ** 63, -(2 ** 63) - 1, 2 ** 64, 2 ** 70]
# The ones NumPy can hold without an object array when they are the only operand
# (beyond 64 bits NumPy computes on Python objects; docs/differences.md).
LONE_INTS = [s for s in WIDE_INTS if -(2 ** 63) <= s < 2 ** 64]


def _ufunc_names():
    names = sorted(n for n in cunp._core._ufuncs if not n.startswith("_"))
    return [n for n in names if isinstance(getattr(numpy, n, None), numpy.ufunc)]


NAMES = _ufunc_names()


def builtin_name(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


def summary(fn, *args, **kwargs):
    """(dtype, ndim) of each result of fn(*args), or the exception's builtin class."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with numpy.errstate(all="ignore"), cunp.errstate(all="ignore"):
                r = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return "raises " + builtin_name(e)
    rs = r if isinstance(r, tuple) else (r,)
    return tuple((numpy.dtype(x.dtype).name, numpy.ndim(x)) if hasattr(x, "dtype") else type(x).__name__
                 for x in rs)


class Mismatches:
    def __init__(self):
        self.rows = []
        self.count = 0

    def check(self, what, got, want):
        self.count += 1
        if got != want:
            self.rows.append("%s: cunp %s, numpy %s" % (what, got, want))

    def assert_none(self):
        assert self.count > 0
        assert not self.rows, "%d of %d differ:\n%s" % (len(self.rows), self.count, "\n".join(self.rows[:40]))


def operand_forms(dt):
    """1-element and 0-d arrays of `dt` holding 1, as (numpy, cunp, label)."""
    one = numpy.ones(1, dt)
    zero_d = numpy.ones((), dt)
    return [(one, cunp.asarray(one), dt.name + "[1]"), (zero_d, cunp.asarray(zero_d), dt.name + "[()]")]


def _arity(name):
    return getattr(numpy, name).nin


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_unary_dtype_table(device, dt):
    m = Mismatches()
    for name in NAMES:
        if _arity(name) != 1:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for na, ca, label in operand_forms(dt):
            m.check("%s(%s)" % (name, label), summary(cf, ca), summary(nf, na))
    m.assert_none()


def test_unary_python_scalars(device):
    m = Mismatches()
    for name in NAMES:
        if _arity(name) != 1:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for s in PY_SCALARS + LONE_INTS:
            m.check("%s(%r)" % (name, s), summary(cf, s), summary(nf, s))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_binary_array_pairs(device, dt):
    m = Mismatches()
    arrays = [(numpy.ones(1, d), cunp.asarray(numpy.ones(1, d)), d.name) for d in DTYPES]
    na, ca, la = numpy.ones(1, dt), cunp.asarray(numpy.ones(1, dt)), dt.name
    for name in NAMES:
        if _arity(name) != 2:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for nb, cb, lb in arrays:
            m.check("%s(%s, %s)" % (name, la, lb), summary(cf, ca, cb), summary(nf, na, nb))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_binary_zero_d_pairs(device, dt):
    """0-d arrays are as strong as any array in NumPy 2 (no value-based casting)."""
    m = Mismatches()
    for name in NAMES:
        if _arity(name) != 2:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        na = numpy.ones((), dt)
        ca = cunp.asarray(na)
        for dt2 in DTYPES:
            nb = numpy.ones(1, dt2)
            cb = cunp.asarray(nb)
            m.check("%s(%s[()], %s[1])" % (name, dt.name, dt2.name), summary(cf, ca, cb), summary(nf, na, nb))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_binary_array_and_python_scalar(device, dt):
    m = Mismatches()
    for name in NAMES:
        if _arity(name) != 2:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for na, ca, label in operand_forms(dt):
            for s in PY_SCALARS:
                m.check("%s(%s, %r)" % (name, label, s), summary(cf, ca, s), summary(nf, na, s))
                m.check("%s(%r, %s)" % (name, s, label), summary(cf, s, ca), summary(nf, s, na))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_binary_out_of_range_python_ints(device, dt):
    m = Mismatches()
    for name in NAMES:
        if _arity(name) != 2:
            continue
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        na = numpy.ones(1, dt)
        ca = cunp.asarray(na)
        for s in WIDE_INTS:
            m.check("%s(%s, %r)" % (name, dt.name, s), summary(cf, ca, s), summary(nf, na, s))
            m.check("%s(%r, %s)" % (name, s, dt.name), summary(cf, s, ca), summary(nf, s, na))
    m.assert_none()


def test_python_scalars_only(device):
    """Two weak scalars give the kinds' default dtypes (true_divide(True, True) is
    float64); the result is a 0-d array. (Ints from 2**63 beside another Python int
    are object operations in NumPy: docs/differences.md.)"""
    m = Mismatches()
    scalars = PY_SCALARS + [-1, 300, -(2 ** 63)]
    for name in NAMES:
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        if _arity(name) == 2:
            for a in scalars:
                for b in scalars:
                    m.check("%s(%r, %r)" % (name, a, b), summary(cf, a, b), summary(nf, a, b))
    m.assert_none()


def test_numpy_scalars_are_strong(device):
    m = Mismatches()
    for name in ("add", "true_divide", "power", "maximum", "less", "arctan2", "bitwise_or", "ldexp"):
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for dt in DTYPES:
            s = dt.type(1)
            for t in PY_SCALARS + [numpy.float32(1), numpy.int8(1)]:
                m.check("%s(%r, %r)" % (name, s, t), summary(cf, s, t), summary(nf, s, t))
                m.check("%s(%r, %r)" % (name, t, s), summary(cf, t, s), summary(nf, t, s))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_ternary_clip_dtypes(device, dt):
    m = Mismatches()
    forms = [(numpy.ones(1, d), d.name) for d in DTYPES] + [(s, repr(s)) for s in PY_SCALARS]
    na, la = numpy.ones(1, dt), dt.name
    for nb, lb in forms:
        for nc, lc in forms:
            cb = cunp.asarray(nb) if isinstance(nb, numpy.ndarray) else nb
            cc = cunp.asarray(nc) if isinstance(nc, numpy.ndarray) else nc
            m.check("clip(%s, %s, %s)" % (la, lb, lc), summary(cunp.clip, cunp.asarray(na), cb, cc),
                    summary(numpy.clip, na, nb, nc))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_every_ufunc_runs_on_every_dtype(device, dt):
    """The tables above may resolve without computing; here each ufunc computes on a
    3-element array of every dtype it accepts, and the values agree with NumPy."""
    m = Mismatches()
    for name in NAMES:
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        h = numpy.array([1, 2, 3]).astype(dt)
        args_n = [h] * nf.nin
        args_c = [cunp.asarray(h)] * nf.nin
        want = summary(nf, *args_n)
        got = summary(cf, *args_c)
        m.check("%s(%s x%d)" % (name, dt.name, nf.nin), got, want)
        if isinstance(want, str) or got != want:
            continue
        with numpy.errstate(all="ignore"), cunp.errstate(all="ignore"):
            rn, rc = nf(*args_n), cf(*args_c)
        for x, y in zip(rn if isinstance(rn, tuple) else (rn,), rc if isinstance(rc, tuple) else (rc,)):
            numpy.testing.assert_allclose(cunp.asnumpy(y), x, rtol=1e-3, equal_nan=True,
                                          err_msg="%s(%s)" % (name, dt.name))
    m.assert_none()


# ---- dtype=, signature=, casting=, out= ------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_dtype_argument_table(device, dt):
    m = Mismatches()
    inputs = [numpy.ones(1, "int8"), numpy.ones(1, "float32"), numpy.ones(1, "complex64"), numpy.ones(1, "bool")]
    for name in NAMES:
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for x in inputs:
            args_n = [x] * nf.nin
            args_c = [cunp.asarray(x)] * nf.nin
            m.check("%s(%s, dtype=%s)" % (name, x.dtype, dt), summary(cf, *args_c, dtype=dt),
                    summary(nf, *args_n, dtype=dt))
    m.assert_none()


def test_dtype_argument_with_python_scalar(device):
    m = Mismatches()
    inputs = [numpy.ones(1, "int8"), numpy.ones(1, "float32"), numpy.ones(1, "complex64"), numpy.ones(1, "bool")]
    for name in NAMES:
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for x in inputs:
            args_n = [x] + [2] * (nf.nin - 1)
            args_c = [cunp.asarray(x)] + [2] * (nf.nin - 1)
            for dt in ("float64", "int64", "float16"):
                m.check("%s(%s, 2, dtype=%s)" % (name, x.dtype, dt), summary(cf, *args_c, dtype=dt),
                        summary(nf, *args_n, dtype=dt))
    m.assert_none()


SIGNATURES = ["ff->f", "dd->d", "ll->l", "ee->e", "FF->F", "bb->b", "??->?", "dd", "ff->d",
              ("float32", None, None), (None, None, "float64"), (None, "float64", None),
              (numpy.float64, numpy.float64, numpy.float64), (None, None, None)]


def test_signature_argument_table(device):
    m = Mismatches()
    names = ["add", "multiply", "true_divide", "power", "maximum", "less", "arctan2", "bitwise_and", "ldexp",
             "logical_and", "floor_divide"]
    inputs = [numpy.ones(1, "int8"), numpy.ones(1, "float32"), numpy.ones(1, "float64"), numpy.ones(1, "complex64")]
    # NumPy (2.4, 2.5.2) answers a call with a signature from the loops its dispatch
    # cache already holds: add(int8, 2.5, signature=("float32", None, None)) raises in a
    # fresh process and gives float32 once add has run on every pair of dtypes and on Python scalars. cunp
    # gives the answer of a program that has used its ufuncs, so NumPy runs the pairs
    # first (as test_binary_array_pairs does).
    for name in names:
        for a in DTYPES:
            for b in [numpy.ones(1, d) for d in DTYPES] + [2, 2.5]:
                try:
                    getattr(numpy, name)(numpy.ones(1, a), b)
                except TypeError:
                    pass
    for name in names:
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for x in inputs:
            for y in inputs[:2] + [2, 2.5]:
                cy = cunp.asarray(y) if isinstance(y, numpy.ndarray) else y
                for sig in SIGNATURES:
                    for casting in ("same_kind", "unsafe"):
                        m.check("%s(%s, %r, signature=%r, casting=%s)" % (name, x.dtype, getattr(y, "dtype", y), sig,
                                                                          casting),
                                summary(cf, cunp.asarray(x), cy, signature=sig, casting=casting),
                                summary(nf, x, y, signature=sig, casting=casting))
    for sig in ["f->f", "d->d", "e->e", "F->F", ("float64", None), (None, "float32"), "l->l"]:
        for x in inputs:
            for name in ("sqrt", "negative", "absolute", "isnan", "floor"):
                nf, cf = getattr(numpy, name), getattr(cunp, name)
                m.check("%s(%s, signature=%r)" % (name, x.dtype, sig), summary(cf, cunp.asarray(x), signature=sig),
                        summary(nf, x, signature=sig))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_casting_argument_table(device, dt):
    m = Mismatches()
    for name in ("add", "true_divide", "sqrt", "less", "bitwise_or", "power"):
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        x = numpy.ones(1, dt)
        for out_dt in DTYPES:
            for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
                args_n = [x] * nf.nin
                args_c = [cunp.asarray(x)] * nf.nin
                on, oc = numpy.zeros(1, out_dt), cunp.zeros(1, out_dt)
                m.check("%s(%s, out=%s, casting=%s)" % (name, dt, out_dt, casting),
                        summary(cf, *args_c, out=oc, casting=casting), summary(nf, *args_n, out=on, casting=casting))
    m.assert_none()


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_out_dtype_table(device, dt):
    """out= of any dtype the result casts to under same_kind; the returned object is out."""
    m = Mismatches()
    for name in ("add", "true_divide", "sqrt", "equal", "floor_divide", "absolute", "left_shift"):
        nf, cf = getattr(numpy, name), getattr(cunp, name)
        for out_dt in DTYPES:
            x = numpy.ones(2, dt)
            on, oc = numpy.zeros(2, out_dt), cunp.zeros(2, out_dt)
            got = summary(cf, *([cunp.asarray(x)] * nf.nin), out=oc)
            want = summary(nf, *([x] * nf.nin), out=on)
            m.check("%s(%s, out=%s)" % (name, dt, out_dt), got, want)
            if not isinstance(want, str) and got == want:
                r = cf(*([cunp.asarray(x)] * nf.nin), out=oc)
                assert r is oc
    m.assert_none()


# ---- result_type / promote_types / can_cast ----------------------------------------------

def test_promote_types_table():
    m = Mismatches()
    for a in DTYPES:
        for b in DTYPES:
            m.check("promote_types(%s, %s)" % (a, b), cunp.promote_types(a, b), numpy.promote_types(a, b))
    m.assert_none()


def test_can_cast_table():
    m = Mismatches()
    for a in DTYPES:
        for b in DTYPES:
            for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
                m.check("can_cast(%s, %s, %s)" % (a, b, casting), cunp.can_cast(a, b, casting),
                        numpy.can_cast(a, b, casting))
            m.check("can_cast(%s[()], %s)" % (a, b), cunp.can_cast(cunp.ones((), a), b),
                    numpy.can_cast(numpy.ones((), a), b))
    m.assert_none()


def _result_type(xp, *args):
    try:
        return xp.result_type(*args)
    except Exception as e:  # noqa: BLE001
        return "raises " + builtin_name(e)


def test_result_type_table(device):
    m = Mismatches()
    for a in DTYPES:
        za = numpy.ones((), a)
        for b in DTYPES:
            m.check("result_type(%s, %s)" % (a, b), _result_type(cunp, a, b), _result_type(numpy, a, b))
            m.check("result_type(%s[()], %s)" % (a, b), _result_type(cunp, cunp.asarray(za), b),
                    _result_type(numpy, za, b))
        for s in PY_SCALARS + WIDE_INTS:
            m.check("result_type(%s, %r)" % (a, s), _result_type(cunp, a, s), _result_type(numpy, a, s))
            m.check("result_type(%s[()], %r)" % (a, s), _result_type(cunp, cunp.asarray(za), s),
                    _result_type(numpy, za, s))
            for t in PY_SCALARS:
                m.check("result_type(%s, %r, %r)" % (a, s, t), _result_type(cunp, a, s, t),
                        _result_type(numpy, a, s, t))
    for s in PY_SCALARS:
        m.check("result_type(%r)" % (s,), _result_type(cunp, s), _result_type(numpy, s))
        for t in PY_SCALARS:
            m.check("result_type(%r, %r)" % (s, t), _result_type(cunp, s, t), _result_type(numpy, s, t))
    m.check("result_type()", _result_type(cunp), _result_type(numpy))
    m.assert_none()
