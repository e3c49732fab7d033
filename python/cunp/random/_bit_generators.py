"""NumPy's other bit generators: MT19937, PCG64, PCG64DXSM and SFC64.

Note [Stream bit generators]: each holds NumPy's algorithm and state exactly — the same
seed gives NumPy's ``random_raw()`` words, ``state`` dicts (settable), ``jumped()``,
``advance()`` and ``spawn()`` — kept on the host, where these sequential recurrences
run. A ``Generator`` over one of them draws its arrays on the device from Philox (the
engine every cunp distribution kernel runs on), keyed by the next 64-bit word of the bit
generator's stream when the Generator is made or the state changes: the same seed and
state give the same Generator stream, different ones give independent streams, and the
distributions stay fast on the GPU. Generator streams therefore differ from NumPy's for
every bit generator, as they do for Philox (docs/random.md, docs/differences.md).
"""
import numbers

import numpy

from cunp import _core
from cunp.random._generator import SeedSequence


def _numpy_seed(seed):
    """The NumPy SeedSequence equal to cunp's seed argument (ints, sequences, NumPy or
    cunp SeedSequences), so the raw stream is NumPy's for the same seed."""
    if isinstance(seed, numpy.random.SeedSequence):
        return seed
    if isinstance(seed, SeedSequence):
        return numpy.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                         n_children_spawned=seed.n_children_spawned)
    if seed is not None and not isinstance(seed, (numbers.Integral, numpy.integer)):
        seed = [int(s) for s in numpy.asarray(seed).ravel()]
    return numpy.random.SeedSequence(seed)


class _StreamBitGenerator:
    _numpy_class = None

    def __init__(self, seed=None):
        self._numpy = self._numpy_class(_numpy_seed(seed))
        self._rekey()

    @classmethod
    def _wrap(cls, numpy_bit_generator):
        self = cls.__new__(cls)
        self._numpy = numpy_bit_generator
        self._rekey()
        return self

    def _rekey(self):
        probe = self._numpy_class(0)
        probe.state = self._numpy.state
        self._engine = _core._philox_from_key(int(probe.random_raw()), 0)

    @property
    def _impl(self):
        return self._engine

    @property
    def seed_seq(self):
        return self._numpy.seed_seq

    @property
    def state(self):
        return self._numpy.state

    @state.setter
    def state(self, value):
        self._numpy.state = value
        self._rekey()

    def random_raw(self, size=None, output=True):
        """NumPy's raw 64-bit (MT19937: 32-bit) words of this stream, as a NumPy value."""
        r = self._numpy.random_raw(size, output)
        self._rekey()
        return r

    def spawn(self, n_children):
        return [type(self)._wrap(b) for b in self._numpy.spawn(n_children)]

    def __getstate__(self):
        return {"state": self.state}

    def __setstate__(self, d):
        self._numpy = self._numpy_class(0)
        self.state = d["state"]

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, hex(id(self)))


class MT19937(_StreamBitGenerator):
    """numpy.random.MT19937 (Mersenne Twister): state, random_raw, jumped, spawn."""
    _numpy_class = numpy.random.MT19937

    def jumped(self, jumps=1):
        return MT19937._wrap(self._numpy.jumped(jumps))


class PCG64(_StreamBitGenerator):
    """numpy.random.PCG64 (128-bit LCG, XSL-RR output): state, random_raw, advance, jumped."""
    _numpy_class = numpy.random.PCG64

    def jumped(self, jumps=1):
        return type(self)._wrap(self._numpy.jumped(jumps))

    def advance(self, delta):
        self._numpy.advance(delta)
        self._rekey()
        return self


class PCG64DXSM(PCG64):
    """numpy.random.PCG64DXSM (PCG64 with the DXSM output function)."""
    _numpy_class = numpy.random.PCG64DXSM


class SFC64(_StreamBitGenerator):
    """numpy.random.SFC64 (Small Fast Chaotic): state, random_raw, spawn."""
    _numpy_class = numpy.random.SFC64


from cunp.random import _generator  # noqa: E402

_generator._BIT_GENERATOR_TYPES = _generator._BIT_GENERATOR_TYPES + (MT19937, PCG64, PCG64DXSM, SFC64)
