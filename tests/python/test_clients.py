"""Libraries that take cunp arrays: Dask (cunp chunks), xarray (cunp data), scikit-learn
(array_api_dispatch) and SciPy (SCIPY_ARRAY_API=1), each against its NumPy result, on
every device."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import cunp


def _close(got, want, rtol=1e-10):
    assert type(got) is cunp.ndarray, type(got)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-12)


# ---- Dask ----------------------------------------------------------------------------------

def test_dask_array_of_cunp_chunks(device):
    da = pytest.importorskip("dask.array")
    h = numpy.arange(48.0).reshape(6, 8) / 7
    x = cunp.asarray(h, device=device)
    d = da.from_array(x, chunks=(2, 3), asarray=False)
    assert type(d._meta) is cunp.ndarray
    assert d.numblocks == (3, 3)
    hd = da.from_array(h, chunks=(2, 3))
    cases = [
        lambda a, xp: (a * 2 + 1).sum(axis=0),
        lambda a, xp: xp.sin(a).mean(axis=1),
        lambda a, xp: (a - a.mean()).std(),
        lambda a, xp: a.max(axis=0) - a.min(axis=0),
        lambda a, xp: (a @ a.T)[1:4],
        lambda a, xp: a.T[::2] + 3,
        lambda a, xp: a.cumsum(axis=1),
        lambda a, xp: (a > 2).sum(),
    ]
    import dask.array

    for case in cases:
        got = case(d, dask.array).compute()
        want = case(hd, dask.array).compute()
        assert type(got) is cunp.ndarray
        assert str(got.device) == str(x.device)
        _close(got, want)
    # the chunks stayed cunp arrays on the device
    blocks = d.blocks[1, 2].compute()
    assert type(blocks) is cunp.ndarray and str(blocks.device) == str(x.device)
    _close(blocks, h[2:4, 6:8])


# ---- xarray ---------------------------------------------------------------------------------

def test_xarray_keeps_cunp_data(device):
    xr = pytest.importorskip("xarray")
    h = numpy.arange(24.0).reshape(4, 6) ** 1.5
    x = cunp.asarray(h, device=device)
    A = xr.DataArray(x, dims=("time", "space"), coords={"time": numpy.arange(4)})
    H = xr.DataArray(h, dims=("time", "space"), coords={"time": numpy.arange(4)})
    assert type(A.data) is cunp.ndarray
    for f in (lambda a: a.mean("time"), lambda a: a.sum("space"), lambda a: (a * 2 - a.mean()).std("time"),
              lambda a: a.isel(time=slice(1, 3)) + 1, lambda a: a.max(), lambda a: abs(-a).min("space"),
              lambda a: a.where(a > 10, 0), lambda a: a.transpose("space", "time")):
        got, want = f(A), f(H)
        assert type(got.data) is cunp.ndarray, f
        _close(got.data, want.data)
        assert got.dims == want.dims


# ---- scikit-learn and SciPy through the Array API ----------------------------------------------

def _needs_array_api():
    if not hasattr(cunp, "__array_namespace_info__"):
        pytest.skip("cunp is not an Array API namespace in this build")


def _run_fresh(code):
    """Runs `code` in a fresh interpreter with SCIPY_ARRAY_API=1 (read when SciPy is first
    imported; scikit-learn's array API mode needs it too); it prints "ok" at the end."""
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


def test_sklearn_array_api_dispatch(device):
    _needs_array_api()
    pytest.importorskip("sklearn")
    pytest.importorskip("array_api_compat")
    _run_fresh("""
        import numpy, cunp, sklearn
        from sklearn.decomposition import PCA
        from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
        from sklearn.linear_model import Ridge

        rng = numpy.random.default_rng(7)
        X = rng.standard_normal((60, 5))
        X[:, 1] += 2 * X[:, 0]
        y = (X[:, 0] + 0.3 * rng.standard_normal(60) > 0).astype(numpy.int64)
        t = X @ numpy.array([1.0, -2.0, 0.5, 0.0, 3.0]) + 0.1 * rng.standard_normal(60)
        Xc, yc, tc = (cunp.asarray(v, device=%r) for v in (X, y, t))
        with sklearn.config_context(array_api_dispatch=True):
            pca = PCA(n_components=2, svd_solver="full").fit(Xc)
            lda = LinearDiscriminantAnalysis(solver="svd").fit(Xc, yc)
            ridge = Ridge(alpha=0.5, solver="svd").fit(Xc, tc)
            pred, proj, lda_pred = ridge.predict(Xc), pca.transform(Xc), lda.predict(Xc)
        ref_pca = PCA(n_components=2, svd_solver="full").fit(X)
        ref_lda = LinearDiscriminantAnalysis(solver="svd").fit(X, y)
        ref_ridge = Ridge(alpha=0.5, solver="svd").fit(X, t)
        for name, v in [("components_", pca.components_), ("coef_", ridge.coef_), ("pred", pred),
                        ("lda.coef_", lda.coef_), ("proj", proj)]:
            assert type(v) is cunp.ndarray and str(v.device) == str(Xc.device), (name, type(v))
        close = numpy.testing.assert_allclose
        # Principal components are defined up to sign: compare magnitudes.
        close(abs(pca.components_.get()), abs(ref_pca.components_), rtol=1e-8, atol=1e-10)
        close(pca.explained_variance_.get(), ref_pca.explained_variance_, rtol=1e-8)
        close(abs(proj.get()), abs(ref_pca.transform(X)), rtol=1e-8, atol=1e-10)
        close(ridge.coef_.get(), ref_ridge.coef_, rtol=1e-8)
        close(pred.get(), ref_ridge.predict(X), rtol=1e-8)
        close(lda.coef_.get(), ref_lda.coef_, rtol=1e-6, atol=1e-8)
        numpy.testing.assert_array_equal(cunp.asnumpy(lda_pred), ref_lda.predict(X))
        print("ok")
    """ % device)


def test_scipy_array_api_mode(device):
    _needs_array_api()
    pytest.importorskip("scipy")
    pytest.importorskip("array_api_compat")
    _run_fresh("""
        import numpy, cunp, scipy.special, scipy.fft, scipy.stats
        h = numpy.linspace(-2, 2, 11)
        x = cunp.asarray(h, device=%r)
        for name, got, want in [
                ("erf", scipy.special.erf(x), scipy.special.erf(h)),
                ("fft", scipy.fft.fft(x), scipy.fft.fft(h)),
                ("zscore", scipy.stats.zscore(x), scipy.stats.zscore(h))]:
            assert type(got) is cunp.ndarray, (name, type(got))
            assert str(got.device) == str(x.device), name
            numpy.testing.assert_allclose(cunp.asnumpy(got), want, rtol=1e-10, atol=1e-12, err_msg=name)
        print("ok")
    """ % device)
