"""SeedSequence, Philox and Generator over cunp's Philox4x32-10 streams."""
import numbers

import numpy

import cunp
from cunp import _core

_MASK32 = 0xFFFFFFFF


def _int_words(value):
    """A non-negative int as 32-bit words, least significant first (at least one)."""
    value = int(value)
    if value < 0:
        raise ValueError("expected non-negative integer")
    words = [value & _MASK32]
    value >>= 32
    while value:
        words.append(value & _MASK32)
        value >>= 32
    return words


def _entropy_words(entropy):
    if isinstance(entropy, (numbers.Integral, numpy.integer)):
        return _int_words(entropy)
    words = []
    for e in entropy:
        if not isinstance(e, (numbers.Integral, numpy.integer)):
            raise TypeError("SeedSequence expects int or sequence of ints for entropy not %r" % (e,))
        words.extend(_int_words(e))
    return words or [0]


class SeedSequence:
    """numpy.random.SeedSequence's role: entropy plus a spawn key, hashed to a Philox key.

    The hash and spawn() are the C++ library's random::SeedSequence (docs/random.md,
    "Seeding"): spawn() extends the spawn key with 0, 1, ... as NumPy does, so children
    are independent of each other and of the parent."""

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=4, n_children_spawned=0):
        if entropy is None:
            import secrets  # here, not at import: it loads OpenSSL (~4 ms of `import cunp`)

            entropy = secrets.randbits(128)
        self.entropy = entropy
        self.spawn_key = tuple(int(k) for k in spawn_key)
        self.pool_size = pool_size
        self._seq = _core._SeedSequence(_entropy_words(entropy), [k & _MASK32 for k in self.spawn_key],
                                        int(n_children_spawned))

    @property
    def n_children_spawned(self):
        return self._seq.n_children_spawned

    def generate_key(self):
        """The 64-bit Philox key of this sequence."""
        return self._seq.generate_key()

    def spawn(self, n_children):
        children = []
        for seq in self._seq.spawn(int(n_children)):
            child = SeedSequence.__new__(SeedSequence)
            child.entropy, child.pool_size, child._seq = self.entropy, self.pool_size, seq
            child.spawn_key = self.spawn_key + tuple(seq.spawn_key[len(self.spawn_key):])
            children.append(child)
        return children

    def __repr__(self):
        return "SeedSequence(entropy=%r, spawn_key=%r)" % (self.entropy, self.spawn_key)


class Philox:
    """Philox4x32-10 with a 64-bit key and a 48-bit draw counter (one step per array drawn).

    Philox(seed) seeds through SeedSequence; Philox(key=k) uses k directly, as NumPy's
    Philox(key=...) does (then spawn() is unavailable)."""

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            self.seed_seq = None
            key = int(key)
            if not 0 <= key < 2**64:
                raise ValueError("key must be a 64-bit unsigned integer")
        else:
            self.seed_seq = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
            key = self.seed_seq.generate_key()
        self._impl = _core._philox_from_key(key, int(counter or 0))

    @property
    def key(self):
        return self._impl.key

    @property
    def counter(self):
        return self._impl.counter

    @property
    def state(self):
        return {"bit_generator": "Philox", "state": {"key": self.key, "counter": self.counter}}

    @state.setter
    def state(self, value):
        if value.get("bit_generator") != "Philox":
            raise ValueError("state must be for a Philox RNG")
        self._impl = _core._philox_from_key(int(value["state"]["key"]), int(value["state"]["counter"]))

    def advance(self, delta):
        """Skips `delta` draws (arrays), like drawing and discarding them."""
        self._impl.counter = self._impl.counter + int(delta)
        return self

    def spawn(self, n_children):
        if self.seed_seq is None:
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [Philox(s) for s in self.seed_seq.spawn(n_children)]

    def __repr__(self):
        return "Philox(key=%#x, counter=%d)" % (self.key, self.counter)


def _finish(result, size, out=None):
    """NumPy returns Python scalars for size=None with scalar parameters, arrays otherwise."""
    if out is not None:
        if out.shape != result.shape:
            raise ValueError("size must match out.shape when used together")
        out[...] = result
        return out
    if size is None and result.ndim == 0:
        return result.get()[()].item()
    return result


def _size_of_out(size, out):
    if out is not None:
        if not isinstance(out, cunp.ndarray):
            raise TypeError("out must be a cunp.ndarray")
        if size is not None and tuple(numpy.atleast_1d(size)) != out.shape:
            raise ValueError("size must match out.shape when used together")
        return out.shape
    return size


def _out_dtype(dtype, out):
    if out is not None and numpy.dtype(dtype) != out.dtype:
        raise TypeError("Supplied output array has the wrong type. Expected %s, got %s"
                        % (numpy.dtype(dtype), out.dtype))
    return dtype


def _as_int_scalar(x):
    """NumPy ints as Python ints (0-d arrays stay arrays, handled in C++)."""
    return x.item() if isinstance(x, numpy.generic) else x


# The bit generators a Generator accepts (Philox here; the NumPy-stream ones of
# _bit_generators.py add themselves).
_BIT_GENERATOR_TYPES = (Philox,)


class Generator:
    """numpy.random.Generator over cunp's Philox: same method names and arguments; the
    streams are cunp's own and are bit-identical between devices. Every floating
    distribution takes ``dtype`` (float32 or float64), which NumPy has only for some.
    Distribution parameters may be scalars or arrays (cunp, NumPy, lists), broadcast as
    NumPy does; cunp arrays are read on their device."""

    def __init__(self, bit_generator):
        if not hasattr(bit_generator, "_impl") or not isinstance(bit_generator, _BIT_GENERATOR_TYPES):
            raise TypeError("Generator: bit_generator must be a cunp.random bit generator (Philox, PCG64, "
                            "PCG64DXSM, MT19937 or SFC64), got %s" % type(bit_generator).__name__)
        self._bit_generator = bit_generator
        self._source = bit_generator._impl
        self._generator = _core._generator(self._source)

    @property
    def _impl(self):
        # Setting bit_generator.state replaces its engine: draw from the new one.
        source = self._bit_generator._impl
        if source is not self._source:
            self._source, self._generator = source, _core._generator(source)
        return self._generator

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    def __repr__(self):
        return "Generator(%s)" % type(self._bit_generator).__name__

    # ---- floating distributions (NumPy's out= where NumPy has it)
    def random(self, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.random(size, _out_dtype(dtype, out), None), size, out)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_normal(size, _out_dtype(dtype, out), None), size, out)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError("method must be either 'inv' or 'zig'")
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_exponential(size, _out_dtype(dtype, out), None), size, out)

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_gamma(shape, size, _out_dtype(dtype, out), None), size, out)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.uniform(low, high, size, dtype, None), size)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.normal(loc, scale, size, dtype, None), size)

    def exponential(self, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.exponential(scale, size, dtype, None), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.lognormal(mean, sigma, size, dtype, None), size)

    def gamma(self, shape, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.gamma(shape, scale, size, dtype, None), size)

    def beta(self, a, b, size=None, dtype=numpy.float64):
        return _finish(self._impl.beta(a, b, size, dtype, None), size)

    def chisquare(self, df, size=None, dtype=numpy.float64):
        return _finish(self._impl.chisquare(df, size, dtype, None), size)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.laplace(loc, scale, size, dtype, None), size)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.logistic(loc, scale, size, dtype, None), size)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.gumbel(loc, scale, size, dtype, None), size)

    def weibull(self, a, size=None, dtype=numpy.float64):
        return _finish(self._impl.weibull(a, size, dtype, None), size)

    def pareto(self, a, size=None, dtype=numpy.float64):
        return _finish(self._impl.pareto(a, size, dtype, None), size)

    def rayleigh(self, scale=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.rayleigh(scale, size, dtype, None), size)

    # ---- discrete distributions (int64; Python ints for size=None and scalar parameters)
    def poisson(self, lam=1.0, size=None):
        return _finish(self._impl.poisson(lam, size, None), size)

    def geometric(self, p, size=None):
        return _finish(self._impl.geometric(p, size, None), size)

    def binomial(self, n, p, size=None):
        return _finish(self._impl.binomial(_as_int_scalar(n), p, size, None), size)

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        r = self._impl.integers(_as_int_scalar(low), _as_int_scalar(high), size, numpy.dtype(dtype),
                                bool(endpoint), None)
        # NumPy gives a NumPy scalar of `dtype` here (unlike the distributions).
        return r.get()[()] if size is None and r.ndim == 0 else r

    # ---- permutations and sampling: index streams on the host, gathers on the device
    def permutation(self, x, axis=0):
        if isinstance(x, (numbers.Integral, numpy.integer)):
            return self._impl.permutation(int(x), None)
        arr = x if isinstance(x, cunp.ndarray) else cunp.asarray(x)
        return self._impl.permutation_array(arr, axis)

    def shuffle(self, x, axis=0):
        if not isinstance(x, cunp.ndarray):
            raise TypeError("cunp.random.shuffle needs a cunp.ndarray")
        self._impl.shuffle(x, axis)

    def permuted(self, x, axis=None, out=None):
        arr = x if isinstance(x, cunp.ndarray) else cunp.asarray(x)
        if out is not None and not isinstance(out, cunp.ndarray):
            raise TypeError("out must be a cunp.ndarray")
        r = self._impl.permuted(arr, axis, out)
        return out if out is not None else r

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if isinstance(a, (numbers.Integral, numpy.integer)):
            r = self._impl.choice(int(a), size, bool(replace), p, axis, bool(shuffle), None)
            return int(r.get()[()]) if size is None else r
        population = a if isinstance(a, cunp.ndarray) else cunp.asarray(a)
        r = self._impl.choice(population, size, bool(replace), p, axis, bool(shuffle), None)
        return r.get()[()] if size is None and r.ndim == 0 else r


def default_rng(seed=None):
    """numpy.random.default_rng: a Generator over Philox seeded from `seed` (None, an int,
    a sequence of ints, a SeedSequence, a Philox or a Generator)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _BIT_GENERATOR_TYPES):
        return Generator(seed)
    return Generator(Philox(seed))
