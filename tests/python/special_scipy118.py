"""SciPy 1.18's loop types of the scipy.special ufuncs cunp implements, for the tests'
dtype oracle.

SciPy 1.18 reordered the loops of most scipy.special ufuncs so that the float32 loop
comes first ("f->f d->d F->F D->D"; 1.17 and older listed "d->d f->f D->D F->F" or
"d->d D->D f->f F->F"), so that float16, bool and the small integers now resolve to
float32 (erf(int8) is float32 in 1.18, float64 in 1.17). cunp follows SciPy 1.18. Where
the installed SciPy is 1.18 or newer the tests compare with it directly; with an older
SciPy they compare with this table, which lists SciPy 1.18.1's `types` of every ufunc
cunp has whose loops 1.18 changed (the others are the installed SciPy's). The table is
checked against the installed SciPy whenever that is 1.18 or newer."""
import numpy
import scipy
import scipy.special

SCIPY_118 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)

TYPES_118 = {
    "_riemann_zeta": "f->f d->d F->F D->D",
    "_spherical_in": "lf->f ld->d lF->F lD->D",
    "_spherical_in_d": "lf->f ld->d lF->F lD->D",
    "_spherical_jn": "lf->f ld->d lF->F lD->D",
    "_spherical_jn_d": "lf->f ld->d lF->F lD->D",
    "_spherical_kn": "lf->f ld->d lF->F lD->D",
    "_spherical_kn_d": "lf->f ld->d lF->F lD->D",
    "_spherical_yn": "lf->f ld->d lF->F lD->D",
    "_spherical_yn_d": "lf->f ld->d lF->F lD->D",
    "beta": "ff->f dd->d",
    "betaln": "ff->f dd->d",
    "cosdg": "f->f d->d",
    "cotdg": "f->f d->d",
    "dawsn": "f->f d->d F->F D->D",
    "ellipe": "f->f d->d",
    "ellipeinc": "ff->f dd->d",
    "ellipj": "ff->ffff dd->dddd",
    "ellipk": "f->f d->d",
    "ellipkinc": "ff->f dd->d",
    "ellipkm1": "f->f d->d",
    "erf": "f->f d->d F->F D->D",
    "erfc": "f->f d->d F->F D->D",
    "erfcx": "f->f d->d F->F D->D",
    "erfi": "f->f d->d F->F D->D",
    "exp10": "f->f d->d",
    "expit": "f->f d->d g->g",
    "gamma": "f->f d->d F->F D->D",
    "gammainc": "ff->f dd->d",
    "gammaincc": "ff->f dd->d",
    "gammainccinv": "ff->f dd->d",
    "gammaincinv": "ff->f dd->d",
    "gammaln": "f->f d->d",
    "gammasgn": "f->f d->d",
    "i0": "f->f d->d",
    "i0e": "f->f d->d",
    "i1": "f->f d->d",
    "i1e": "f->f d->d",
    "j0": "f->f d->d",
    "j1": "f->f d->d",
    "k0": "f->f d->d",
    "k0e": "f->f d->d",
    "k1": "f->f d->d",
    "k1e": "f->f d->d",
    "log_expit": "f->f d->d g->g",
    "log_ndtr": "f->f d->d F->F D->D",
    "loggamma": "f->f d->d F->F D->D",
    "ndtr": "f->f d->d F->F D->D",
    "psi": "f->f d->d F->F D->D",
    "radian": "fff->f ddd->d",
    "rgamma": "f->f d->d F->F D->D",
    "sindg": "f->f d->d",
    "tandg": "f->f d->d",
    "wofz": "F->F D->D",
    "xlog1py": "ff->f dd->d FF->F DD->D",
    "xlogy": "ff->f dd->d FF->F DD->D",
    "y0": "f->f d->d",
    "y1": "f->f d->d",
    "zetac": "f->f d->d",
}


def _scipy_ufunc(name):
    return getattr(scipy.special._ufuncs, name, None) or getattr(scipy.special, name)


def scipy_types(name):
    """SciPy 1.18's loop types of the ufunc `name`, without the long-double loops."""
    if SCIPY_118 or name not in TYPES_118:
        types = list(_scipy_ufunc(name).types)
    else:
        types = TYPES_118[name].split()
    return [t for t in types if "g" not in t and "G" not in t]


def resolved_dtype(name, dtypes):
    """The output dtype SciPy 1.18's type resolution picks for inputs of these dtypes:
    the first loop all of them cast to safely (NumPy 2's rule for arrays)."""
    for t in scipy_types(name):
        ins, outs = t.split("->")
        if all(numpy.can_cast(numpy.dtype(d), numpy.dtype(c), "safe") for d, c in zip(dtypes, ins)):
            return numpy.dtype(outs[0])
    raise TypeError("no loop of %s for %s" % (name, dtypes))
