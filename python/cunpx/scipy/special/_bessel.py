"""The spherical Bessel functions of scipy.special (Python functions over the private
ufuncs ``_spherical_jn`` ... and their derivatives ``_spherical_jn_d`` ..., as SciPy
defines them): real arguments; the order ``n`` is an integer array or scalar."""
from cunp import _core

_u = _core._special_ufuncs

__all__ = ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"]


def _spherical(name, doc):
    value, derivative_ufunc = _u["_" + name], _u["_" + name + "_d"]

    def f(n, z, derivative=False):
        return (derivative_ufunc if derivative else value)(n, z)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


spherical_jn = _spherical("spherical_jn", """scipy.special.spherical_jn: the spherical Bessel function of
    the first kind j_n(z) = sqrt(pi / (2 z)) J_{n+1/2}(z), or its derivative.""")
spherical_yn = _spherical("spherical_yn", """scipy.special.spherical_yn: the spherical Bessel function of
    the second kind y_n(z) = sqrt(pi / (2 z)) Y_{n+1/2}(z), or its derivative.""")
spherical_in = _spherical("spherical_in", """scipy.special.spherical_in: the modified spherical Bessel
    function of the first kind i_n(z) = sqrt(pi / (2 z)) I_{n+1/2}(z), or its derivative.""")
spherical_kn = _spherical("spherical_kn", """scipy.special.spherical_kn: the modified spherical Bessel
    function of the second kind k_n(z) = sqrt(pi / (2 z)) K_{n+1/2}(z), or its derivative.""")
