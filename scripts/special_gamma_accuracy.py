"""Measures cunpx.scipy.special's gamma family against SciPy on the cpu device: the
worst relative error of the float64 and float32 loops over the test grids of
tests/python/test_special_gamma.py, densified (more points between the grid's own).
Prints the table of docs/scipy/special-gamma.md.

    PYTHONPATH=build/python python3 scripts/special_gamma_accuracy.py

float32 is compared with SciPy's float64 result of the same float32 inputs, rounded
(cunp's float32 loops compute in double; some of SciPy's compute in float)."""
import importlib.util
import pathlib
import sys
import warnings

import numpy

import cunp
import cunpx.scipy.special as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("t", ROOT / "tests/python/test_special_gamma.py")
t = importlib.util.module_from_spec(spec)
sys.path.insert(0, str(ROOT / "tests/python"))
spec.loader.exec_module(t)


def densify(a, factor):
    """The grid's values plus `factor - 1` points between each neighbouring pair of its
    finite values (edges kept)."""
    a = numpy.asarray(a, dtype=numpy.float64)
    fin = numpy.unique(a[numpy.isfinite(a)])
    extra = [fin[:-1] + (fin[1:] - fin[:-1]) * k / factor for k in range(1, factor)]
    return numpy.concatenate([a] + extra)


def worst(got, want, tiny):
    got, want = numpy.asarray(got, numpy.float64).ravel(), numpy.asarray(want, numpy.float64).ravel()
    fin = numpy.isfinite(got) & numpy.isfinite(want) & ~((numpy.abs(got) < tiny) & (numpy.abs(want) < tiny))
    special = (numpy.isnan(got) != numpy.isnan(want)) | ((numpy.isinf(got) | numpy.isinf(want)) & (got != want))
    with numpy.errstate(all="ignore"):
        e = numpy.abs(got[fin] - want[fin]) / numpy.abs(want[fin])
    return (float(e.max()) if e.size else 0.0), int(special.sum())


# Points left out where SciPy is known to be wrong (tests/python/test_special_gamma.py says
# why): zeta(x, q) at odd x and half-integer q < 0, where SciPy's terms cancel exactly.
EXCLUDE = {"_zeta": lambda x, q: ~((q < 0) & (numpy.mod(q, 1) == 0.5) & (numpy.mod(x, 2) == 1))}


def main():
    warnings.simplefilter("ignore")
    print("| function | points | worst rel. err. f64 | worst rel. err. f32 | special values differing |")
    print("| --- | --- | --- | --- | --- |")
    with cunp.Device("cpu"):
        for name, ref, args, _ in t.CASES:
            if len(args) == 1:
                args = [densify(args[0], 8)]
            else:
                # the grids are flattened meshes: densify each axis and mesh again
                axes = [numpy.unique(a[~numpy.isnan(a)]) for a in args]
                axes = [densify(ax, 3 if len(args) == 2 else 2) for ax in axes]
                args = t.grid(*axes)
                if name in EXCLUDE:
                    keep = EXCLUDE[name](*args)
                    args = [a[keep] for a in args]
            want = ref(*args)
            got = getattr(sp, name)(*[cunp.asarray(a) for a in args]).get()
            e64, s64 = worst(got, want, 1e-250)
            with numpy.errstate(over="ignore"):
                a32 = [a.astype(numpy.float32) for a in args]
            want32 = numpy.asarray(ref(*[a.astype(numpy.float64) for a in a32])).astype(numpy.float32)
            got32 = getattr(sp, name)(*[cunp.asarray(a) for a in a32]).get()
            e32, _ = worst(got32, want32, 1e-36)
            print("| %s | %d | %.1e | %.1e | %d |" % (name, want.size, e64, e32, s64))
        inverses()
        complex_normal()


def inverses():
    """The beta-family parameter inverses on the grids of test_beta_family_parameter_inverses,
    each axis densified, without the points that test leaves out (SciPy older than 1.18:
    bdtrik ... nbdtrin inside their domains only)."""
    for name, axes, domain, _ in t.BETA_INVERSES:
        axes = [densify(ax, 2) for ax in axes]
        args = t.grid(*axes)
        keep = numpy.ones(args[0].size, bool)
        if domain is not None and not t.SCIPY_118:
            keep &= domain(*args) & domain(*[a.astype(numpy.float32).astype(numpy.float64) for a in args])
        if name == "fdtridfd":
            keep &= ~((args[0] > 2) & (args[2] < 1))
        if name == "btdtrib":
            keep &= ~((args[2] == 1) & t._open01(args[1]))
        args = [a[keep] for a in args]
        want = getattr(t.S, name)(*args)
        got = getattr(sp, name)(*[cunp.asarray(a) for a in args]).get()
        e64, s64 = worst(got, want, 1e-40)
        a32 = [a.astype(numpy.float32) for a in args]
        want32 = getattr(t.S, name)(*[a.astype(numpy.float64) for a in a32]).astype(numpy.float32)
        e32, _ = worst(getattr(sp, name)(*[cunp.asarray(a) for a in a32]).get(), want32, 1e-12)
        print("| %s | %d | %.1e | %.1e | %d |" % (name, want.size, e64, e32, s64))


def complex_normal():
    """Complex ndtr and log_ndtr on the grid of test_complex_ndtr_log_ndtr densified:
    the worst error relative to |SciPy's value| (log_ndtr: also where Re z > 0 and
    |log_ndtr| < 0.7, where SciPy's is the less accurate)."""
    x = densify(numpy.concatenate([t._lin(-40, 40, 33), [-7.0, -6.5, -0.3, 0.3, 6.5, 7.0]]), 3)
    z = (x[:, None] + 1j * x[None, :]).ravel()
    for name in ("ndtr", "log_ndtr"):
        want = getattr(t.S, name)(z)
        got = getattr(sp, name)(cunp.asarray(z)).get()
        fin = numpy.isfinite(want) & numpy.isfinite(got) & (numpy.abs(want) > 1e-300)
        e = numpy.abs(got[fin] - want[fin]) / numpy.abs(want[fin])
        near = (z[fin].real > 0) & (numpy.abs(want[fin]) < 0.7) if name == "log_ndtr" else numpy.zeros(e.size, bool)
        print("| %s (complex) | %d | %.1e | near 1: %.1e |" % (name, z.size, e[~near].max(), e[near].max() if near.any() else 0))


if __name__ == "__main__":
    main()
