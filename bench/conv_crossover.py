"""Measures where cunpx.scipy.signal.convolve's FFT method overtakes the direct one on a
device (the cpu device by default) and fits the seconds per operation of each method to
SciPy's operation-count model (Note [Convolution crossover] in
python/cunpx/scipy/signal/_convolve.py):

    PYTHONPATH=build/python python3 bench/conv_crossover.py [--device cpu] [--quick]

Prints, per dimensionality and mode, the fitted O_fft and O_direct (s/op) and the
measured times, and a table of the kernel sizes where the methods cross.
"""
import argparse
import itertools
import math
import time

import numpy as np

import cunp
import cunpx.scipy.signal as sig
from cunpx.scipy.signal import _convolve


def best_time(fn, min_total=0.02, repeat=3):
    fn()
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        cunp.asnumpy(out.ravel()[-1:])
        dt = time.perf_counter() - t0
        if dt >= min_total or number >= 1 << 16:
            break
        number *= 4
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        cunp.asnumpy(out.ravel()[-1:])
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def cases(quick):
    one = [1 << 10, 1 << 13, 1 << 16] if quick else [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18]
    taps = [3, 9, 33, 129, 513] if quick else [3, 9, 17, 33, 65, 129, 257, 513, 1025]
    for n, k in itertools.product(one, taps):
        if k < n:
            yield (n,), (k,)
    two = [64, 256, 1024] if quick else [64, 128, 256, 512, 1024]
    kern = [3, 5, 9, 17, 33] if quick else [3, 5, 7, 9, 13, 17, 25, 33]
    for n, k in itertools.product(two, kern):
        if k < n:
            yield (n, n), (k, k)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    rng = np.random.default_rng(0)
    rows = {}
    with cunp.Device(args.device):
        for s1, s2 in cases(args.quick):
            x = cunp.asarray(rng.standard_normal(s1).astype(np.float64))
            h = cunp.asarray(rng.standard_normal(s2).astype(np.float64))
            for mode in ("full", "same", "valid"):
                fft_ops, direct_ops = _convolve._conv_ops(s1, s2, mode)
                t_fft = best_time(lambda: sig.convolve(x, h, mode, method="fft"))
                t_dir = best_time(lambda: sig.convolve(x, h, mode, method="direct"))
                rows.setdefault((len(s1), mode), []).append((s1, s2, fft_ops, direct_ops, t_fft, t_dir))
    print("device %s" % args.device)
    for (nd, mode), data in sorted(rows.items()):
        fo = np.array([r[2] for r in data])
        do = np.array([r[3] for r in data])
        tf = np.array([r[4] for r in data])
        td = np.array([r[5] for r in data])
        # Least squares through the origin, relative errors (each time weighted by 1/t).
        o_fft = float(np.sum(fo / tf) / np.sum((fo / tf) ** 2))
        o_dir = float(np.sum(do / td) / np.sum((do / td) ** 2))
        print("\n%d-d %s: O_fft = %.3g s/op, O_direct = %.3g s/op" % (nd, mode, o_fft, o_dir))
        print("  %-14s %-10s %12s %12s  faster  model" % ("in1", "in2", "fft (ms)", "direct (ms)"))
        for (s1, s2, f, d, a, b) in data:
            model = "fft" if o_fft * f < o_dir * d else "direct"
            print("  %-14s %-10s %12.3f %12.3f  %-6s  %s" % ("x".join(map(str, s1)), "x".join(map(str, s2)),
                                                            a * 1e3, b * 1e3, "fft" if a < b else "direct", model))


if __name__ == "__main__":
    main()
