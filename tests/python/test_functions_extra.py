"""The NumPy functions of cunp._functions_extra against NumPy: every case is a function of
the array module `xp`, run with numpy and with cunp (on the test's device); results must
agree in values, dtypes and shapes, or both must raise the same exception type (and, for
cases marked `msg`, the same message)."""
import warnings

import numpy
import pytest

import cunp
from cases import Message, check_cases, tolerance_of
from helpers import assert_same, random_array

INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
REAL = ["bool"] + INTS + FLOATS
ALL = REAL + COMPLEX


# `msg(case)`: the exception message must equal NumPy's; `check(cases, rtol, atol, auto)`.
msg = Message
check = check_cases
_tol = tolerance_of


def _data(shape, dt, low=-20, high=20):
    return random_array(shape, dt, low=low, high=high)


# ---- fill_diagonal, diagflat, vander ----------------------------------------------------

def _filled(xp, shape, dt, val, wrap=False, view=None):
    a = xp.zeros(shape, dtype=dt)
    v = a if view is None else a[view]
    xp.fill_diagonal(v, val, wrap=wrap)
    return a


@pytest.mark.parametrize("dt", ["bool", "int32", "float32", "complex128"])
def test_fill_diagonal(device, dt):
    check([
        lambda xp: _filled(xp, (4, 4), dt, 1),
        lambda xp: _filled(xp, (3, 5), dt, 1),
        lambda xp: _filled(xp, (7, 3), dt, 1),
        lambda xp: _filled(xp, (7, 3), dt, 1, wrap=True),
        lambda xp: _filled(xp, (3, 3, 3), dt, 1),
        lambda xp: _filled(xp, (2, 2, 2, 2), dt, 1),
        lambda xp: _filled(xp, (5, 5), dt, [1, 0]),
        lambda xp: _filled(xp, (5, 5), dt, xp.asarray([1, 0, 1])),
        lambda xp: _filled(xp, (6, 8), dt, 1, view=(slice(None, None, 2), slice(1, None, 2))),
        lambda xp: _filled(xp, (0, 0), dt, 1),
        msg(lambda xp: _filled(xp, (3,), dt, 1)),
        msg(lambda xp: _filled(xp, (3, 3, 2), dt, 1)),
    ])


def test_fill_diagonal_values(device):
    check([
        lambda xp: _filled(xp, (4, 4), "int64", 2.7),
        lambda xp: _filled(xp, (4, 4), "float64", [1.5, 2.5, 3.5, 4.5, 5.5]),
        lambda xp: _filled(xp, (5, 3), "float64", xp.arange(3.0), wrap=True),
        msg(lambda xp: _filled(xp, (3, 3), "float64", 1j)),
        msg(lambda xp: _filled(xp, (3, 3), "int16", 1j)),
        lambda xp: _filled(xp, (3, 3), "bool", 1j),
        lambda xp: _filled(xp, (3, 3), "complex64", 1j),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_diagflat(device, dt):
    h = _data((2, 3), dt)
    check([
        lambda xp: xp.diagflat(xp.asarray(h)),
        lambda xp: xp.diagflat(xp.asarray(h), 2),
        lambda xp: xp.diagflat(xp.asarray(h)[:, ::2], -1),
        lambda xp: xp.diagflat(xp.asarray(h[0, 0])),
        lambda xp: xp.diagflat([]),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_vander(device, dt):
    h = _data((5,), dt, -4, 4)
    check([
        lambda xp: xp.vander(xp.asarray(h)),
        lambda xp: xp.vander(xp.asarray(h), 3),
        lambda xp: xp.vander(xp.asarray(h), 7, increasing=True),
        lambda xp: xp.vander(xp.asarray(h)[::2], 0),
        lambda xp: xp.vander(xp.asarray(h), 1),
        lambda xp: xp.vander(xp.asarray(h[:0])),
        msg(lambda xp: xp.vander(xp.asarray(h).reshape(5, 1))),
        lambda xp: xp.vander(xp.asarray(h[0])),
        lambda xp: xp.vander(xp.asarray(h), -1),
    ], rtol=_tol(promote(dt)))


def promote(dt):
    return numpy.promote_types(dt, numpy.int64)


# ---- trapezoid, interp ------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL)
def test_trapezoid(device, dt):
    h = _data((4, 5), dt)
    x1 = numpy.sort(_data((5,), "float64"))
    x2 = numpy.sort(_data((4, 5), "float32"), axis=0)
    check([
        lambda xp: xp.trapezoid(xp.asarray(h)),
        lambda xp: xp.trapezoid(xp.asarray(h), axis=0),
        lambda xp: xp.trapezoid(xp.asarray(h), dx=0.5),
        lambda xp: xp.trapezoid(xp.asarray(h), dx=xp.asarray(numpy.float32(2))),
        lambda xp: xp.trapezoid(xp.asarray(h), xp.asarray(x1)),
        lambda xp: xp.trapezoid(xp.asarray(h), xp.asarray(x2), axis=0),
        lambda xp: xp.trapezoid(xp.asarray(h)[:, ::2], axis=-1),
        lambda xp: xp.trapezoid(xp.asarray(h[:, :0])),
        lambda xp: xp.trapezoid(xp.asarray(h[0, :1])),
        lambda xp: xp.trapezoid(xp.asarray(h[0, 0])),
        lambda xp: xp.trapezoid(xp.asarray(h), xp.asarray(x1[:3])),
    ], auto=1, atol=_half_sum_atol(h))


def _half_sum_atol(h):
    """The error of a float16 sum of a few terms of h's size is a few ulps of the terms,
    not of the (possibly cancelled) result: NumPy rounds every step of a sum along an
    outer axis to float16, cunp's CUDA reductions accumulate float16 in float32."""
    return 2e-3 * float(numpy.abs(h.astype(numpy.float64)).max()) if h.dtype == numpy.float16 else 0.0


@pytest.mark.parametrize("dt", REAL)
def test_interp(device, dt):
    xp_h = numpy.sort(numpy.unique(_data((8,), "float64", -10, 10)))
    fp_h = _data(xp_h.shape, "float64")
    x_h = _data((3, 4), dt, -12, 12)
    check([
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h), xp.asarray(fp_h)),
        lambda xp: xp.interp(xp.asarray(x_h)[:, ::2], xp.asarray(xp_h), xp.asarray(fp_h), left=-1, right=99.5),
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h), xp.asarray(fp_h), period=7),
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h[:1]), xp.asarray(fp_h[:1]), left=3, right=4),
        lambda xp: xp.interp(xp.asarray(x_h[0, 0]), xp.asarray(xp_h), xp.asarray(fp_h)),
        lambda xp: xp.interp(xp.asarray(x_h[:0]), xp.asarray(xp_h), xp.asarray(fp_h)),
    ], rtol=1e-15, atol=1e-13)


def test_interp_special(device):
    nan, inf = numpy.nan, numpy.inf
    check([
        lambda xp: xp.interp(xp.asarray([0.5, 1.0, 2.0, nan, -inf, inf, 3.0]), xp.asarray([0.0, 1.0, 2.0, 3.0]),
                             xp.asarray([1.0, 5.0, 5.0, -2.0])),
        lambda xp: xp.interp(xp.asarray([1.0, 5.0, 0.5]), xp.asarray([0.0, 1.0, inf]), xp.asarray([0.0, 1.0, inf])),
        lambda xp: xp.interp(xp.asarray([1.0, 5.0]), xp.asarray([0.0, 1.0, inf]), xp.asarray([0.0, 1.0, 2.0])),
        lambda xp: xp.interp(xp.asarray([0.5, 1.5]), xp.asarray([0.0, 1.0, 2.0]), xp.asarray([inf, inf, 1.0])),
        lambda xp: xp.interp(xp.asarray([nan, 2.0]), xp.asarray([1.0]), xp.asarray([5.0])),
        lambda xp: xp.interp(xp.asarray([1.0, 2.0, 2.0, 2.5]), xp.asarray([1.0, 2.0, 2.0, 3.0]),
                             xp.asarray([0.0, 1.0, 2.0, 3.0])),
        lambda xp: xp.interp(2.5, xp.asarray([1, 2, 3]), xp.asarray([3, 2, 0])),
        lambda xp: xp.interp(xp.asarray([-7.5, 0.3, 9.1]), xp.asarray([-2.0, -1.0, 0.0, 3.0]),
                             xp.asarray([1.0, 2.0, 3.0, 4.0]), period=-4),
        lambda xp: xp.interp(xp.asarray([1.5]), xp.asarray([1, 2]), xp.asarray([True, False])),
        msg(lambda xp: xp.interp(xp.asarray([], dtype=xp.float64), xp.asarray([]), xp.asarray([]))),
        msg(lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([]), xp.asarray([]))),
        msg(lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([1.0]))),
        msg(lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([[1.0, 2.0]]), xp.asarray([[1.0, 2.0]]))),
        msg(lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray(1.0), xp.asarray(1.0))),
        msg(lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0]), period=0)),
        lambda xp: xp.interp(xp.asarray([1j]), xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0])),
        lambda xp: xp.interp(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0]), left="a"),
        lambda xp: xp.interp(xp.asarray([0.0]), xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0]), left=3j),
    ])


@pytest.mark.parametrize("dt", COMPLEX)
def test_interp_complex(device, dt):
    xp_h = numpy.sort(numpy.unique(_data((6,), "float64", -10, 10)))
    fp_h = _data(xp_h.shape, dt)
    x_h = _data((2, 5), "float64", -12, 12)
    inf = numpy.inf
    check([
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h), xp.asarray(fp_h)),
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h), xp.asarray(fp_h), left=1 + 2j, right=-3),
        lambda xp: xp.interp(xp.asarray(x_h), xp.asarray(xp_h), xp.asarray(fp_h), period=3.5),
        lambda xp: xp.interp(xp.asarray([numpy.nan, 0.5, 1.5]), xp.asarray([0.0, 1.0, 2.0]),
                             xp.asarray([1 + 1j, complex(inf, 1), complex(inf, 2)], dtype=dt)),
        lambda xp: xp.interp(xp.asarray([0.5]), xp.asarray([0.0, 1.0]), xp.asarray([1j, 2.0]), left="x"),
    ], rtol=1e-15, atol=1e-13)


# ---- convolve, correlate ----------------------------------------------------------------

MODES = ["full", "same", "valid", 0, 1, 2]


@pytest.mark.parametrize("dt", ALL)
@pytest.mark.parametrize("sizes", [(7, 3), (3, 7), (6, 6), (1, 4), (5, 1), (8, 4)])
def test_convolve_correlate(device, dt, sizes):
    a = _data((sizes[0],), dt, -5, 5)
    v = _data((sizes[1],), dt, -5, 5)
    cases = []
    for mode in MODES:
        cases += [lambda xp, mode=mode: xp.convolve(xp.asarray(a), xp.asarray(v), mode=mode),
                  lambda xp, mode=mode: xp.correlate(xp.asarray(a), xp.asarray(v), mode=mode)]
    # (sums that cancel are compared to an absolute tolerance: the summation order differs)
    check(cases, rtol=_tol(dt) * 10, atol=_tol(dt) * 100)


@pytest.mark.parametrize("dt", ["int16", "float64", "complex128"])
def test_convolve_long_kernels(device, dt):
    # Past the per-lag loop: windows gathered and reduced by matrix products.
    a = _data((300,), dt, -5, 5)
    v = _data((90,), dt, -5, 5)
    check([lambda xp, mode=mode: xp.convolve(xp.asarray(a), xp.asarray(v), mode) for mode in ("full", "same",
                                                                                              "valid")]
          + [lambda xp, mode=mode: xp.correlate(xp.asarray(v), xp.asarray(a), mode) for mode in ("full", "same",
                                                                                                "valid")],
          rtol=1e-12, atol=1e-10)


def test_convolve_dtypes_and_errors(device):
    check([
        lambda xp: xp.convolve(xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1, 2], dtype=xp.uint8)),
        lambda xp: xp.convolve(xp.asarray([100, 100], dtype=xp.int8), xp.asarray([100, 2], dtype=xp.int8)),
        lambda xp: xp.convolve(xp.asarray([1, 2], dtype=xp.uint64), xp.asarray([1, 2], dtype=xp.int64)),
        lambda xp: xp.convolve(xp.asarray([True, False]), xp.asarray([True, True])),
        lambda xp: xp.correlate(xp.asarray([1j, 2]), xp.asarray([1, 2j, 3]), "full"),
        lambda xp: xp.correlate(xp.asarray([1, 2j, 3]), xp.asarray([1j, 2]), "full"),
        lambda xp: xp.convolve(xp.asarray(3), xp.asarray(2)),
        lambda xp: xp.convolve([1, 2, 3], [0, 1, 0.5]),
        lambda xp: xp.convolve(xp.asarray([1.0, 2.0, 3.0, 4.0, 5.0])[::2], xp.asarray([1.0, -1.0])),
        msg(lambda xp: xp.convolve(xp.asarray([]), xp.asarray([1.0]))),
        msg(lambda xp: xp.convolve(xp.asarray([1.0]), xp.asarray([]))),
        msg(lambda xp: xp.correlate(xp.asarray([]), xp.asarray([1.0]))),
        msg(lambda xp: xp.correlate(xp.asarray([1.0]), xp.asarray([]))),
        msg(lambda xp: xp.convolve(xp.asarray([[1.0]]), xp.asarray([1.0]))),
        msg(lambda xp: xp.correlate(xp.asarray(1.0), xp.asarray([1.0]))),
        msg(lambda xp: xp.convolve(xp.asarray([1.0]), xp.asarray([1.0]), mode="x")),
        msg(lambda xp: xp.convolve(xp.asarray([1.0]), xp.asarray([1.0]), mode="Full")),
        msg(lambda xp: xp.correlate(xp.asarray([1.0]), xp.asarray([1.0]), mode="")),
        msg(lambda xp: xp.correlate(xp.asarray([1.0]), xp.asarray([1.0]), mode=3)),
        msg(lambda xp: xp.correlate(xp.asarray([1.0]), xp.asarray([1.0]), mode=None)),
        msg(lambda xp: xp.correlate(xp.asarray([1.0]), xp.asarray([1.0]), mode=True)),
    ])


def test_no_floating_point_warnings(device):
    # NumPy's convolve/correlate (dot loops) and interp (a C loop) report no overflow or
    # invalid values; cunp's compositions of ufuncs keep that.
    inf = numpy.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for xp in (numpy, cunp):
            r = [xp.convolve(xp.asarray([1e308, 1.0]), xp.asarray([10.0, 1.0])),
                 xp.correlate(xp.asarray([inf, 1.0]), xp.asarray([0.0, 1.0]), "full"),
                 xp.interp(xp.asarray([1.0, 5.0, 0.5]), xp.asarray([0.0, 1.0, inf]), xp.asarray([0.0, 1.0, inf]))]
            if xp is numpy:
                expected = r
        for a, e in zip(r, expected):
            assert_same(a, e)


# ---- polynomials ------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL)
def test_polyval(device, dt):
    p = _data((4,), dt, -3, 3)
    x = _data((2, 3), dt, -3, 3)
    check([
        lambda xp: xp.polyval(xp.asarray(p), xp.asarray(x)),
        lambda xp: xp.polyval(xp.asarray(p), xp.asarray(x)[:, ::2]),
        lambda xp: xp.polyval(xp.asarray(p), 2),
        lambda xp: xp.polyval(xp.asarray(p), 1.5),
        lambda xp: xp.polyval(xp.asarray(p), xp.asarray(x[0, 0])),
        lambda xp: xp.polyval(xp.asarray(p[:0]), xp.asarray(x)),
        lambda xp: xp.polyval([1, 2], xp.asarray(x)),
        lambda xp: xp.polyval(xp.asarray(p).reshape(2, 2), xp.asarray(x[0, :2])),
        lambda xp: xp.polyval(xp.asarray(p[0]), xp.asarray(x)),
    ], rtol=_tol(dt) * 10)


@pytest.mark.parametrize("dt", ALL)
def test_poly_arithmetic(device, dt):
    a = _data((4,), dt, -4, 4)
    b = _data((2,), dt, -4, 4)
    cases = []
    for f in ("polyadd", "polysub", "polymul"):
        cases += [
            lambda xp, f=f: getattr(xp, f)(xp.asarray(a), xp.asarray(b)),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(b), xp.asarray(a)),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(a), xp.asarray(a)[::2]),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(a[0]), xp.asarray(b)),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(b), [1, 2, 3]),
        ]
    check(cases, rtol=_tol(dt))


def test_poly_arithmetic_special(device):
    check([
        lambda xp: xp.polymul(xp.asarray([0, 0, 1, 2]), xp.asarray([1])),
        lambda xp: xp.polymul(xp.asarray([], dtype=xp.float64), xp.asarray([3, 4, 5])),
        lambda xp: xp.polymul(xp.asarray([0, 0], dtype=xp.int8), xp.asarray([True])),
        lambda xp: xp.polymul(xp.asarray([1.0, 2.0], dtype=xp.float32), xp.asarray([1j])),
        msg(lambda xp: xp.polymul(xp.asarray([[1]]), xp.asarray([1]))),
        lambda xp: xp.polyadd(xp.asarray([[1, 2]]), xp.asarray([1])),
        lambda xp: xp.polysub(xp.asarray([True]), xp.asarray([True])),
        lambda xp: xp.polyadd(xp.asarray([], dtype=xp.int32), xp.asarray([1.5])),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_polydiv(device, dt):
    u = _data((5,), dt, 1, 6)
    v = _data((2,), dt, 1, 6)
    check([
        lambda xp: xp.polydiv(xp.asarray(u), xp.asarray(v)),
        lambda xp: xp.polydiv(xp.asarray(v), xp.asarray(u)),
        lambda xp: xp.polydiv(xp.asarray(u), xp.asarray(u)),
        lambda xp: xp.polydiv(xp.asarray(u)[::2], xp.asarray(v[:1])),
    ], rtol=_tol(dt) * 100, atol=_tol(dt) * 100)


def test_polydiv_special(device):
    check([
        lambda xp: xp.polydiv(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([1.0, 1.0])),
        lambda xp: xp.polydiv(xp.asarray([1.0, 3.0, 2.0]), xp.asarray([1.0, 1.0])),
        lambda xp: xp.polydiv(xp.asarray([1.0, 2.0]), xp.asarray([0.0, 1.0])),
        lambda xp: xp.polydiv(xp.asarray([2, 4, 6]), xp.asarray([2])),
        lambda xp: xp.polydiv(xp.asarray([1j, 2]), xp.asarray([1])),
        lambda xp: xp.polydiv(3.0, xp.asarray([2.0])),
        lambda xp: xp.polydiv(xp.asarray([]), xp.asarray([1.0])),
        lambda xp: xp.polydiv(xp.asarray([1.0]), xp.asarray([])),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_polyder_polyint(device, dt):
    p = _data((5,), dt, -5, 5)
    check([
        lambda xp: xp.polyder(xp.asarray(p)),
        lambda xp: xp.polyder(xp.asarray(p), 3),
        lambda xp: xp.polyder(xp.asarray(p), 0),
        lambda xp: xp.polyder(xp.asarray(p), 7),
        lambda xp: xp.polyder(xp.asarray(p)[::2]),
        lambda xp: xp.polyint(xp.asarray(p)),
        lambda xp: xp.polyint(xp.asarray(p), 2),
        lambda xp: xp.polyint(xp.asarray(p), 3, [1, 2, 3]),
        lambda xp: xp.polyint(xp.asarray(p), 2, 5),
        lambda xp: xp.polyint(xp.asarray(p), 0),
        lambda xp: xp.polyint(xp.asarray(p)[::-1], 1, xp.asarray([2.5])),
    ], rtol=_tol(dt))


def test_polyder_polyint_errors(device):
    check([
        lambda xp: xp.polyder(xp.asarray([1])),
        lambda xp: xp.polyder(xp.asarray([])),
        lambda xp: xp.polyint(xp.asarray([])),
        lambda xp: xp.polyint(xp.asarray([1, 2]), 2, xp.asarray([1, 2, 3, 4])),
        msg(lambda xp: xp.polyder(xp.asarray(3))),
        msg(lambda xp: xp.polyder(xp.asarray([1, 2]), -1)),
        lambda xp: xp.polyder(xp.asarray([[1, 2], [3, 4]])),
        msg(lambda xp: xp.polyint(xp.asarray([1, 2]), -1)),
        msg(lambda xp: xp.polyint(xp.asarray([1, 2, 3]), 3, [1, 2])),
        msg(lambda xp: xp.polyint(xp.asarray(3))),
        lambda xp: xp.polyint(xp.asarray(3), 0),
    ])


def _sorted_complex(xp, r):
    r = xp.asarray(r)
    return xp.sort_complex(r) if r.dtype.kind == "c" else xp.sort(r)


@pytest.mark.parametrize("dt", ["int64", "float32", "float64", "complex64", "complex128"])
def test_poly_roots(device, dt):
    # Distinct roots: the computed roots of a polynomial with a repeated root are only
    # good to a root of the rounding error, different for every eigenvalue solver.
    z = numpy.array([-3.5, -1.0, 0.5, 2.25] if dt != "int64" else [-3, -1, 1, 4]).astype(dt)
    if dt.startswith("complex"):
        z = z + numpy.array([0.5j, -1j, 0, 2j]).astype(dt)
    p = _data((6,), dt, 1, 5)
    check([
        lambda xp: xp.poly(xp.asarray(z)),
        lambda xp: xp.poly(xp.asarray(z)[::2]),
        lambda xp: _sorted_complex(xp, xp.roots(xp.poly(xp.asarray(z)))),
        lambda xp: _sorted_complex(xp, xp.roots(xp.asarray(p))),
    ], rtol=2e-3 if dt in ("float32", "complex64") else 1e-8, atol=1e-4)


def test_poly_roots_special(device):
    check([
        lambda xp: xp.poly(xp.asarray([])),
        lambda xp: xp.poly(xp.asarray([1, 2, 3])),
        lambda xp: xp.poly(xp.asarray([True, False])),
        lambda xp: xp.poly(xp.asarray([1j, -1j, 2.0])),
        lambda xp: xp.poly(xp.asarray([1j, 2.0])),
        lambda xp: xp.poly(xp.asarray([[1.0, 2.0], [3.0, 4.0]])),
        lambda xp: xp.poly(2.5),
        lambda xp: xp.poly(xp.asarray(2.5)),
        msg(lambda xp: xp.poly(xp.asarray([[1.0, 2.0, 3.0]]))),
        msg(lambda xp: xp.poly(xp.zeros((0, 0)))),
        lambda xp: xp.roots(xp.asarray([0, 0, 1, -3, 2, 0, 0])),
        lambda xp: xp.roots(xp.asarray([0, 0])),
        lambda xp: xp.roots(xp.asarray([5])),
        lambda xp: xp.roots(xp.asarray([2, 0])),
        lambda xp: xp.roots(3.0),
        lambda xp: xp.roots(xp.asarray([3.0])),
        lambda xp: xp.roots(xp.asarray([1, -2])),
        msg(lambda xp: xp.roots(xp.asarray([[1, 2]]))),
    ], rtol=1e-12, atol=1e-14)


def _fit(xp, *args, **kw):
    r = xp.polyfit(*args, **kw)
    if isinstance(r, tuple):
        r = tuple(xp.asarray(v) if not isinstance(v, float) else v for v in r)
        if len(r) == 5:  # rank: cunp's is an int32 0-d array, NumPy's an int
            r = r[:2] + (int(r[2]),) + r[3:]
    return r


@pytest.mark.parametrize("dt", ["int64", "float32", "float64", "complex128"])
def test_polyfit(device, dt):
    x = numpy.linspace(-2, 3, 12).astype(dt if dt != "int64" else "float64")
    x = numpy.arange(-5, 7).astype(dt) if dt == "int64" else x
    y = _data((12,), dt, -5, 5)
    y2 = _data((12, 3), dt, -5, 5)
    w = numpy.linspace(0.5, 2.0, 12)
    check([
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y), 2),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y2), 3),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y), 1, w=xp.asarray(w)),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y2), 1, w=xp.asarray(w)),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y), 2, full=True),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y), 2, cov=True),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y2), 2, cov="unscaled"),
        lambda xp: _fit(xp, xp.asarray(x)[::2], xp.asarray(y)[::2], 0),
        lambda xp: _fit(xp, xp.asarray(x), xp.asarray(y), 2, rcond=1e-3),
    ], rtol=1e-4 if dt == "float32" else 1e-9, atol=1e-9)


def test_polyfit_errors(device):
    x = numpy.arange(5.0)
    check([
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x), -1)),
        msg(lambda xp: xp.polyfit(xp.asarray(x).reshape(5, 1), xp.asarray(x), 1)),
        msg(lambda xp: xp.polyfit(xp.asarray([]), xp.asarray([]), 1)),
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x).reshape(1, 1, 5), 1)),
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x[:4]), 1)),
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x), 1, w=xp.ones((5, 1)))),
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x), 1, w=xp.ones(4))),
        msg(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(x), 4, cov=True)),
    ])
    with pytest.warns(numpy.exceptions.RankWarning, match="poorly conditioned"):
        cunp.polyfit(cunp.asarray([1.0, 1.0, 1.0]), cunp.asarray([1.0, 2.0, 3.0]), 2)


# ---- elementwise helpers ----------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL)
def test_sinc_fix(device, dt):
    h = _data((3, 4), dt, -3, 3)
    if dt in FLOATS:
        h.flat[::5] = 0
    cases = [
        lambda xp: xp.sinc(xp.asarray(h)),
        lambda xp: xp.sinc(xp.asarray(h)[:, ::3]),
        lambda xp: xp.sinc(xp.asarray(h[0, 0])),
        lambda xp: xp.sinc(xp.asarray(h[:0])),
    ]
    if dt not in COMPLEX:
        cases += [lambda xp: xp.fix(xp.asarray(h) / 2 if dt != "bool" else xp.asarray(h)),
                  lambda xp: xp.fix(xp.asarray(h)[::2]),
                  lambda xp: xp.fix(xp.asarray(h[0, 0]))]
    check(cases, rtol=_tol(dt) * 10 or 1e-12, atol=1e-15)


def test_fix_out(device):
    check([
        lambda xp: xp.fix(xp.asarray([-2.5, -0.5, 0.5, 2.5, numpy.inf, numpy.nan])),
        lambda xp: xp.fix(xp.asarray([-2.5, 2.5]), out=xp.zeros(2)),
        lambda xp: xp.fix(3.7),
        lambda xp: xp.fix(xp.asarray([1j])),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_isposinf_isneginf(device, dt):
    h = _data((6,), dt)
    if dt in FLOATS:
        h[:4] = [numpy.inf, -numpy.inf, numpy.nan, -0.0]
    check([
        lambda xp: xp.isposinf(xp.asarray(h)),
        lambda xp: xp.isneginf(xp.asarray(h)),
        lambda xp: xp.isposinf(xp.asarray(h)[::2]),
        lambda xp: xp.isneginf(xp.asarray(h[0])),
    ] + ([msg(lambda xp: xp.isposinf(xp.asarray(h))), msg(lambda xp: xp.isneginf(xp.asarray(h)))]
         if dt in COMPLEX else []))


def test_isposinf_out(device):
    check([
        lambda xp: xp.isposinf(xp.asarray([-numpy.inf, 0.0, numpy.inf]), xp.zeros(3, dtype=xp.int64)),
        lambda xp: xp.isneginf(xp.asarray([-numpy.inf, 0.0, numpy.inf]), out=xp.zeros(3, dtype=bool)),
        lambda xp: xp.isposinf([numpy.inf, 1.0]),
        lambda xp: xp.isneginf(-numpy.inf),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_complex_predicates(device, dt):
    h = _data((5,), dt)
    if dt in COMPLEX:
        h[::2] = h[::2].real
    check([
        lambda xp: xp.iscomplex(xp.asarray(h)),
        lambda xp: xp.isreal(xp.asarray(h)),
        lambda xp: xp.iscomplex(xp.asarray(h)[::2]),
        lambda xp: xp.isreal(xp.asarray(h[0])),
        lambda xp: xp.iscomplex(xp.asarray(h[0])),
        lambda xp: xp.iscomplexobj(xp.asarray(h)),
        lambda xp: xp.isrealobj(xp.asarray(h)),
        lambda xp: xp.real_if_close(xp.asarray(h)),
        lambda xp: xp.real_if_close(xp.asarray(h).real + 1e-15j if dt in FLOATS + COMPLEX else xp.asarray(h)),
    ])


def test_complex_predicates_objects(device):
    check([
        lambda xp: xp.iscomplexobj(1j),
        lambda xp: xp.iscomplexobj([1, 2]),
        lambda xp: xp.iscomplexobj([1, 2j]),
        lambda xp: xp.isrealobj(3.0),
        lambda xp: xp.iscomplexobj(xp.asarray([1.0]) + 0j),
        lambda xp: xp.iscomplex([1, 2j]),
        lambda xp: xp.isreal(1j),
        lambda xp: xp.real_if_close(xp.asarray([1 + 1e-10j]), tol=1e-9),
        lambda xp: xp.real_if_close(xp.asarray([1 + 1e-10j]), tol=1e-11),
        lambda xp: xp.real_if_close(xp.asarray([1 + 1e-14j], dtype=xp.complex64), tol=1000),
        lambda xp: xp.real_if_close(xp.asarray([1 + 1e-5j], dtype=xp.complex64), tol=1000),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_ediff1d(device, dt):
    h = _data((3, 4), dt)
    check([
        lambda xp: xp.ediff1d(xp.asarray(h)),
        lambda xp: xp.ediff1d(xp.asarray(h)[:, ::2]),
        lambda xp: xp.ediff1d(xp.asarray(h), to_begin=1),
        lambda xp: xp.ediff1d(xp.asarray(h), to_end=[1, 2], to_begin=xp.asarray([0])),
        lambda xp: xp.ediff1d(xp.asarray(h[0, 0]), to_end=1),
        lambda xp: xp.ediff1d(xp.asarray(h[:0]), to_begin=1),
        lambda xp: xp.ediff1d(xp.asarray(h), to_end=2.5),
        msg(lambda xp: xp.ediff1d(xp.asarray(h), to_begin=1j)),
    ])


# ---- gradient, unwrap -------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["int16", "uint8", "float16", "float32", "float64", "complex64", "complex128"])
def test_gradient(device, dt):
    h = _data((5, 6), dt, 0, 20)
    cx = numpy.cumsum(_data((5,), "float64", 1, 3))
    cy = numpy.cumsum(_data((6,), "float32", 1, 3))
    even = numpy.arange(6) * 2
    check([
        lambda xp: xp.gradient(xp.asarray(h)),
        lambda xp: xp.gradient(xp.asarray(h), 2.0),
        lambda xp: xp.gradient(xp.asarray(h), 2),
        lambda xp: xp.gradient(xp.asarray(h), 0.5, 3.0),
        lambda xp: xp.gradient(xp.asarray(h), xp.asarray(cx), xp.asarray(cy)),
        lambda xp: xp.gradient(xp.asarray(h), xp.asarray(cx), 1.5, edge_order=2),
        lambda xp: xp.gradient(xp.asarray(h), axis=1),
        lambda xp: xp.gradient(xp.asarray(h), xp.asarray(even), axis=-1),
        lambda xp: xp.gradient(xp.asarray(h), xp.asarray(cy), axis=1, edge_order=2),
        lambda xp: xp.gradient(xp.asarray(h), edge_order=2),
        lambda xp: xp.gradient(xp.asarray(h), axis=(1, 0)),
        lambda xp: xp.gradient(xp.asarray(h)[::2, ::-1]),
        lambda xp: xp.gradient(xp.asarray(h[0])),
        lambda xp: xp.gradient(xp.asarray(h[0]), xp.asarray(numpy.float32(0.25))),
    ], rtol=_tol(dt) * 10, atol=_tol(dt))


def test_gradient_errors(device):
    f = numpy.arange(12.0).reshape(3, 4)
    check([
        lambda xp: xp.gradient(xp.asarray(f), axis=2),
        lambda xp: xp.gradient(xp.asarray(f), axis=(0, 0)),
        msg(lambda xp: xp.gradient(xp.asarray(f), 1.0, 2.0, 3.0)),
        msg(lambda xp: xp.gradient(xp.asarray(f), xp.ones((3, 1)), 1.0)),
        msg(lambda xp: xp.gradient(xp.asarray(f), xp.ones(4), 1.0)),
        msg(lambda xp: xp.gradient(xp.asarray(f), edge_order=3)),
        msg(lambda xp: xp.gradient(xp.asarray(f[:2]), edge_order=2)),
        lambda xp: xp.gradient(xp.asarray(f[:1]), xp.asarray([0.0]), 1.0),
        lambda xp: xp.gradient(xp.asarray([True, False, True])),
        lambda xp: xp.gradient(xp.asarray(3.0)),
    ])


@pytest.mark.parametrize("dt", ["int32", "int64", "float32", "float64"])
def test_unwrap(device, dt):
    h = numpy.cumsum(_data((4, 9), "float64", -4, 4), axis=1)
    h = numpy.mod(h, 2 * numpy.pi) if dt.startswith("float") else numpy.mod(h * 10, 20)
    h = h.astype(dt)
    check([
        lambda xp: xp.unwrap(xp.asarray(h)),
        lambda xp: xp.unwrap(xp.asarray(h), axis=0),
        lambda xp: xp.unwrap(xp.asarray(h), discont=4.0),
        lambda xp: xp.unwrap(xp.asarray(h), period=20),
        lambda xp: xp.unwrap(xp.asarray(h), period=7),
        lambda xp: xp.unwrap(xp.asarray(h)[:, ::2], period=5.5),
        lambda xp: xp.unwrap(xp.asarray(h[:, :0])),
        lambda xp: xp.unwrap(xp.asarray(h[0, 0])),
    ], rtol=_tol(dt) * 10, atol=_tol(dt) * 10)


def test_unwrap_values(device):
    check([
        lambda xp: xp.unwrap(xp.asarray([0.0, 3.5, 7.0, 0.1, -3.0, 3.2])),
        lambda xp: xp.unwrap(xp.asarray([0, 1, 2, -1, 0]), period=4),
        lambda xp: xp.unwrap(xp.asarray([2, 3, 4, 5, 2, 3, 4, 5]), period=4),
        lambda xp: xp.unwrap(xp.asarray([1, 2, 3, 4, 5, 6, 1, 2, 3]), period=6),
        lambda xp: xp.unwrap(xp.asarray([True, False, True])),
    ])


# ---- comparisons and type queries -------------------------------------------------------

def test_array_equiv(device):
    check([
        lambda xp: xp.array_equiv(xp.asarray([1, 2]), xp.asarray([1, 2])),
        lambda xp: xp.array_equiv(xp.asarray([1, 2]), xp.asarray([1, 3])),
        lambda xp: xp.array_equiv(xp.asarray([1, 2]), xp.asarray([[1, 2], [1, 2]])),
        lambda xp: xp.array_equiv(xp.asarray([1, 2]), xp.asarray([[1, 2, 1, 2], [1, 2, 1, 2]])),
        lambda xp: xp.array_equiv(xp.asarray([1, 2]), [[1, 2], [1, 3]]),
        lambda xp: xp.array_equiv(xp.asarray([1.0, numpy.nan]), xp.asarray([1.0, numpy.nan])),
        lambda xp: xp.array_equiv(xp.asarray(3), 3.0),
        lambda xp: xp.array_equiv(xp.zeros((0, 3)), xp.zeros(3)),
        lambda xp: xp.array_equiv(xp.zeros((2, 3))[:, ::2], xp.zeros(2)),
    ])


def test_isscalar_iterable(device):
    objects = [lambda xp: 3, lambda xp: 3.5j, lambda xp: numpy.float32(1), lambda xp: "s", lambda xp: b"b",
               lambda xp: None, lambda xp: [1], lambda xp: (1,), lambda xp: xp.asarray(1.0),
               lambda xp: xp.asarray([1.0]), lambda xp: xp.zeros((0,)), lambda xp: {}, lambda xp: range(3),
               lambda xp: True, lambda xp: object()]
    check([lambda xp, o=o: (xp.isscalar(o(xp)), xp.iterable(o(xp))) for o in objects])


def test_common_type(device):
    cases = [lambda xp, a=a, b=b: xp.common_type(xp.zeros(2, dtype=a), xp.zeros(2, dtype=b))
             for a in ["int8", "uint64", "float16", "float32", "float64", "complex64", "complex128"]
             for b in ["int32", "float16", "float32", "complex64"]]
    cases += [
        lambda xp: xp.common_type(xp.zeros(2, dtype=xp.float16)),
        lambda xp: xp.common_type(),
        msg(lambda xp: xp.common_type(xp.zeros(2, dtype=bool))),
        lambda xp: xp.common_type([1.0]),
    ]
    check(cases)


def test_min_scalar_type(device):
    check([
        lambda xp: xp.min_scalar_type(3),
        lambda xp: xp.min_scalar_type(-3),
        lambda xp: xp.min_scalar_type(300.5),
        lambda xp: xp.min_scalar_type(1e50),
        lambda xp: xp.min_scalar_type(1 + 2j),
        lambda xp: xp.min_scalar_type(numpy.int64(70000)),
        lambda xp: xp.min_scalar_type(xp.asarray(3)),
        lambda xp: xp.min_scalar_type(xp.asarray(-200, dtype=xp.int64)),
        lambda xp: xp.min_scalar_type(xp.asarray(1.5, dtype=xp.float64)),
        lambda xp: xp.min_scalar_type(xp.asarray(True)),
        lambda xp: xp.min_scalar_type(xp.asarray([3, 4])),
        lambda xp: xp.min_scalar_type(xp.asarray([3.0], dtype=xp.float32)),
        lambda xp: xp.min_scalar_type([1, 2]),
    ])


def test_shares_memory(device):
    def pairs(xp):
        a = xp.arange(24.0).reshape(4, 6)
        b = xp.arange(10)
        return [
            (a, a), (a, a[1:3]), (a[:, ::2], a[:, 1::2]), (a[0], a[1]), (a[:2], a[1:]), (a[:, 0], a[:, 5]),
            (a[::-1], a[3]), (a.T, a[2, 3:4]), (a, a.copy()), (a[:0], a), (b[::3], b[1::3]), (b[::4], b[2::6]),
            (b[::4], b[4::6]), (a.reshape(-1)[::7], a.reshape(-1)[::5][1:]), (a[:, 3], a[3, :3]),
            (a.view(xp.int32)[:, ::2], a[:, :1]), (a.view(xp.int32)[:, 1::2], a), (a, 1.0), ([1], [1]),
            (a[:, :3], a[:, 3:]), (a[::-1, 2:4], a[::2, ::-5]), (a[::-3, 1:5:3], a[1::2, 4:]),
        ]

    n = len(pairs(numpy))
    check([lambda xp, i=i: xp.shares_memory(*pairs(xp)[i]) for i in range(n)]
          + [lambda xp, i=i: xp.shares_memory(*pairs(xp)[i], max_work=0) for i in range(n)])


def test_shares_memory_numpy_and_work(device):
    host = numpy.arange(12.0)
    on_cpu = cunp.asarray(host, device="cpu")  # wraps the NumPy array's memory
    assert cunp.shares_memory(on_cpu, host)
    assert cunp.shares_memory(on_cpu[::2], host[2:3])
    assert not cunp.shares_memory(on_cpu[::2], host[1::2])
    assert numpy.shares_memory(on_cpu[::3], on_cpu[3:4])  # numpy's function dispatches to cunp's
    assert not cunp.shares_memory(cunp.arange(3.0), host)  # another allocation (or another device)
    a = cunp.zeros((3000, 6))
    h = numpy.zeros((3000, 6))
    assert cunp.shares_memory(a[::-3, 2:4], a[::2, ::-5]) == numpy.shares_memory(h[::-3, 2:4], h[::2, ::-5])
    with pytest.raises(numpy.exceptions.TooHardError):
        cunp.shares_memory(a[::-3, 2:4], a[::2, ::-5], max_work=1)


# ---- index and construction helpers -----------------------------------------------------

def test_mask_indices(device):
    check([
        lambda xp: xp.mask_indices(4, xp.triu),
        lambda xp: xp.mask_indices(4, xp.tril, 1),
        lambda xp: xp.mask_indices(3, xp.triu, -1),
        lambda xp: xp.mask_indices(0, xp.triu),
    ])


@pytest.mark.parametrize("dt", ["bool", "int16", "float32", "complex128"])
def test_block(device, dt):
    A = _data((2, 2), dt)
    B = _data((2, 3), dt)
    C = _data((1, 5), dt)
    v = _data((3,), dt)
    check([
        lambda xp: xp.block([[xp.asarray(A), xp.asarray(B)], [xp.asarray(C)]]),
        lambda xp: xp.block([xp.asarray(v), xp.asarray(v)[::2], 1]),
        lambda xp: xp.block([[xp.asarray(v)], [xp.asarray(v)]]),
        lambda xp: xp.block([[[xp.asarray(A)], [xp.asarray(A)]]]),
        lambda xp: xp.block([[1, 2], [3, 4]]),
        lambda xp: xp.block([xp.asarray(A), xp.asarray(A).T]),
        lambda xp: xp.block(xp.asarray(A)),
        lambda xp: xp.block(5),
        lambda xp: xp.block([[xp.asarray(A), xp.asarray(v[:2]).reshape(2, 1)], [xp.zeros((1, 3), dtype=xp.int8)]]),
        msg(lambda xp: xp.block([[xp.asarray(A)], xp.asarray(A)])),
        msg(lambda xp: xp.block([xp.asarray(A), [xp.asarray(A)]])),
        msg(lambda xp: xp.block((xp.asarray(A), xp.asarray(A)))),
        msg(lambda xp: xp.block([[xp.asarray(A)], (xp.asarray(A),)])),
        msg(lambda xp: xp.block([])),
        msg(lambda xp: xp.block([[xp.asarray(A)], []])),
        lambda xp: xp.block([[xp.asarray(A), xp.asarray(C)]]),
    ])


def test_fromfunction(device):
    check([
        lambda xp: xp.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
        lambda xp: xp.fromfunction(lambda i, j: i == j, (3, 3), dtype=int),
        lambda xp: xp.fromfunction(lambda i: i ** 2, (5,), dtype=xp.float32),
        lambda xp: xp.fromfunction(lambda i, j, k, s=1: (i + j + k) * s, (2, 0, 3), s=2),
        lambda xp: xp.fromfunction(lambda i, j, add=0: i - j + add, (2, 3), add=5),
    ])


def _flags(a):
    return (a.dtype, a.shape, bool(a.flags.c_contiguous), bool(a.flags.f_contiguous), bool(a.flags.writeable))


def test_require(device):
    h = numpy.arange(12.0).reshape(3, 4)
    check([
        lambda xp: xp.require(xp.asarray(h)),
        lambda xp: _flags(xp.require(xp.asarray(h), requirements="F")),
        lambda xp: _flags(xp.require(xp.asarray(h).T, requirements=["C", "A"])),
        lambda xp: _flags(xp.require(xp.asarray(h)[:, ::2], dtype=xp.float32, requirements=["W", "O"])),
        lambda xp: _flags(xp.require(xp.asarray(h), dtype=xp.int32, requirements="C")),
        lambda xp: _flags(xp.require(xp.asarray(h)[:, ::2], requirements=["aligned", "E"])),
        lambda xp: _flags(xp.require(xp.asarray(h)[:, ::2], requirements=["F_CONTIGUOUS", "OWNDATA"])),
        lambda xp: xp.require([1, 2], dtype=xp.float32),
        msg(lambda xp: xp.require(xp.asarray(h), requirements="CF")),
        lambda xp: xp.require(xp.asarray(h), requirements="Q"),
    ])
    a = cunp.asarray(h)
    assert cunp.require(a, requirements="C") is a
    assert cunp.require(a[:, ::2], requirements="C") is not a


def test_asarray_chkfinite(device):
    check([
        lambda xp: xp.asarray_chkfinite([1.0, 2.0]),
        lambda xp: xp.asarray_chkfinite(xp.asarray([1, 2]), dtype=xp.float32),
        lambda xp: xp.asarray_chkfinite(xp.asarray([1 + 1j, 2])),
        lambda xp: xp.asarray_chkfinite(xp.asarray([1, 2]), order="F"),
        msg(lambda xp: xp.asarray_chkfinite(xp.asarray([1.0, numpy.inf]))),
        msg(lambda xp: xp.asarray_chkfinite(xp.asarray([1.0, numpy.nan]), dtype=xp.float16)),
        msg(lambda xp: xp.asarray_chkfinite(xp.asarray([complex(1, numpy.nan)]))),
        lambda xp: xp.asarray_chkfinite(xp.asarray([], dtype=xp.float64)),
    ])


# ---- functional helpers -----------------------------------------------------------------

def test_piecewise(device):
    h = numpy.linspace(-3, 3, 13)
    check([
        lambda xp: xp.piecewise(xp.asarray(h), [xp.asarray(h) < 0, xp.asarray(h) >= 0], [-1, 1]),
        lambda xp: xp.piecewise(xp.asarray(h), [xp.asarray(h) < -1, xp.asarray(h) > 1],
                                [lambda x: x * 2, lambda x: x ** 2, lambda x: -x]),
        lambda xp: xp.piecewise(xp.asarray(h), xp.asarray(h) > 0, [lambda x, k: x + k], 10),
        lambda xp: xp.piecewise(xp.asarray(h), [xp.asarray(h) > 0], [lambda x, k=0: x + k, 7], k=3),
        lambda xp: xp.piecewise(xp.asarray(h), [(xp.asarray(h) > 0).tolist()], [5]),
        lambda xp: xp.piecewise(xp.asarray(h)[::2], [xp.asarray(h)[::2] > 10], [lambda x: x * 0 + 1, 2]),
        lambda xp: xp.piecewise(xp.asarray(h.astype(int)), [xp.asarray(h) > 0], [2.7, -1]),
        lambda xp: xp.piecewise(xp.asarray(2.0), xp.asarray(True), [lambda x: x * 3, 0]),
        lambda xp: xp.piecewise(xp.asarray(2.0), [xp.asarray(False), xp.asarray(True)], [1, 2]),
        lambda xp: xp.piecewise(xp.asarray(h).reshape(13, 1), [xp.asarray(h).reshape(13, 1) > 0],
                                [lambda x: x]),
        msg(lambda xp: xp.piecewise(xp.asarray(h), [xp.asarray(h) > 0], [1, 2, 3])),
    ])


def _mean_range(a):
    return a.max() - a.min()


def test_apply_along_axis(device):
    h = _data((3, 4, 5), "float64")
    check([
        lambda xp: xp.apply_along_axis(xp.sum, 0, xp.asarray(h)),
        lambda xp: xp.apply_along_axis(_mean_range, -1, xp.asarray(h)),
        lambda xp: xp.apply_along_axis(xp.sort, 1, xp.asarray(h)),
        lambda xp: xp.apply_along_axis(lambda v: xp.outer(v, v), 2, xp.asarray(h)[:, ::2]),
        lambda xp: xp.apply_along_axis(lambda v, k: v[:k], 0, xp.asarray(h), 2),
        lambda xp: xp.apply_along_axis(lambda v, s=1: (v * s).sum(), 1, xp.asarray(h), s=3),
        lambda xp: xp.apply_along_axis(lambda v: 1, 0, xp.asarray(h[:, 0, 0])),
        msg(lambda xp: xp.apply_along_axis(xp.sum, 0, xp.zeros((3, 0)))),
        lambda xp: xp.apply_along_axis(xp.sum, 0, xp.zeros((0, 3))),
        msg(lambda xp: xp.apply_along_axis(xp.sum, 3, xp.asarray(h))),
        lambda xp: xp.apply_along_axis(xp.sum, 0, xp.asarray(1.0)),
    ], rtol=1e-12)


def test_apply_over_axes(device):
    h = _data((2, 3, 4), "int32")
    check([
        lambda xp: xp.apply_over_axes(xp.sum, xp.asarray(h), [0, 2]),
        lambda xp: xp.apply_over_axes(xp.sum, xp.asarray(h), 1),
        lambda xp: xp.apply_over_axes(xp.max, xp.asarray(h), (-1, 0)),
        lambda xp: xp.apply_over_axes(lambda a, ax: xp.cumsum(a, axis=ax), xp.asarray(h), [2]),
        lambda xp: xp.apply_over_axes(xp.mean, xp.asarray(h)[:, ::2], []),
        msg(lambda xp: xp.apply_over_axes(lambda a, ax: a.ravel(), xp.asarray(h), [0])),
        lambda xp: xp.apply_over_axes(xp.sum, [[1, 2]], 0),
    ])


@pytest.mark.parametrize("dt", ALL)
def test_nanargmin_nanargmax(device, dt):
    h = _data((4, 5), dt)
    if dt in FLOATS + COMPLEX:
        h[0, 1] = h[2, 2] = numpy.nan
        h[:, 3] = numpy.nan
    cases = []
    for f in ("nanargmin", "nanargmax"):
        cases += [
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h)),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h), axis=1),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h), axis=0),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h), axis=1, keepdims=True),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h)[:, ::2], axis=-1),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h[0, 0])),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h[:0]), axis=1),
            lambda xp, f=f: getattr(xp, f)(xp.asarray(h[:0])),
        ]
    cases.append(lambda xp: (lambda o: (xp.nanargmin(xp.asarray(h), axis=1, out=o), o)[1])(xp.zeros(4, xp.int64)))
    if dt in FLOATS + COMPLEX:
        cases += [msg(lambda xp: xp.nanargmin(xp.asarray(h), axis=0)),
                  msg(lambda xp: xp.nanargmax(xp.asarray(h[:, 3])))]
    check(cases)


@pytest.mark.parametrize("dt", REAL + COMPLEX[:1])
def test_i0(device, dt):
    h = _data((3, 5), dt, -30, 30)
    check([
        lambda xp: xp.i0(xp.asarray(h)),
        lambda xp: xp.i0(xp.asarray(h)[:, ::2]),
        lambda xp: xp.i0(xp.asarray(h[0, 0])),
        lambda xp: xp.i0(xp.asarray(h[:0])),
    ], rtol=_tol(dt) or 1e-14)


def test_i0_values(device):
    check([
        lambda xp: xp.i0(xp.asarray([0.0, 1.0, -8.0, 8.0, 8.000001, 700.0, 720.0, numpy.inf, numpy.nan])),
        lambda xp: xp.i0([0, 1, 2, 3]),
        lambda xp: xp.i0(0.5),
    ], rtol=1e-14)


# ---- bits -------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL)
def test_bitwise_count(device, dt):
    h = random_array((9,), dt, low=-(2 ** 40), high=2 ** 40) if dt in INTS else _data((9,), dt)
    if dt in INTS and dt.startswith("int"):
        info = numpy.iinfo(dt)
        h[:3] = [info.min, info.max, -1]
    check([
        lambda xp: xp.bitwise_count(xp.asarray(h)),
        lambda xp: xp.bitwise_count(xp.asarray(h)[::2]),
        lambda xp: xp.bitwise_count(xp.asarray(h[0])),
        lambda xp: xp.bitwise_count(xp.asarray(h[:0])),
    ])


def test_bitwise_count_forms(device):
    check([
        lambda xp: xp.bitwise_count(7),
        lambda xp: xp.bitwise_count([255, 256, -256]),
        lambda xp: (lambda o: (xp.bitwise_count(xp.asarray([3, 7]), out=o), o)[1])(xp.zeros(2, dtype=xp.int64)),
        lambda xp: (lambda o: (xp.bitwise_count(xp.asarray([3, 7]), out=(o,), where=xp.asarray([True, False])),
                               o)[1])(xp.zeros(2, dtype=xp.uint8)),
        msg(lambda xp: xp.bitwise_count(xp.asarray([1.0]))),
    ])
    with pytest.raises(TypeError):  # NumPy's is its TypeError subclass for ufunc casts
        cunp.bitwise_count(cunp.asarray([3, 7]), out=cunp.zeros(2, dtype=cunp.int8), casting="no")


PACK_SHAPES = [(), (5,), (3, 10), (2, 3, 9), (0, 3)]


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int64"])
@pytest.mark.parametrize("order", ["big", "little"])
def test_packbits(device, dt, order):
    cases = []
    for shape in PACK_SHAPES:
        h = random_array(shape, dt, low=-2, high=2)
        cases.append(lambda xp, h=h: xp.packbits(xp.asarray(h), bitorder=order))
        for axis in range(-len(shape), len(shape)):
            cases.append(lambda xp, h=h, axis=axis: xp.packbits(xp.asarray(h), axis=axis, bitorder=order))
    h = random_array((4, 12), dt, low=-2, high=2)
    cases.append(lambda xp: xp.packbits(xp.asarray(h)[::2, ::-3], axis=1, bitorder=order))
    check(cases)


@pytest.mark.parametrize("order", ["big", "little"])
def test_unpackbits(device, order):
    cases = []
    for shape in PACK_SHAPES:
        h = random_array(shape, "uint8", low=0, high=255)
        cases.append(lambda xp, h=h: xp.unpackbits(xp.asarray(h), bitorder=order))
        for axis in range(-len(shape), len(shape)):
            # (NumPy pads an empty input's bits with uninitialized values: no count > 0 there)
            for count in (None, 3, 0, 20, -5, -8) if h.size else (None, 0):
                cases.append(lambda xp, h=h, axis=axis, count=count: xp.unpackbits(xp.asarray(h), axis=axis,
                                                                                    count=count, bitorder=order))
    h = random_array((4, 6), "uint8", low=0, high=255)
    cases += [lambda xp: xp.unpackbits(xp.asarray(h)[::2, ::-1], axis=0, bitorder=order),
              lambda xp: xp.unpackbits(xp.asarray(h), count=-100),
              lambda xp: xp.packbits(xp.unpackbits(xp.asarray(h), axis=1, bitorder=order), axis=1, bitorder=order)]
    check(cases)


def test_pack_errors(device):
    check([
        msg(lambda xp: xp.packbits(xp.asarray([1.0]))),
        msg(lambda xp: xp.packbits(xp.asarray([1]), bitorder="b")),
        msg(lambda xp: xp.packbits(xp.asarray([1]), bitorder=None)),
        msg(lambda xp: xp.packbits(xp.zeros((2, 3), dtype=bool), axis=2)),
        msg(lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.int8))),
        msg(lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), count=-9)),
        msg(lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), bitorder="Little")),
        msg(lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), bitorder=None)),
        msg(lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), bitorder="")),
        lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), bitorder="lxx"),
        lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), bitorder="b"),
        msg(lambda xp: xp.packbits(xp.asarray([1]), bitorder="Big")),
        lambda xp: xp.unpackbits(xp.asarray([1], dtype=xp.uint8), count=1.5),
        lambda xp: xp.packbits([1, 0, 1]),
        lambda xp: xp.packbits([]),
    ])


# ---- histograms in several dimensions ---------------------------------------------------

@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
def test_histogram2d(device, dt):
    x = _data((50,), dt, -5, 5)
    y = _data((50,), dt, 0, 10)
    w = _data((50,), "float64", 0, 2)
    check([
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y)),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=4),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=[3, 5]),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=[-5, -1, 0, 2, 5]),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=[3, xp.asarray([0.0, 2.5, 7.5, 10.0])]),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=5, range=[[-2, 2], [0, 5]]),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=3, density=True),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=3, weights=xp.asarray(w)),
        lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=3, weights=xp.asarray(w), density=True),
        lambda xp: xp.histogram2d(xp.asarray(x)[::2], xp.asarray(y)[1::2], bins=2),
        lambda xp: xp.histogram2d(xp.asarray(x[:0]), xp.asarray(y[:0]), bins=2),
        lambda xp: xp.histogram2d(xp.asarray(x[:1]), xp.asarray(y[:1]), bins=2),
        lambda xp: xp.histogram2d(xp.asarray(x).tolist(), xp.asarray(y), bins=2),
    ], rtol=1e-6 if dt == "float32" else 1e-12)


def test_histogramdd(device):
    s = _data((40, 3), "float64", -3, 3)
    check([
        lambda xp: xp.histogramdd(xp.asarray(s)),
        lambda xp: xp.histogramdd(xp.asarray(s), bins=(2, 3, 4)),
        lambda xp: xp.histogramdd(xp.asarray(s), bins=2, range=[(-1, 1), None, (0, 3)]),
        lambda xp: xp.histogramdd(xp.asarray(s), bins=[[-3, 0, 3], 2, xp.asarray([-3.0, -1.0, 1.0, 3.0])],
                                  density=True),
        lambda xp: xp.histogramdd(xp.asarray(s)[::3, ::2], bins=3),
        lambda xp: xp.histogramdd(xp.asarray(s[:, 0]), bins=4),
        lambda xp: xp.histogramdd([xp.asarray(s[:, 0]), xp.asarray(s[:, 1])], bins=2),
        lambda xp: xp.histogramdd(xp.asarray(s), bins=2, weights=xp.asarray(s[:, 0] ** 2)),
        lambda xp: xp.histogramdd(xp.asarray(numpy.ones((5, 2))), bins=2),
        lambda xp: xp.histogramdd(xp.zeros((0, 2)), bins=2),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), bins=(2, 3))),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), range=[(0, 1)])),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), bins=0)),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), bins=2.5)),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), bins=[[3, 2, 1], 2, 2])),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), bins=[[[1, 2]], 2, 2])),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), range=[(1, 0), None, None])),
        msg(lambda xp: xp.histogramdd(xp.asarray(s), range=[(0, numpy.inf), None, None])),
        msg(lambda xp: xp.histogramdd(xp.asarray([[numpy.nan, 1.0], [1.0, 2.0]]))),
        lambda xp: xp.histogramdd(xp.zeros((2, 2, 2))),
    ], rtol=1e-12)


# ---- matvec, vecmat ---------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL)
def test_matvec_vecmat(device, dt):
    A = _data((2, 3, 4), dt, -3, 3)
    v4 = _data((4,), dt, -3, 3)
    v3 = _data((5, 1, 3), dt, -3, 3)
    check([
        lambda xp: xp.matvec(xp.asarray(A), xp.asarray(v4)),
        lambda xp: xp.matvec(xp.asarray(A)[:, :, ::2], xp.asarray(v4)[::2]),
        lambda xp: xp.matvec(xp.asarray(A[0]), xp.asarray(v4)),
        lambda xp: xp.vecmat(xp.asarray(v3), xp.asarray(A)),
        lambda xp: xp.vecmat(xp.asarray(v3[0, 0]), xp.asarray(A[1])),
        lambda xp: xp.vecmat(xp.asarray(v3)[..., ::-1], xp.asarray(A)[:, ::-1]),
        lambda xp: xp.matvec(xp.asarray(A)[:, :0], xp.asarray(v4)),
        lambda xp: xp.matvec(xp.asarray(A)[:, :, :0], xp.asarray(v4)[:0]),
    ], rtol=_tol(dt) * 10)


def test_matvec_vecmat_forms(device):
    A = numpy.arange(24.0).reshape(2, 3, 4)
    v = numpy.arange(4.0)
    check([
        lambda xp: xp.matvec(xp.asarray(A), xp.asarray(v), dtype=xp.float32),
        lambda xp: xp.matvec([[1, 2]], [1, 2]),
        lambda xp: xp.matvec(xp.asarray(A, dtype=xp.int8), xp.asarray(v, dtype=xp.uint8)),
        lambda xp: (lambda o: (xp.matvec(xp.asarray(A), xp.asarray(v), out=o), o)[1])(xp.zeros((2, 3))),
        lambda xp: (lambda o: (xp.vecmat(xp.asarray(v[:3]), xp.asarray(A), out=(o,)), o)[1])(xp.zeros((2, 4))),
        lambda xp: xp.matvec(xp.asarray(A), xp.asarray(v[:3]), axes=[(0, 1), 0, 0]),
        lambda xp: xp.vecmat(xp.asarray(v[:2]), xp.asarray(A), axes=[0, (0, 2), 0]),
        lambda xp: xp.vecmat(xp.asarray([1j, 2]), xp.asarray([[1, 2], [3, 4j]])),
        msg(lambda xp: xp.matvec(xp.ones((2, 3)), xp.ones(2))),
        msg(lambda xp: xp.matvec(xp.ones(3), xp.ones(3))),
        msg(lambda xp: xp.matvec(xp.ones((2, 3)), xp.asarray(1.0))),
        msg(lambda xp: xp.vecmat(xp.ones(2), xp.ones((3, 2)))),
        msg(lambda xp: xp.vecmat(xp.ones(2), xp.ones(2))),
        msg(lambda xp: xp.matvec(xp.ones((2, 3)), xp.ones(3), out=xp.zeros(3))),
        msg(lambda xp: xp.matvec(xp.ones((2, 3)), xp.ones(3), keepdims=True)),
        msg(lambda xp: xp.vecmat(xp.ones(2), xp.ones((2, 3)), keepdims=True)),
        lambda xp: xp.matvec(xp.asarray(A), xp.asarray(v), signature="ff->f"),
        lambda xp: xp.matvec(xp.ones((4, 2, 3)), xp.ones((5, 3))),
    ])
