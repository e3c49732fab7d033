"""NumPy's host-side namespace on cunp arrays: file and text I/O round trips landing on
the device, printing to strings, dtype utilities, ndindex/ndenumerate, isfortran,
row_stack, flatiter — against NumPy, on every device."""
import io
import warnings

import numpy
import pytest

import cunp


def _same(got, want):
    assert type(got) is cunp.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got.get(), want)


def test_npy_npz_round_trips(device, tmp_path, dtype):
    h = (numpy.arange(12) % 5).astype(dtype).reshape(3, 4)
    a = cunp.asarray(h, device=device)
    cunp.save(tmp_path / "a.npy", a[:, ::-1])
    _same(cunp.load(tmp_path / "a.npy"), h[:, ::-1])
    assert str(cunp.load(tmp_path / "a.npy", device="cpu").device) == "cpu"
    cunp.savez(tmp_path / "z.npz", a, twice=a * 2)
    cunp.savez_compressed(tmp_path / "c.npz", a)
    with cunp.load(tmp_path / "z.npz") as z:
        assert sorted(z.files) == ["arr_0", "twice"] and "twice" in z and len(z) == 2
        _same(z["arr_0"], h)
        _same(z["twice"], h * 2)
        assert str(z["twice"].device) == device
    _same(cunp.load(tmp_path / "c.npz")["arr_0"], h)


def test_text_and_buffer_readers(device, tmp_path):
    h = numpy.arange(6.0).reshape(2, 3) / 4
    cunp.savetxt(tmp_path / "t.txt", cunp.asarray(h, device=device), fmt="%.6f", delimiter=",")
    _same(cunp.loadtxt(tmp_path / "t.txt", delimiter=","), numpy.loadtxt(tmp_path / "t.txt", delimiter=","))
    _same(cunp.genfromtxt(io.StringIO("1,2\n3,nan"), delimiter=","),
          numpy.genfromtxt(io.StringIO("1,2\n3,nan"), delimiter=","))
    h.tofile(tmp_path / "raw.bin")
    _same(cunp.fromfile(tmp_path / "raw.bin"), numpy.fromfile(tmp_path / "raw.bin"))
    _same(cunp.frombuffer(b"\x01\x02\x03\x04", dtype=numpy.uint16), numpy.frombuffer(b"\x01\x02\x03\x04", numpy.uint16))
    _same(cunp.fromstring("1 2 3", sep=" "), numpy.fromstring("1 2 3", sep=" "))
    _same(cunp.fromiter((i * i for i in range(5)), dtype=numpy.int32), numpy.arange(5, dtype=numpy.int32) ** 2)
    assert str(cunp.fromiter(range(3), dtype=float, device="cpu").device) == "cpu"


def test_strings_and_utilities(device):
    h = numpy.array([[0.125, -2.0], [numpy.nan, 1e10]])
    a = cunp.asarray(h, device=device)
    assert cunp.array_repr(a) == numpy.array_repr(h)
    assert cunp.array_str(a, precision=2) == numpy.array_str(h, precision=2)
    assert cunp.array2string(a, separator=", ") == numpy.array2string(h, separator=", ")
    assert cunp.base_repr(255, 16) == "FF" and cunp.binary_repr(-5, width=8) == numpy.binary_repr(-5, width=8)
    assert cunp.issubdtype(cunp.float32, cunp.floating) and not cunp.issubdtype(cunp.int8, cunp.floating)
    assert cunp.mintypecode(["d", "f"]) == "d" and cunp.typename("f") == numpy.typename("f")
    assert list(cunp.ndindex(2, 2)) == list(numpy.ndindex(2, 2))
    assert list(cunp.ndenumerate(cunp.asarray([[1, 2], [3, 4]], device=device))) == \
        list(numpy.ndenumerate(numpy.array([[1, 2], [3, 4]])))
    f = cunp.asarray(numpy.ones((2, 3)), device=device)
    assert cunp.isfortran(f.T) and not cunp.isfortran(f) and not cunp.isfortran(cunp.ones(3, device=device))
    with pytest.warns(DeprecationWarning, match="row_stack"):
        r = cunp.row_stack([f, f * 2])
    _same(r, numpy.vstack([numpy.ones((2, 3)), 2 * numpy.ones((2, 3))]))
    assert type(f.flat) is cunp.flatiter


def test_vectorize(device):
    def clipped(x, lo=0.0):
        return x if x > lo else lo

    h = numpy.array([[-1.0, 2.0], [3.5, -0.5]])
    a = cunp.asarray(h, device=device)
    for kw in ({}, {"otypes": [numpy.float32]}):
        got, want = cunp.vectorize(clipped, **kw)(a), numpy.vectorize(clipped, **kw)(h)
        _same(got, want)
        assert str(got.device) == device
    _same(cunp.vectorize(clipped, excluded={"lo"})(a, lo=1.0), numpy.vectorize(clipped, excluded={"lo"})(h, lo=1.0))
    both = cunp.vectorize(lambda x: (x + 1, x * 2))(a)
    want = numpy.vectorize(lambda x: (x + 1, x * 2))(h)
    _same(both[0], want[0])
    _same(both[1], want[1])
    sig = cunp.vectorize(lambda v: v.sum(), signature="(n)->()")(a)
    _same(sig, numpy.vectorize(lambda v: v.sum(), signature="(n)->()")(h))

    @cunp.vectorize(otypes=[numpy.int64])
    def count_digits(x):
        return len(str(int(abs(x))))

    _same(count_digits(cunp.asarray([5, 123, -40], device=device)), numpy.array([1, 3, 2]))
