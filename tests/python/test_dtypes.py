"""dtype rules against NumPy's own answers: promote_types, can_cast, result_type (NEP 50
weak Python scalars), finfo/iinfo, NumPy's dtype objects, unsupported dtypes."""
import itertools

import numpy
import pytest

from conftest import ALL_DTYPES
from helpers import numpy_cunp_equal
import cunp

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
PYTHON_SCALARS = [True, 1, 1.0, 1j]
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind in "fc"]
INT_DTYPES = [d for d in ALL_DTYPES if d.kind in "iu"]
PAIRS = list(itertools.product(ALL_DTYPES, ALL_DTYPES))


def _pair_id(pair):
    return "%s-%s" % (pair[0].name, pair[1].name)


# ---- promote_types


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_promote_types_every_pair(pair):
    a, b = pair
    expected = numpy.promote_types(a, b)
    got = cunp.promote_types(a, b)
    assert got == expected, "promote_types(%s, %s): %s != %s" % (a, b, got, expected)
    assert isinstance(got, numpy.dtype)


def test_promote_types_accepts_type_objects_and_names():
    assert cunp.promote_types(numpy.int8, numpy.uint8) == numpy.dtype(numpy.int16)
    assert cunp.promote_types("i8", "u8") == numpy.dtype(numpy.float64)
    assert cunp.promote_types(float, numpy.complex64) == numpy.dtype(numpy.complex128)
    assert cunp.promote_types(int, bool) == numpy.promote_types(int, bool)


def test_promote_types_rejects_unsupported_dtypes():
    with pytest.raises(TypeError):
        cunp.promote_types(object, numpy.float64)
    with pytest.raises(TypeError):
        cunp.promote_types(numpy.float64, "U3")


# ---- can_cast


@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_can_cast_every_pair_and_rule(pair, casting):
    a, b = pair
    expected = numpy.can_cast(a, b, casting)
    got = cunp.can_cast(a, b, casting)
    assert got is expected, "can_cast(%s, %s, %r): %r != %r" % (a, b, casting, got, expected)


def test_can_cast_default_rule_is_safe():
    assert cunp.can_cast(numpy.int8, numpy.int16) is True
    assert cunp.can_cast(numpy.int16, numpy.int8) is False
    assert cunp.can_cast(numpy.float64, numpy.float32) is numpy.can_cast(numpy.float64, numpy.float32)


def test_can_cast_from_array(device):
    a = cunp.zeros(3, dtype=numpy.float32)
    assert cunp.can_cast(a, numpy.float64) is True
    assert cunp.can_cast(a, numpy.int32) is False
    assert cunp.can_cast(a, numpy.int32, "unsafe") is True


def test_can_cast_python_scalar_is_type_error():
    for value in PYTHON_SCALARS:
        with pytest.raises(TypeError):
            numpy.can_cast(value, numpy.int8)
        with pytest.raises(TypeError):
            cunp.can_cast(value, numpy.int8)


def test_can_cast_unknown_rule_is_value_error():
    with pytest.raises(ValueError):
        numpy.can_cast(numpy.int8, numpy.int16, "sideways")
    with pytest.raises(ValueError):
        cunp.can_cast(numpy.int8, numpy.int16, "sideways")


# ---- result_type (NEP 50)


@pytest.mark.parametrize("scalar", PYTHON_SCALARS, ids=repr)
def test_result_type_dtype_with_weak_scalar(dtype, scalar):
    expected = numpy.result_type(dtype, scalar)
    assert cunp.result_type(dtype, scalar) == expected
    assert cunp.result_type(scalar, dtype) == numpy.result_type(scalar, dtype)


@pytest.mark.parametrize("scalar", PYTHON_SCALARS, ids=repr)
def test_result_type_array_with_weak_scalar(device, dtype, scalar):
    np_arr = numpy.zeros(2, dtype=dtype)
    arr = cunp.zeros(2, dtype=dtype)
    assert cunp.result_type(arr, scalar) == numpy.result_type(np_arr, scalar)


def test_result_type_arrays_of_each_dtype(device):
    for a, b in PAIRS:
        x, y = cunp.zeros(1, dtype=a), cunp.zeros(1, dtype=b)
        assert cunp.result_type(x, y) == numpy.result_type(numpy.zeros(1, a), numpy.zeros(1, b)), (a, b)


@pytest.mark.parametrize("args", [
    (numpy.int8, numpy.uint8, 1),
    (numpy.int8, 1.0),
    (numpy.uint8, 1j),
    (numpy.float16, 1j),
    (numpy.float32, 1j, 1),
    (numpy.float16, numpy.int16, 1.0),
    (numpy.bool_, 1),
    (numpy.bool_, 1.0, True),
    (numpy.bool_, True),
    (numpy.int64, numpy.uint64, 1),
    (numpy.uint64, 1, 1.0),
    (numpy.complex64, 1.0, numpy.float64),
    (numpy.complex64, 1j),
    (numpy.int32, numpy.float16, True),
    (numpy.uint16, numpy.int8, 1j),
    (numpy.float32, numpy.int64),
], ids=lambda args: "-".join(a.__name__ if isinstance(a, type) else repr(a) for a in args))
def test_result_type_mixed(args):
    assert cunp.result_type(*args) == numpy.result_type(*args)


def test_result_type_mixed_arrays_and_scalars(device):
    a = cunp.zeros(2, dtype=numpy.float32)
    b = cunp.zeros(2, dtype=numpy.int16)
    assert cunp.result_type(a, b, 1) == numpy.result_type(numpy.float32, numpy.int16, 1)
    assert cunp.result_type(b, 1.0) == numpy.result_type(numpy.int16, 1.0)
    assert cunp.result_type(a, numpy.complex64, 1) == numpy.result_type(numpy.float32, numpy.complex64, 1)


@pytest.mark.parametrize("args", [
    (True,), (1,), (1.0,), (1j,), (True, 1), (1, 1.0), (1.0, 1j), (True, 1j), (1, True, 1.0),
], ids=repr)
def test_result_type_scalars_only(args):
    assert cunp.result_type(*args) == numpy.result_type(*args)


def test_result_type_numpy_scalars_are_strong():
    assert cunp.result_type(numpy.float32(1), 1.0) == numpy.result_type(numpy.float32(1), 1.0)
    assert cunp.result_type(numpy.int8(1), numpy.int64(1)) == numpy.dtype(numpy.int64)
    assert cunp.result_type(numpy.float64(1), numpy.float16) == numpy.dtype(numpy.float64)


def test_result_type_no_arguments():
    with pytest.raises(ValueError):
        numpy.result_type()
    with pytest.raises(ValueError):
        cunp.result_type()


# ---- finfo / iinfo

FINFO_FIELDS = ["bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal",
                "resolution", "precision", "nmant", "nexp", "minexp", "maxexp", "machep", "negep", "iexp"]


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=lambda d: d.name)
def test_finfo_matches_numpy(dt):
    expected = numpy.finfo(dt)
    got = cunp._core._finfo(dt)
    assert got["dtype"] == expected.dtype
    real = expected.dtype.type
    for field in FINFO_FIELDS:
        want = getattr(expected, field)
        have = got[field]
        if isinstance(want, int):
            assert have == want and isinstance(have, int), "%s.%s: %r != %r" % (dt, field, have, want)
        else:
            # cunp reports doubles; NumPy reports values of the real dtype.
            assert isinstance(have, float)
            assert real(have) == want, "%s.%s: %r != %r" % (dt, field, have, want)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: d.name)
def test_iinfo_matches_numpy(dt):
    expected = numpy.iinfo(dt)
    got = cunp._core._iinfo(dt)
    assert got["bits"] == expected.bits
    assert got["min"] == expected.min and isinstance(got["min"], int)
    assert got["max"] == expected.max and isinstance(got["max"], int)
    assert got["dtype"] == expected.dtype


@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind in "biu"], ids=lambda d: d.name)
def test_finfo_of_non_float_raises_like_numpy(dt):
    with pytest.raises(Exception) as np_err:
        numpy.finfo(dt)
    with pytest.raises(type(np_err.value)):
        cunp._core._finfo(dt)
    with pytest.raises(type(np_err.value)):
        cunp.finfo(dt)


@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind in "bfc"], ids=lambda d: d.name)
def test_iinfo_of_non_integer_raises_like_numpy(dt):
    with pytest.raises(Exception) as np_err:
        numpy.iinfo(dt)
    with pytest.raises(type(np_err.value)):
        cunp._core._iinfo(dt)
    with pytest.raises(type(np_err.value)):
        cunp.iinfo(dt)


def test_public_finfo_iinfo(device):
    assert cunp.finfo(cunp.float32).eps == numpy.finfo(numpy.float32).eps
    assert cunp.iinfo(cunp.int16).max == 32767
    assert cunp.finfo(cunp.zeros(1, dtype=numpy.float16).dtype).max == numpy.finfo(numpy.float16).max


# ---- dtype objects are NumPy's


@pytest.mark.parametrize("name", ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                  "uint64", "float16", "float32", "float64", "complex64", "complex128",
                                  "dtype", "intp", "int_", "half", "single", "double", "cdouble"])
def test_dtype_objects_are_numpys(name):
    assert getattr(cunp, name) is getattr(numpy, name)


def test_array_dtype_is_numpy_dtype(device, dtype):
    a = cunp.zeros(2, dtype=dtype)
    assert isinstance(a.dtype, numpy.dtype)
    assert a.dtype == dtype
    assert a.dtype == dtype.type
    assert a.itemsize == dtype.itemsize


@pytest.mark.parametrize("spec", ["f4", "float", "int", "complex", "bool", "?", "i1", "u8", "e", "D", float, int,
                                  complex, bool])
def test_dtype_specs(device, spec):
    assert cunp.zeros(1, dtype=spec).dtype == numpy.zeros(1, dtype=spec).dtype


# ---- unsupported dtypes


@pytest.mark.parametrize("dt", [object, str, "U3", "S2", "datetime64[s]", "timedelta64[s]", "V4"], ids=str)
def test_unsupported_dtype_in_creation(device, dt):
    for fn in (cunp.zeros, cunp.ones, cunp.empty):
        with pytest.raises(TypeError):
            fn(3, dtype=dt)
    with pytest.raises(TypeError):
        cunp.full(3, 0, dtype=dt)
    with pytest.raises(TypeError):
        cunp.arange(3, dtype=dt)


@pytest.mark.parametrize("host", [
    numpy.array(["a"]), numpy.array([b"ab"]), numpy.array([1, "x"], dtype=object),
    numpy.array(["2020-01-01"], dtype="datetime64[D]"), numpy.array([1], dtype="timedelta64[s]"),
], ids=lambda h: h.dtype.str)
def test_unsupported_dtype_in_asarray(device, host):
    with pytest.raises(TypeError):
        cunp.asarray(host)
    with pytest.raises(TypeError):
        cunp.array(host)


def test_unsupported_dtype_in_astype(device):
    a = cunp.zeros(3)
    with pytest.raises(TypeError):
        a.astype(object)
    with pytest.raises(TypeError):
        a.astype("U4")


def test_non_native_byte_order_input_is_converted(device):
    host = numpy.arange(4, dtype=">i4")
    a = cunp.asarray(host)
    assert a.dtype == numpy.dtype("int32")
    numpy.testing.assert_array_equal(a.get(), host)


@numpy_cunp_equal()
def test_zeros_dtype_spec_error_matches(device, xp):
    return xp.zeros(2, dtype="not a dtype")
