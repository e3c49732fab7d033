"""Shared fixtures: every test runs on each available device and, where it takes a
`dtype`, on each of cunp's 14 dtypes."""
import os
import sys

import numpy
import pytest

import cunp
from helpers import test_rng


def _devices():
    env = os.environ.get("CUNP_TEST_DEVICES")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    return ["cpu", "cuda"] if cunp.cuda.is_available() else ["cpu"]


DEVICES = _devices()
ALL_DTYPES = [numpy.dtype(t) for t in (
    numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16,
    numpy.uint32, numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64,
    numpy.complex128)]


def pytest_report_header(config):
    return "cunp test devices: %s" % ", ".join(DEVICES)


@pytest.fixture(params=DEVICES)
def device(request):
    """Makes the device current for the test and yields its name ('cpu' or 'cuda:0').

    On cuda the device is synchronized after the test: a kernel fault (an illegal
    address, say) is sticky and would fail every later test of the process, so the
    process ends here naming the test that caused it (pytest-xdist then reports that
    test as crashed and starts a fresh worker for the rest)."""
    name = "cuda:0" if request.param == "cuda" else request.param
    with cunp.Device(name):
        yield name
        if name != "cpu":
            try:
                cunp.cuda.Device().synchronize()
            except Exception as e:  # noqa: BLE001 - any failure here means a lost context
                sys.stderr.write("\nCUDA context lost after %s: %s\n" % (request.node.nodeid, e))
                sys.stderr.flush()
                os._exit(86)


@pytest.fixture(params=ALL_DTYPES, ids=lambda d: d.name)
def dtype(request):
    return request.param


@pytest.fixture
def rng():
    """A generator seeded from the test's node id (helpers.test_rng): reproducible data."""
    return test_rng()


def needs_cuda(fn):
    return pytest.mark.skipif("cuda" not in DEVICES, reason="needs a CUDA device")(fn)
