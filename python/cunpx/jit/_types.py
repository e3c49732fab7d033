"""The types of cunpx.jit kernels: scalars of NumPy's dtypes with C++'s arithmetic
conversions, arrays (pointer, shape and byte strides), shared-memory arrays and the
small tuples grid(n) returns."""
import numpy

_C_NAMES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
    "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int", "int64": "long long",
    "uint64": "unsigned long long", "float16": "__half", "float32": "float", "float64": "double",
    "complex64": "complex<float>", "complex128": "complex<double>",
}


class Scalar:
    """A C++ value of one of cunp's 14 dtypes."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)
        if self.dtype.name not in _C_NAMES:
            raise TypeError("cunpx.jit: dtype %s is not supported" % self.dtype)

    @property
    def ctype(self):
        return _C_NAMES[self.dtype.name]

    @property
    def kind(self):
        return self.dtype.kind

    def __eq__(self, other):
        return type(other) is Scalar and other.dtype == self.dtype

    def __hash__(self):
        return hash(("s", self.dtype))

    def __repr__(self):
        return self.dtype.name


class Array:
    """A cunp array argument: its data pointer, shape and byte strides (every access
    honours the strides)."""

    __slots__ = ("dtype", "ndim")

    def __init__(self, dtype, ndim):
        self.dtype = numpy.dtype(dtype)
        self.ndim = ndim
        Scalar(self.dtype)

    @property
    def elem(self):
        return Scalar(self.dtype)

    def __eq__(self, other):
        return type(other) is Array and (other.dtype, other.ndim) == (self.dtype, self.ndim)

    def __hash__(self):
        return hash(("a", self.dtype, self.ndim))

    def __repr__(self):
        return "%s[%s]" % (self.dtype.name, ", ".join(":" * self.ndim) if self.ndim else "()")


class SharedArray:
    """A 1-d array in shared memory (jit.shared_memory): indexed as a C array."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)

    @property
    def elem(self):
        return Scalar(self.dtype)

    def __repr__(self):
        return "shared %s[]" % self.dtype.name


class Tuple:
    """A tuple of scalars (grid(2), gridsize(3), tuple literals)."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)


BOOL = Scalar(numpy.bool_)
INT32 = Scalar(numpy.int32)
UINT32 = Scalar(numpy.uint32)
INT64 = Scalar(numpy.int64)
FLOAT32 = Scalar(numpy.float32)
FLOAT64 = Scalar(numpy.float64)


def _int_rank(dt):
    return {1: 1, 2: 2, 4: 3, 8: 4}[dt.itemsize]


def _integer_promotion(dt):
    # C++: bool and integers narrower than int become int.
    if dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < 4):
        return numpy.dtype(numpy.int32)
    return dt


def promote(a, b):
    """The type C++'s usual arithmetic conversions give a op b (float16 computes as
    float32, complex with a real takes the wider precision)."""
    da, db = a.dtype, b.dtype
    if da.kind == "c" or db.kind == "c":
        wide = max(_precision(da), _precision(db))
        return Scalar(numpy.complex128 if wide == 64 else numpy.complex64)
    if da == numpy.float64 or db == numpy.float64:
        return FLOAT64
    if da.kind == "f" or db.kind == "f":
        return FLOAT32
    pa, pb = _integer_promotion(da), _integer_promotion(db)
    if pa == pb:
        return Scalar(pa)
    if (pa.kind == "i") == (pb.kind == "i"):
        return Scalar(pa if _int_rank(pa) >= _int_rank(pb) else pb)
    u, s = (pa, pb) if pa.kind == "u" else (pb, pa)
    return Scalar(u if u.itemsize >= s.itemsize else s)


def _precision(dt):
    if dt.kind == "c":
        return 64 if dt == numpy.complex128 else 32
    return 64 if dt == numpy.float64 else 32


def unary_promote(a):
    """The type of -a, +a, ~a: the integer promotion (float16 computes as float32)."""
    if a.dtype == numpy.float16:
        return FLOAT32
    if a.dtype.kind in "biu":
        return Scalar(_integer_promotion(a.dtype))
    return a


def floating(t):
    """The floating type a math function of t computes in: double for integers and bool,
    float for float16/float32, the type itself for double and complex."""
    if t.dtype.kind in "biu":
        return FLOAT64
    if t.dtype == numpy.float16:
        return FLOAT32
    return t


def convert(code, src, dst):
    """C++ that converts `code` of scalar type src to dst (numbers; complex from and to
    real by its parts; float16 through float)."""
    if src == dst:
        return code
    sd, dd = src.dtype, dst.dtype
    if dd == numpy.float16:
        return "__float2half(%s)" % convert(code, src, FLOAT32)
    if sd == numpy.float16:
        return convert("__half2float(%s)" % code, FLOAT32, dst)
    if dd.kind == "c":
        return "cunp_jit::cplx<%s>(%s)" % ("double" if dd == numpy.complex128 else "float", code)
    if sd.kind == "c":
        if dd.kind == "b":
            return "cunp_jit::nonzero(%s)" % code
        return "(%s)((%s).re)" % (dst.ctype, code)
    return "(%s)(%s)" % (dst.ctype, code)


def of_value(value):
    """The type of a launch argument or a constant: cunp arrays by dtype and ndim,
    Python scalars as int64 / float64 / complex128 / bool, NumPy scalars by dtype."""
    import cunp
    if isinstance(value, cunp.ndarray):
        return Array(value.dtype, value.ndim)
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT64
    if isinstance(value, float):
        return FLOAT64
    if isinstance(value, complex):
        return Scalar(numpy.complex128)
    if isinstance(value, numpy.generic):
        return Scalar(value.dtype)
    if isinstance(value, numpy.ndarray):
        raise TypeError("cunpx.jit: a numpy.ndarray cannot be a kernel argument (convert it with cunp.asarray)")
    raise TypeError("cunpx.jit: an argument of type %s cannot be a kernel argument (cunp arrays, Python and "
                    "NumPy scalars can)" % type(value).__name__)
