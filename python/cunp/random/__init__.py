"""cunp.random: NumPy's Generator and legacy APIs, the same stream on CPU and GPU.

The bit generator is Philox4x32-10 with cunp's own counter layout, so the same seed
gives bit-identical integers and uniforms on ``cpu`` and ``cuda`` (other distributions
equal within rounding). Streams differ from NumPy's: see docs/random.md.
"""
from cunp.random._generator import Generator, Philox, SeedSequence, default_rng  # noqa: F401
from cunp.random._legacy import (  # noqa: F401
    RandomState, get_random_state, set_random_state, seed, rand, randn, randint, random, random_sample,
    sample, ranf, uniform, normal, standard_normal, exponential, standard_exponential, standard_gamma,
    gamma, beta, chisquare, lognormal, laplace, logistic, gumbel, weibull, pareto, rayleigh, binomial,
    poisson, geometric, choice, permutation, shuffle, get_state, set_state,
    random_integers, get_bit_generator, set_bit_generator,
)

from cunp.random._bit_generators import MT19937, PCG64, PCG64DXSM, SFC64  # noqa: E402,F401
from cunp.random import _composed  # noqa: E402 - standard_t, dirichlet, multinomial, ... on Generator

_composed._attach_legacy(globals())

BitGenerator = Philox

__all__ = [n for n in dir() if not n.startswith("_")]
