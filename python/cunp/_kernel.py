"""User-defined GPU kernels (CuPy's ``ElementwiseKernel`` and ``ReductionKernel``)."""
from collections import namedtuple

from cunp import _core

ParameterInfo = namedtuple("ParameterInfo", ["name", "type", "dtype", "raw"])
ParameterInfo.__doc__ = """One parameter of a kernel's parameter list: ``raw T x`` is
``ParameterInfo(name='x', type='T', dtype=None, raw=True)``; ``dtype`` is set for fixed
dtypes (``float32 y``) and None for type placeholders."""


class _KernelParams:
    """The parameter views and repr the kernel classes share."""

    @property
    def in_params(self):
        """The input parameters, as a tuple of ParameterInfo."""
        return tuple(ParameterInfo(**p) for p in self._in_params)

    @property
    def out_params(self):
        """The output parameters, as a tuple of ParameterInfo."""
        return tuple(ParameterInfo(**p) for p in self._out_params)

    @property
    def params(self):
        return self.in_params + self.out_params

    def __repr__(self):
        def show(params):
            return ", ".join(("raw " if p.raw else "") + p.type + " " + p.name for p in params)
        return "<cunp.%s %r: (%s) -> (%s)>" % (type(self).__name__, self.name, show(self.in_params),
                                               show(self.out_params))


class ElementwiseKernel(_KernelParams, _core._ElementwiseKernel):
    """User-defined elementwise kernel.

    ``in_params`` and ``out_params`` are comma-separated ``[raw] TYPE NAME`` lists; TYPE
    is a dtype name (``float32``, ``int64``, ``bool``, ``complex128``) or a type
    placeholder (``T``) decided from the arguments. ``operation`` is CUDA C++ run for
    every element ``i`` of the broadcast arguments; ``_ind.size()`` is the number of
    elements, and ``raw`` parameters are indexed by hand (``x[_ind.size() - i - 1]``).

    The kernel is compiled with NVRTC at the first call for each combination of argument
    dtypes and layouts, cached in this object, in memory and on disk (``CUNP_CACHE_DIR``).

    Args:
        in_params (str): input parameters.
        out_params (str): output parameters.
        operation (str): the loop body.
        name (str): the kernel function's name (shown by profilers).
        reduce_dims (bool): accepted for compatibility; axes are always merged.
        preamble (str): code placed before the kernel, after the placeholder typedefs.
        no_return (bool): ``__call__`` returns None.
        return_tuple (bool): ``__call__`` returns a tuple even for one output.
        options (tuple of str): extra NVRTC options.
        loop_prep (str): code at the top of the kernel, before the loop.
        after_loop (str): code at the end of the kernel, after the loop.

    Calling it, ``kernel(*inputs[, *outputs], size=None, block_size=128, stream=None)``,
    allocates the outputs that are not given with the broadcast shape; ``size`` sets the
    loop size when every array argument is ``raw``.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, **kwargs):
        options = kwargs.pop("options", ())
        loop_prep = kwargs.pop("loop_prep", "")
        after_loop = kwargs.pop("after_loop", "")
        if kwargs:
            raise TypeError("ElementwiseKernel got unexpected keyword arguments: %s"
                            % ", ".join(sorted(kwargs)))
        if isinstance(options, str):
            options = (options,)
        super().__init__(in_params, out_params, operation, name, bool(reduce_dims), preamble,
                         bool(no_return), bool(return_tuple), [str(o) for o in options],
                         loop_prep, after_loop)
        self.__name__ = name



class ReductionKernel(_KernelParams, _core._ReductionKernel):
    """User-defined reduction kernel (CuPy's ``ReductionKernel``).

    ``in_params`` and ``out_params`` use ElementwiseKernel's syntax and type placeholders
    (``raw`` parameters are not supported). For each output element the non-raw inputs,
    broadcast together, are mapped by ``map_expr`` over the reduced axes, combined with
    ``reduce_expr`` (an expression of ``a`` and ``b``, which should be associative and
    commutative) starting from ``identity`` (a CUDA expression; None or '' for none),
    and ``post_map_expr`` (a statement of ``a`` and the output names) writes the result.

    Args:
        in_params (str), out_params (str), map_expr (str), reduce_expr (str),
        post_map_expr (str), identity (str or None), name (str): as CuPy's.
        reduce_type (str): the C++ type of ``a`` and ``b``; default: the first output's.
        reduce_dims (bool): accepted for compatibility.
        preamble (str): code placed before the kernel, after the placeholder typedefs.
        options (tuple of str): extra NVRTC options.

    Calling it, ``kernel(*inputs[, *outputs], axis=None, keepdims=False, out=None,
    stream=None)``, reduces over ``axis`` (None: all axes) and returns the output (a
    tuple when there are several). Arrays must be on a CUDA device.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="", options=()):
        if isinstance(options, str):
            options = (options,)
        super().__init__(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                         "" if identity is None else str(identity), name,
                         "" if reduce_type is None else str(reduce_type), bool(reduce_dims),
                         preamble, [str(o) for o in options])
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        outs = list(self._call(*args, **kwargs))
        # Given outputs come back as the very objects passed (as CuPy returns them).
        given = list(args[self.nin:])
        if kwargs.get("out") is not None:
            given = [kwargs["out"]]
        for i, g in enumerate(given):
            outs[i] = g
        return outs[0] if len(outs) == 1 else tuple(outs)



# CuPy also exposes the kernel classes from its core module (cupy._core.ReductionKernel).
_core.ElementwiseKernel = ElementwiseKernel
_core.ReductionKernel = ReductionKernel
