"""cunpx.scipy.fft: scipy.fft's functions and signatures over cunp.fft (cuFFT on CUDA
devices). ``workers=`` and ``overwrite_x=`` are accepted and have no effect (the GPU
transforms run on the device, out of place); ``plan=`` takes only None."""
import cunp as _cunp
from cunpx.scipy._fftlog import fht, fhtoffset, ifht  # noqa: F401
from cunpx.scipy._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn  # noqa: F401

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "dct", "idct",
           "dst", "idst", "dctn", "idctn", "dstn", "idstn", "fht", "ifht", "fhtoffset"]


def _check_plan(plan):
    if plan is not None:
        raise NotImplementedError("cunpx.scipy.fft: plan= other than None is not supported (cunp caches cuFFT "
                                  "plans itself), got %r" % (plan,))


def _one_axis(name):
    f = getattr(_cunp.fft, name)

    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_plan(plan)
        return f(x, n=n, axis=axis, norm=norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = "scipy.fft.%s on cunp arrays (cunp.fft.%s)." % (name, name)
    return transform


def _many_axes(name, default_axes):
    f = getattr(_cunp.fft, name)

    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_plan(plan)
        return f(x, s=s, axes=axes, norm=norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = "scipy.fft.%s on cunp arrays (cunp.fft.%s)." % (name, name)
    return transform


fft, ifft, rfft, irfft, hfft, ihfft = (_one_axis(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fft2, ifft2, rfft2, irfft2 = (_many_axes(n, (-2, -1)) for n in ("fft2", "ifft2", "rfft2", "irfft2"))
fftn, ifftn, rfftn, irfftn = (_many_axes(n, None) for n in ("fftn", "ifftn", "rfftn", "irfftn"))
fftshift, ifftshift = _cunp.fft.fftshift, _cunp.fft.ifftshift


def fftfreq(n, d=1.0, *, xp=None, device=None):
    return _cunp.fft.fftfreq(n, d, device=device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    return _cunp.fft.rfftfreq(n, d, device=device)


def next_fast_len(target, real=False):
    """The smallest 2^a 3^b 5^c 7^d >= target: the sizes cuFFT transforms fastest
    (cupyx.scipy.fft.next_fast_len; `real` is accepted for SciPy's signature)."""
    try:
        target = int(target.__index__())
    except AttributeError:
        raise TypeError("target must be an integer, got %r" % (target,)) from None
    if target < 0:
        raise ValueError("Target cannot be negative, got %d" % target)
    if target <= 1:
        return target
    best = None
    p7 = 1
    while p7 < 2 * target:
        p5 = p7
        while p5 < 2 * target:
            p3 = p5
            while p3 < 2 * target:
                p2 = p3
                while p2 < target:
                    p2 *= 2
                if best is None or p2 < best:
                    best = p2
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best
