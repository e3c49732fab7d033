"""SeedSequence, Philox and Generator over cunp's Philox4x32-10 streams."""
import numbers
import secrets

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

    The hash is cunp's own (docs/random.md, "Seeding"); spawn() extends the spawn key
    with 0, 1, ... as NumPy does, so children are independent of each other and of the
    parent."""

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=4, n_children_spawned=0):
        if entropy is None:
            entropy = secrets.randbits(128)
        self.entropy = entropy
        self.spawn_key = tuple(int(k) for k in spawn_key)
        self.pool_size = pool_size
        self.n_children_spawned = n_children_spawned
        self._words = _entropy_words(entropy)

    def generate_key(self):
        """The 64-bit Philox key of this sequence."""
        return _core._random_seed_key(self._words, [k & _MASK32 for k in self.spawn_key])

    def spawn(self, n_children):
        children = [SeedSequence(self.entropy, spawn_key=self.spawn_key + (self.n_children_spawned + i,),
                                 pool_size=self.pool_size) for i in range(n_children)]
        self.n_children_spawned += n_children
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


def _scalar_param(name, value):
    if isinstance(value, cunp.ndarray):
        value = value.get()
    arr = numpy.asarray(value)
    if arr.ndim != 0:
        raise NotImplementedError("cunp.random: array-valued %s is not supported yet" % name)
    return float(arr)


def _finish(result, size, out=None):
    """NumPy returns Python floats for size=None, arrays otherwise."""
    if out is not None:
        if out.shape != result.shape:
            raise ValueError("size must match out.shape when used together")
        out[...] = result
        return out
    if size is None:
        return result.get()[()].item()
    return result


def _size_of_out(size, out):
    if out is not None and size is None:
        return out.shape
    return size


def _host(x):
    return x.get() if isinstance(x, cunp.ndarray) else numpy.asarray(x)


class Generator:
    """numpy.random.Generator over cunp's Philox: same method names and arguments; the
    streams are cunp's own and are bit-identical between devices."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, Philox):
            raise TypeError("cunp.random.Generator needs a cunp.random.Philox bit generator")
        self._bit_generator = bit_generator
        self._impl = _core._generator(bit_generator._impl)

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    def __repr__(self):
        return "Generator(Philox)"

    # ---- floating distributions
    def random(self, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.random(size, dtype, None), size, out)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=numpy.float64):
        return _finish(self._impl.uniform(_scalar_param("low", low), _scalar_param("high", high), size, dtype,
                                          None), size)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_normal(size, dtype, None), size, out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _finish(self._impl.normal(_scalar_param("loc", loc), _scalar_param("scale", scale), size,
                                         numpy.float64, None), size)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError("method must be either 'inv' or 'zig'")
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_exponential(size, dtype, None), size, out)

    def exponential(self, scale=1.0, size=None):
        return _finish(self._impl.exponential(_scalar_param("scale", scale), size, numpy.float64, None), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return _finish(self._impl.lognormal(_scalar_param("mean", mean), _scalar_param("sigma", sigma), size,
                                            numpy.float64, None), size)

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        size = _size_of_out(size, out)
        return _finish(self._impl.standard_gamma(_scalar_param("shape", shape), size, dtype, None), size, out)

    def gamma(self, shape, scale=1.0, size=None):
        return _finish(self._impl.gamma(_scalar_param("shape", shape), _scalar_param("scale", scale), size,
                                        numpy.float64, None), size)

    def beta(self, a, b, size=None):
        return _finish(self._impl.beta(_scalar_param("a", a), _scalar_param("b", b), size, numpy.float64, None),
                       size)

    def chisquare(self, df, size=None):
        return _finish(self._impl.chisquare(_scalar_param("df", df), size, numpy.float64, None), size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return _finish(self._impl.laplace(_scalar_param("loc", loc), _scalar_param("scale", scale), size,
                                          numpy.float64, None), size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return _finish(self._impl.logistic(_scalar_param("loc", loc), _scalar_param("scale", scale), size,
                                           numpy.float64, None), size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return _finish(self._impl.gumbel(_scalar_param("loc", loc), _scalar_param("scale", scale), size,
                                         numpy.float64, None), size)

    def weibull(self, a, size=None):
        return _finish(self._impl.weibull(_scalar_param("a", a), size, numpy.float64, None), size)

    def pareto(self, a, size=None):
        return _finish(self._impl.pareto(_scalar_param("a", a), size, numpy.float64, None), size)

    def rayleigh(self, scale=1.0, size=None):
        return _finish(self._impl.rayleigh(_scalar_param("scale", scale), size, numpy.float64, None), size)

    # ---- discrete distributions
    def poisson(self, lam=1.0, size=None):
        r = self._impl.poisson(_scalar_param("lam", lam), size, None)
        return r.get()[()] if size is None else r

    def geometric(self, p, size=None):
        r = self._impl.geometric(_scalar_param("p", p), size, None)
        return r.get()[()] if size is None else r

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        for name, v in (("low", low), ("high", high)):
            if numpy.ndim(_host(v)) != 0:
                raise NotImplementedError("cunp.random: array-valued %s is not supported yet" % name)
        low, high = _host(low)[()], _host(high)[()]
        if isinstance(low, numpy.generic):
            low = low.item()
        if isinstance(high, numpy.generic):
            high = high.item()
        dt = numpy.dtype(dtype)
        r = self._impl.integers(low, high, size, dt, bool(endpoint), None)
        return r.get()[()] if size is None else r

    # ---- permutations and sampling
    def permutation(self, x, axis=0):
        if isinstance(x, (numbers.Integral, numpy.integer)):
            return self._impl.permutation(int(x), None)
        arr = x if isinstance(x, cunp.ndarray) else cunp.asarray(x)
        if arr.ndim == 0:
            raise numpy.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        if not -arr.ndim <= axis < arr.ndim:
            raise numpy.exceptions.AxisError(axis, arr.ndim)
        perm = self._impl.permutation(arr.shape[axis], None).get()
        return cunp.asarray(numpy.take(arr.get(), perm, axis=axis), device=arr._device_str)

    def shuffle(self, x, axis=0):
        if not isinstance(x, cunp.ndarray):
            raise TypeError("cunp.random.shuffle needs a cunp.ndarray")
        if x.ndim == 0:
            raise TypeError("shuffle only supports 1-d or higher arrays")
        perm = self._impl.permutation(x.shape[axis], None).get()
        x[...] = cunp.asarray(numpy.take(x.get(), perm, axis=axis), device=x._device_str)

    def permuted(self, x, axis=None, out=None):
        arr = x if isinstance(x, cunp.ndarray) else cunp.asarray(x)
        host = arr.get()
        # Each 1-d slice is ordered by its own uniform keys: deterministic on every device.
        keys = self.random(host.shape if host.ndim else (1,)).get()
        if axis is None:
            order = numpy.argsort(keys.reshape(-1), kind="stable")
            result = host.reshape(-1)[order].reshape(host.shape)
        else:
            order = numpy.argsort(keys, axis=axis, kind="stable")
            result = numpy.take_along_axis(host, order, axis=axis)
        if out is None:
            return cunp.asarray(result, device=arr._device_str)
        out[...] = cunp.asarray(result, device=out._device_str)
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        population = None
        if isinstance(a, (numbers.Integral, numpy.integer)):
            n = int(a)
            if n < 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            population = a if isinstance(a, cunp.ndarray) else cunp.asarray(a)
            if population.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not 0-dimensional")
            n = population.shape[axis]
        shape = () if size is None else ((int(size),) if numpy.ndim(size) == 0 else tuple(int(s) for s in size))
        k = int(numpy.prod(shape, dtype=numpy.int64))
        if n == 0 and k > 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        if p is not None:
            ph = numpy.asarray(_host(p), dtype=numpy.float64)
            if ph.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if ph.size != n:
                raise ValueError("a and p must have same size")
            if numpy.any(numpy.isnan(ph)):
                raise ValueError("Probabilities contain NaN")
            if numpy.any(ph < 0):
                raise ValueError("probabilities are not non-negative")
            if abs(ph.sum() - 1.0) > numpy.sqrt(numpy.finfo(numpy.float64).eps):
                raise ValueError("probabilities do not sum to 1")
        if not replace and k > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is None:
            if replace:
                idx = self.integers(0, n, size=k).get() if k else numpy.zeros(0, numpy.int64)
            else:
                idx = self._impl.permutation(n, None).get()[:k]
        elif replace:
            cdf = numpy.cumsum(ph)
            cdf /= cdf[-1]
            u = self.random(k).get()
            idx = numpy.minimum(numpy.searchsorted(cdf, u, side="right"), n - 1)
        else:
            # Sampling without replacement by p: the k largest log(p) + Gumbel keys.
            if numpy.count_nonzero(ph) < k:
                raise ValueError("Fewer non-zero entries in p than size")
            g = -numpy.log(-numpy.log1p(-self.random(n).get()))
            with numpy.errstate(divide="ignore"):
                keys = numpy.log(ph) + g
            idx = numpy.argsort(-keys, kind="stable")[:k]
        idx = numpy.asarray(idx, dtype=numpy.int64)
        if population is None:
            if size is None:
                return numpy.int64(idx[0])
            return cunp.asarray(idx.reshape(shape))
        host = numpy.take(population.get(), idx, axis=axis)
        if size is None:
            host = numpy.take(population.get(), idx[0], axis=axis)
            return host[()] if host.ndim == 0 else cunp.asarray(host, device=population._device_str)
        new_shape = population.shape[:axis] + shape + population.shape[axis + 1:]
        return cunp.asarray(host.reshape(new_shape), device=population._device_str)


def default_rng(seed=None):
    """numpy.random.default_rng: a Generator over Philox seeded from `seed` (None, an int,
    a sequence of ints, a SeedSequence, a Philox or a Generator)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
