"""Dask arrays with cunp chunks over two GPUs: one dask.distributed worker per GPU, each
pinned with CUDA_VISIBLE_DEVICES (docs/multi-gpu.md). Skips without dask.distributed or
with fewer than 2 GPUs; NumPy on the same data is the oracle."""
import numpy
import pytest

import cunp

N_GPUS = cunp.cuda.runtime.getDeviceCount() if cunp.cuda.is_available() else 0
pytestmark = pytest.mark.skipif(N_GPUS < 2, reason="needs 2 CUDA devices")


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    workers = {
        "gpu%d" % i: {"cls": distributed.Nanny,
                      "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(i)}}}
        for i in range(2)
    }
    cluster = distributed.SpecCluster(
        scheduler={"cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}},
        workers=workers)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _on_gpus(x):
    return x.map_blocks(cunp.asarray, dtype=x.dtype)


def test_each_worker_has_its_own_gpu(client):
    import os
    seen = client.run(lambda: (os.environ.get("CUDA_VISIBLE_DEVICES"), cunp.cuda.runtime.getDeviceCount()))
    assert sorted(v[0] for v in seen.values()) == ["0", "1"]
    assert all(v[1] == 1 for v in seen.values())


def test_sum_elementwise_matmul_rechunk(client):
    da = pytest.importorskip("dask.array")
    host = numpy.random.default_rng(7).random((2048, 512))
    x = _on_gpus(da.from_array(host, chunks=(256, 512)))
    total = x.sum().compute()
    assert isinstance(total, cunp.ndarray)
    numpy.testing.assert_allclose(cunp.asnumpy(total), host.sum(), rtol=1e-12)
    y = (2 * x + 1).compute()
    numpy.testing.assert_allclose(cunp.asnumpy(y), 2 * host + 1)
    g = (x.T @ x).compute()
    numpy.testing.assert_allclose(cunp.asnumpy(g), host.T @ host, rtol=1e-10)
    r = x.rechunk((512, 128)).sum(axis=0).compute()
    numpy.testing.assert_allclose(cunp.asnumpy(r), host.sum(axis=0), rtol=1e-12)
