"""NumPy's legacy API (RandomState and the module-level functions) over the same Philox
streams as Generator. Streams differ from NumPy's MT19937 ones; seeding the same value
gives the same numbers on every cunp device (docs/random.md)."""
import numbers

import numpy

from cunp.random._generator import Generator, Philox, SeedSequence


class RandomState:
    """numpy.random.RandomState's methods over cunp's Philox (not MT19937)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        from cunp.random import _generator

        if isinstance(seed, _generator._BIT_GENERATOR_TYPES):  # RandomState(MT19937(...)), as NumPy's
            self._gen = Generator(seed)
            return
        if seed is not None and not isinstance(seed, (numbers.Integral, numpy.integer, SeedSequence)):
            seed = [int(s) for s in numpy.asarray(seed).ravel()]
        self._gen = Generator(Philox(seed))

    def get_state(self):
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    def rand(self, *size, dtype=float):
        return self._gen.random(size or None, dtype=dtype)

    def randn(self, *size, dtype=float):
        return self._gen.standard_normal(size or None, dtype=dtype)

    def randint(self, low, high=None, size=None, dtype=int):
        if high is None:
            low, high = 0, low
        r = self._gen.integers(low, high, size=size, dtype=dtype)
        return int(r) if numpy.dtype(dtype) == numpy.dtype(int) and isinstance(r, numpy.generic) else r

    def random_sample(self, size=None, dtype=float):
        return self._gen.random(size, dtype=dtype)

    random = random_sample
    sample = random_sample
    ranf = random_sample

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        return self._gen.uniform(low, high, size, dtype=dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._gen.normal(loc, scale, size, dtype=dtype)

    def standard_normal(self, size=None, dtype=float):
        return self._gen.standard_normal(size, dtype=dtype)

    def exponential(self, scale=1.0, size=None, dtype=float):
        return self._gen.exponential(scale, size, dtype=dtype)

    def standard_exponential(self, size=None, dtype=float):
        return self._gen.standard_exponential(size, dtype=dtype)

    def standard_gamma(self, shape, size=None, dtype=float):
        return self._gen.standard_gamma(shape, size, dtype=dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        return self._gen.gamma(shape, scale, size, dtype=dtype)

    def beta(self, a, b, size=None, dtype=float):
        return self._gen.beta(a, b, size, dtype=dtype)

    def chisquare(self, df, size=None, dtype=float):
        return self._gen.chisquare(df, size, dtype=dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        return self._gen.lognormal(mean, sigma, size, dtype=dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._gen.laplace(loc, scale, size, dtype=dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._gen.logistic(loc, scale, size, dtype=dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._gen.gumbel(loc, scale, size, dtype=dtype)

    def weibull(self, a, size=None, dtype=float):
        return self._gen.weibull(a, size, dtype=dtype)

    def pareto(self, a, size=None, dtype=float):
        return self._gen.pareto(a, size, dtype=dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        return self._gen.rayleigh(scale, size, dtype=dtype)

    def binomial(self, n, p, size=None):
        return self._gen.binomial(n, p, size)

    def poisson(self, lam=1.0, size=None):
        return self._gen.poisson(lam, size)

    def geometric(self, p, size=None):
        return self._gen.geometric(p, size)

    def choice(self, a, size=None, replace=True, p=None):
        return self._gen.choice(a, size=size, replace=replace, p=p)

    def permutation(self, x):
        return self._gen.permutation(x)

    def shuffle(self, x):
        self._gen.shuffle(x)

    def __repr__(self):
        return "RandomState(Philox)"


_global = None


def get_random_state():
    """The RandomState behind the module-level functions (CuPy's name)."""
    global _global
    if _global is None:
        _global = RandomState()
    return _global


def set_random_state(rs):
    global _global
    if not isinstance(rs, RandomState):
        raise TypeError("set_random_state needs a cunp.random.RandomState")
    _global = rs


def seed(seed=None):
    get_random_state().seed(seed)


def rand(*size, dtype=float):
    return get_random_state().rand(*size, dtype=dtype)


def randn(*size, dtype=float):
    return get_random_state().randn(*size, dtype=dtype)


def random_integers(low, high=None, size=None):
    """numpy.random.random_integers: integers in [low, high] (high=None: [1, low]),
    deprecated as in NumPy (DeprecationWarning naming the randint call to use)."""
    import warnings

    if high is None:
        warnings.warn("This function is deprecated. Please call randint(1, %r + 1) instead" % (low,),
                      DeprecationWarning, stacklevel=2)
        low, high = 1, low
    else:
        warnings.warn("This function is deprecated. Please call randint(%r, %r + 1) instead" % (low, high),
                      DeprecationWarning, stacklevel=2)
    return get_random_state().randint(low, high + 1, size)


def get_bit_generator():
    """The bit generator behind the module-level functions (a cunp Philox)."""
    return get_random_state()._gen.bit_generator


def set_bit_generator(bitgen):
    """Makes the module-level functions draw from `bitgen` (a cunp.random.Philox)."""
    gen = Generator(bitgen)  # TypeError for anything but a Philox, before any change
    rs = RandomState.__new__(RandomState)
    rs._gen = gen
    set_random_state(rs)


def get_state():
    """The state of the RandomState behind the module-level functions."""
    return get_random_state().get_state()


def set_state(state):
    get_random_state().set_state(state)


def randint(low, high=None, size=None, dtype=int):
    return get_random_state().randint(low, high, size, dtype)


def random_sample(size=None, dtype=float):
    return get_random_state().random_sample(size, dtype=dtype)


random = random_sample
sample = random_sample
ranf = random_sample


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    return get_random_state().uniform(low, high, size, dtype=dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().normal(loc, scale, size, dtype=dtype)


def standard_normal(size=None, dtype=float):
    return get_random_state().standard_normal(size, dtype=dtype)


def exponential(scale=1.0, size=None, dtype=float):
    return get_random_state().exponential(scale, size, dtype=dtype)


def standard_exponential(size=None, dtype=float):
    return get_random_state().standard_exponential(size, dtype=dtype)


def standard_gamma(shape, size=None, dtype=float):
    return get_random_state().standard_gamma(shape, size, dtype=dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    return get_random_state().gamma(shape, scale, size, dtype=dtype)


def beta(a, b, size=None, dtype=float):
    return get_random_state().beta(a, b, size, dtype=dtype)


def chisquare(df, size=None, dtype=float):
    return get_random_state().chisquare(df, size, dtype=dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=float):
    return get_random_state().lognormal(mean, sigma, size, dtype=dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().laplace(loc, scale, size, dtype=dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().logistic(loc, scale, size, dtype=dtype)


def gumbel(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().gumbel(loc, scale, size, dtype=dtype)


def weibull(a, size=None, dtype=float):
    return get_random_state().weibull(a, size, dtype=dtype)


def pareto(a, size=None, dtype=float):
    return get_random_state().pareto(a, size, dtype=dtype)


def rayleigh(scale=1.0, size=None, dtype=float):
    return get_random_state().rayleigh(scale, size, dtype=dtype)


def binomial(n, p, size=None):
    return get_random_state().binomial(n, p, size)


def poisson(lam=1.0, size=None):
    return get_random_state().poisson(lam, size)


def geometric(p, size=None):
    return get_random_state().geometric(p, size)


def choice(a, size=None, replace=True, p=None):
    return get_random_state().choice(a, size, replace, p)


def permutation(x):
    return get_random_state().permutation(x)


def shuffle(x):
    get_random_state().shuffle(x)
