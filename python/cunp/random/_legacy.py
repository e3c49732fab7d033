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
        if seed is not None and not isinstance(seed, (numbers.Integral, numpy.integer, SeedSequence)):
            seed = [int(s) for s in numpy.asarray(seed).ravel()]
        self._gen = Generator(Philox(seed))

    def get_state(self):
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    def rand(self, *args):
        return self._gen.random(args or None)

    def randn(self, *args):
        return self._gen.standard_normal(args or None)

    def randint(self, low, high=None, size=None, dtype=int):
        if high is None:
            low, high = 0, low
        r = self._gen.integers(low, high, size=size, dtype=dtype)
        return int(r) if numpy.dtype(dtype) == numpy.dtype(int) and isinstance(r, numpy.generic) else r

    def random_sample(self, size=None):
        return self._gen.random(size)

    random = random_sample
    sample = random_sample
    ranf = random_sample

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._gen.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._gen.normal(loc, scale, size)

    def standard_normal(self, size=None):
        return self._gen.standard_normal(size)

    def exponential(self, scale=1.0, size=None):
        return self._gen.exponential(scale, size)

    def standard_exponential(self, size=None):
        return self._gen.standard_exponential(size)

    def standard_gamma(self, shape, size=None):
        return self._gen.standard_gamma(shape, size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._gen.gamma(shape, scale, size)

    def beta(self, a, b, size=None):
        return self._gen.beta(a, b, size)

    def chisquare(self, df, size=None):
        return self._gen.chisquare(df, size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._gen.lognormal(mean, sigma, size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._gen.laplace(loc, scale, size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._gen.logistic(loc, scale, size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._gen.gumbel(loc, scale, size)

    def weibull(self, a, size=None):
        return self._gen.weibull(a, size)

    def pareto(self, a, size=None):
        return self._gen.pareto(a, size)

    def rayleigh(self, scale=1.0, size=None):
        return self._gen.rayleigh(scale, size)

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


def rand(*args):
    return get_random_state().rand(*args)


def randn(*args):
    return get_random_state().randn(*args)


def randint(low, high=None, size=None, dtype=int):
    return get_random_state().randint(low, high, size, dtype)


def random_sample(size=None):
    return get_random_state().random_sample(size)


random = random_sample
sample = random_sample
ranf = random_sample


def uniform(low=0.0, high=1.0, size=None):
    return get_random_state().uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return get_random_state().normal(loc, scale, size)


def standard_normal(size=None):
    return get_random_state().standard_normal(size)


def exponential(scale=1.0, size=None):
    return get_random_state().exponential(scale, size)


def standard_exponential(size=None):
    return get_random_state().standard_exponential(size)


def standard_gamma(shape, size=None):
    return get_random_state().standard_gamma(shape, size)


def gamma(shape, scale=1.0, size=None):
    return get_random_state().gamma(shape, scale, size)


def beta(a, b, size=None):
    return get_random_state().beta(a, b, size)


def chisquare(df, size=None):
    return get_random_state().chisquare(df, size)


def lognormal(mean=0.0, sigma=1.0, size=None):
    return get_random_state().lognormal(mean, sigma, size)


def laplace(loc=0.0, scale=1.0, size=None):
    return get_random_state().laplace(loc, scale, size)


def logistic(loc=0.0, scale=1.0, size=None):
    return get_random_state().logistic(loc, scale, size)


def gumbel(loc=0.0, scale=1.0, size=None):
    return get_random_state().gumbel(loc, scale, size)


def weibull(a, size=None):
    return get_random_state().weibull(a, size)


def pareto(a, size=None):
    return get_random_state().pareto(a, size)


def rayleigh(scale=1.0, size=None):
    return get_random_state().rayleigh(scale, size)


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
