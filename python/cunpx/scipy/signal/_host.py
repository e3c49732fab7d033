"""The boundary between the host-side designs and cunp arrays.

Filter design (coefficients, orders, prototypes) is a few hundred flops on a few tens of
numbers, so it runs on the host in NumPy, as SciPy's does; SciPy's own functions are
never called. ``host_function`` wraps such a NumPy function: cunp array arguments are
read back to NumPy, and every NumPy array in the result is placed on the device of the
first cunp argument (the current device when there is none). Gains and other scalars
stay Python/NumPy scalars, as SciPy returns them.
"""
import functools

import numpy as np

import cunp


def device_of(*objs):
    """The device of the first cunp array among objs, or None (the current device)."""
    for o in objs:
        if isinstance(o, cunp.ndarray):
            return o.device
        if isinstance(o, (list, tuple)):
            d = device_of(*o)
            if d is not None:
                return d
    return None


def to_host(x):
    """x with every cunp array in it (also inside lists and tuples) read back to NumPy."""
    if isinstance(x, cunp.ndarray):
        return x.get()
    if isinstance(x, list):
        return [to_host(v) for v in x]
    if isinstance(x, tuple):
        return tuple(to_host(v) for v in x)
    return x


def to_device(x, device=None):
    """x with every NumPy array in it (inside tuples too) placed on `device` as cunp."""
    if isinstance(x, np.ndarray):
        return cunp.asarray(x, device=device)
    if isinstance(x, tuple):
        return tuple(to_device(v, device) for v in x)
    return x


def host_function(fn):
    """fn (NumPy in, NumPy out) as a function of cunp or NumPy arguments returning cunp
    arrays (module docstring)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        dev = device_of(*args, *kwargs.values())
        result = fn(*to_host(args), **{k: to_host(v) for k, v in kwargs.items()})
        return to_device(result, dev)

    wrapper.__name__ = wrapper.__qualname__ = fn.__name__.lstrip("_")
    wrapper.__wrapped_host__ = fn
    return wrapper


def validate_fs(fs, allow_none=True):
    """SciPy's _validate_fs: None (where allowed) or a single real scalar, as float."""
    if fs is None:
        if not allow_none:
            raise ValueError("Sampling frequency can not be none.")
        return None
    if isinstance(fs, cunp.ndarray):
        fs = fs.get()
    if not np.isscalar(fs) and not (isinstance(fs, np.ndarray) and fs.ndim == 0):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)
