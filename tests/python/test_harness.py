"""The oracle itself must be able to fail."""
import numpy
import pytest

from helpers import assert_array_equal, numpy_cunp_equal
import cunp


def test_assert_array_equal_detects_value_dtype_shape(device):
    a = cunp.asarray(numpy.array([1.0, 2.0]))
    assert_array_equal(a, numpy.array([1.0, 2.0]))
    with pytest.raises(AssertionError):
        assert_array_equal(a, numpy.array([1.0, 3.0]))
    with pytest.raises(AssertionError):
        assert_array_equal(a, numpy.array([1.0, 2.0], dtype=numpy.float32))
    with pytest.raises(AssertionError):
        assert_array_equal(a, numpy.array([[1.0, 2.0]]))


def test_decorator_reports_mismatch(device):
    @numpy_cunp_equal()
    def body(xp):
        return xp.arange(3) if xp is numpy else xp.arange(4)

    with pytest.raises(AssertionError):
        body()


def test_decorator_reports_missing_exception(device):
    @numpy_cunp_equal()
    def body(xp):
        if xp is numpy:
            raise ValueError("numpy raises")
        return xp.arange(3)

    with pytest.raises(pytest.fail.Exception):
        body()
