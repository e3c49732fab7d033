"""What the formats that store a ``data`` array share (scipy.sparse._data): the
elementwise functions that keep zeros at zero (sin, sqrt, expm1, ... applied to the
stored values), scaling, casts, conjugation, power, and min/max/argmin/argmax with
SciPy's treatment of implicit zeros."""
import math

import numpy as _numpy

import cunp as _cunp
from cunpx.scipy.sparse import _kernels, _sputils
from cunpx.scipy.sparse._base import _spbase

# NumPy's unary ufuncs with f(0) == 0, offered as methods (SciPy's list).
_UFUNCS_KEEPING_ZERO = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor", "log1p",
                        "rad2deg", "rint", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")


class _data_matrix(_spbase):
    """A format whose values are the array ``data`` (csr, csc, coo, dia)."""

    def _with_data(self, data, copy=True):
        raise NotImplementedError

    def _deduped_data(self):
        if hasattr(self, "sum_duplicates"):
            self.sum_duplicates()
        return self.data

    def __abs__(self):
        return self._with_data(abs(self._deduped_data()))

    def __round__(self, ndigits=0):
        return self._with_data(_cunp.around(self._deduped_data(), decimals=ndigits))

    def _real(self):
        return self._with_data(_cunp.real(self.data))

    def _imag(self):
        return self._with_data(_cunp.imag(self.data))

    def __neg__(self):
        if self.dtype.kind == "b":
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data)

    def __imul__(self, other):
        if _sputils.isscalarlike(other):
            self.data *= other
            return self
        return NotImplemented

    def __itruediv__(self, other):
        if _sputils.isscalarlike(other):
            self.data *= 1.0 / other
            return self
        return NotImplemented

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = _sputils.getdtype(dtype)
        if self.dtype != dtype:
            if not _numpy.can_cast(self.dtype, dtype, casting=casting):
                raise TypeError("Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'"
                                % (self.dtype, dtype, casting))
            matrix = self._with_data(self.data.astype(dtype), copy=True)
            return matrix._with_data(matrix._deduped_data(), copy=False)
        return self.copy() if copy else self

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self._with_data(_cunp.conjugate(self.data), copy=copy)
        return self.copy() if copy else self

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def power(self, n, dtype=None):
        """Elementwise power of the stored values; n is a nonzero scalar."""
        if not _sputils.isscalarlike(n):
            raise NotImplementedError("input is not scalar")
        if not n:
            raise NotImplementedError("zero power is not supported as it would densify the matrix.\n"
                                      "Use `np.ones(A.shape, dtype=A.dtype)` for this case.")
        data = self._deduped_data()
        if dtype is not None:
            data = data.astype(_sputils.getdtype(dtype))
        return self._with_data(_cunp.power(data, n))

    def _mul_scalar(self, other):
        return self._with_data(self.data * other)


def _make_ufunc_method(name):
    ufunc = getattr(_cunp, name)

    def method(self):
        return self._with_data(ufunc(self._deduped_data()), copy=True)

    method.__name__ = name
    method.__doc__ = "Elementwise %s of the stored values (zeros stay zero); see numpy.%s." % (name, name)
    return method


for _name in _UFUNCS_KEEPING_ZERO:
    setattr(_data_matrix, _name, _make_ufunc_method(_name))


def _reduce_ufunc(name):
    return {"max": _cunp.maximum, "min": _cunp.minimum, "nanmax": _cunp.fmax, "nanmin": _cunp.fmin}[name]


class _minmax_mixin:
    """max, min, nanmax, nanmin, argmax and argmin (csr, csc, coo): implicit zeros take
    part unless `explicit`; along an axis a matrix gives a sparse (1, n)/(m, 1) COO
    matrix and an array gives a dense 1-D array (SciPy ≥ 1.14 gives a 1-D COO array;
    cunpx has no 1-D sparse arrays)."""

    def _min_or_max_axis(self, axis, ufunc, explicit):
        N = self.shape[axis]
        M = self.shape[1 - axis]
        mat = self.tocsc() if axis == 0 else self.tocsr()
        mat.sum_duplicates()
        value = _kernels.segment_reduce(ufunc, mat.indptr, mat.data, 0)
        if not explicit:
            not_full = _cunp.diff(mat.indptr) < N
            value = _cunp.where(not_full, ufunc(value, _cunp.zeros((), value.dtype, device=value.device)), value)
        if self._is_array:
            return value
        keep = value != 0
        major = _cunp.flatnonzero(keep)
        idx_dtype = _sputils.get_index_dtype(maxval=M)
        major = major.astype(idx_dtype)
        zeros = _cunp.zeros(major.shape[0], dtype=idx_dtype, device=major.device)
        coords = (zeros, major) if axis == 0 else (major, zeros)
        shape = (1, M) if axis == 0 else (M, 1)
        return self._coo_container((value[keep], coords), shape=shape, dtype=self.dtype)

    def _min_or_max(self, axis, out, name, explicit):
        if out is not None:
            raise ValueError("Sparse min/max does not support an 'out' parameter.")
        axis = _sputils.validateaxis(axis)
        ufunc = _reduce_ufunc(name)
        if axis is None:
            if 0 in self.shape:
                raise ValueError("zero-size array to reduction operation")
            zero = _cunp.zeros((), dtype=self.dtype, device=self.device)
            if self.nnz == 0:
                return zero
            m = ufunc.reduce(self._deduped_data().ravel())
            if self.nnz != math.prod(self.shape) and not explicit:
                m = ufunc(zero, m)
            return m
        if self.shape[axis[0]] == 0:
            raise ValueError("zero-size array to reduction operation")
        return self._min_or_max_axis(axis[0], ufunc, explicit)

    def max(self, axis=None, out=None, *, explicit=False):
        """The largest entry, or along an axis; implicit zeros count unless `explicit`."""
        return self._min_or_max(axis, out, "max", explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        """The smallest entry, or along an axis; implicit zeros count unless `explicit`."""
        return self._min_or_max(axis, out, "min", explicit)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        """As max, NaNs ignored."""
        return self._min_or_max(axis, out, "nanmax", explicit)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        """As min, NaNs ignored."""
        return self._min_or_max(axis, out, "nanmin", explicit)

    def _argminmax(self, axis, out, is_max, explicit):
        name = "argmax" if is_max else "argmin"
        if out is not None:
            raise ValueError("Sparse %s does not support an 'out' parameter." % name)
        axis = _sputils.validateaxis(axis)
        ufunc = _cunp.maximum if is_max else _cunp.minimum
        if axis is not None:
            ax = axis[0]
            if self.shape[ax] == 0:
                raise ValueError("Cannot apply %s along a zero-sized dimension." % name)
            mat = self.tocsc() if ax == 0 else self.tocsr()
            mat.sum_duplicates()
            extreme = _kernels.segment_reduce(ufunc, mat.indptr, mat.data, 0)
            ret = _kernels.segment_arg_extreme(mat.indptr, mat.indices, mat.data, extreme, self.shape[ax], is_max,
                                               explicit)
            return self._reduced(ret, ax)
        if 0 in self.shape:
            raise ValueError("Cannot apply %s to an empty matrix." % name)
        if self.nnz == 0:
            if explicit:
                raise ValueError("Cannot apply %s to zero matrix when explicit=True." % name)
            return _cunp.zeros((), dtype=_numpy.int64, device=self.device)
        mat = self.tocoo()
        mat.sum_duplicates()
        linear = mat.row.astype(_numpy.int64) * self.shape[1] + mat.col.astype(_numpy.int64)
        indptr = _cunp.asarray(_numpy.array([0, mat.nnz], dtype=_numpy.int64), device=self.device)
        extreme = ufunc.reduce(mat.data).reshape(1)
        if explicit:
            # The flat index of the first extreme stored entry (SciPy gives its position
            # in the data array instead; docs/sparse.md).
            return linear[(_cunp.argmax if is_max else _cunp.argmin)(mat.data)]
        ret = _kernels.segment_arg_extreme(indptr, linear, mat.data, extreme, math.prod(self.shape), is_max, False)
        return ret[0]

    def argmax(self, axis=None, out=None, *, explicit=False):
        """The (flat, or per line along `axis`) index of the first largest entry."""
        return self._argminmax(axis, out, True, explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        """The (flat, or per line along `axis`) index of the first smallest entry."""
        return self._argminmax(axis, out, False, explicit)
