"""A short tour of cunp: the same NumPy code on the default device, checked against
NumPy, and timed against it."""
import time

import numpy as np

import cunp

dev = cunp.zeros(1).device
print("cunp %s on %s (CUDA devices: %d)" % (cunp.__version__, dev, cunp._core._device_count()))

# Arrays, views and basic indexing behave as in NumPy.
a = cunp.arange(12, dtype=np.float32).reshape(3, 4)
print(repr(a))
print("a[1:, ::-2] =\n%s" % a[1:, ::-2])
a[0, :] = -1
print("after a[0, :] = -1:\n%s" % a)
print("a.T is a view:", a.T.base is not None, "| strides", a.T.strides)

# Ufuncs, operators and reductions follow NumPy's dtype rules.
x = cunp.linspace(0, 1, 5, dtype=np.float32)
print("sqrt(x) * 2 + 1 =", cunp.sqrt(x) * 2 + 1, "| sum:", float((x * x).sum()))

# Host <-> device transfers are explicit.
host = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
d = cunp.asarray(host)
assert np.array_equal(d.get(), host)
assert np.array_equal(d.astype(np.float64).get(), host.astype(np.float64))
print("round trip of %d float32 values: exact" % host.size)


def median_seconds(fn, repeat=20):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        cunp.cuda.Device().synchronize() if dev != "cpu" else None
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2]


n = 1 << 26
big_np = np.random.default_rng(1).standard_normal(n).astype(np.float32)
big = cunp.asarray(big_np)
for name, f_np, f_cunp in [
    ("astype float32->float64", lambda: big_np.astype(np.float64), lambda: big.astype(np.float64)),
    ("copy", lambda: big_np.copy(), lambda: big.copy()),
    ("strided copy a[::2].copy()", lambda: big_np[::2].copy(), lambda: big[::2].copy()),
    ("sin(a)", lambda: np.sin(big_np), lambda: cunp.sin(big)),
    ("a * 2.5 + a", lambda: big_np * 2.5 + big_np, lambda: big * 2.5 + big),
    ("a.sum()", lambda: big_np.sum(), lambda: big.sum()),
]:
    f_cunp()  # warm-up (first use may compile a kernel)
    t_np, t_cunp = median_seconds(f_np, 5), median_seconds(f_cunp)
    print("%-28s numpy %8.3f ms   cunp (%s) %8.3f ms   speed-up %6.1fx"
          % (name, t_np * 1e3, dev, t_cunp * 1e3, t_np / t_cunp))
