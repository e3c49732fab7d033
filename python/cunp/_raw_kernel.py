"""Hand-written CUDA kernels: CuPy's ``RawKernel`` and ``RawModule``."""
from collections import namedtuple

from cunp import _core
from cunp.cuda.memory import Memory, MemoryPointer

KernelParameter = namedtuple("KernelParameter", ["name", "type", "kind", "dtype", "size"])
KernelParameter.__doc__ = """One parameter of a raw kernel as its declaration reads:
``const float* x`` is ``KernelParameter(name='x', type='const float*', kind='pointer',
dtype=None, size=8)``; ``int n`` has kind ``'scalar'`` and dtype int32; structs and types
cunp cannot resolve have kind ``'other'`` (size 0 when unknown)."""


class RawKernel(_core._RawKernel):
    """User-defined kernel from raw CUDA C++ source (CuPy's ``RawKernel``).

    The source is compiled with NVRTC at the first launch for the current device
    (``-arch=sm_XX`` of its compute capability) and cached in this object, in the process
    and on disk (``CUNP_CACHE_DIR``). ``name`` is an ``extern "C"`` function name, or a C++
    name expression such as ``'scale<float>'`` (instantiated and lowered by NVRTC).

    Args:
        code (str): CUDA C++ source. ``<cuda_fp16.h>``, ``<cooperative_groups.h>``,
            ``<cuComplex.h>``, ``<cuda/std/...>`` and ``<cunp/complex.cuh>`` can be included.
        name (str): the kernel's name.
        options (tuple of str): NVRTC options, e.g. ``('-DN=4', '--std=c++20')``.
        backend (str): ``'nvrtc'`` (``'nvcc'`` raises NotImplementedError).
        translate_cucomplex (bool): accepted; ``cuComplex.h`` compiles as it is.
        enable_cooperative_groups (bool): launch with ``cudaLaunchCooperativeKernel`` (grid sync).
        jitify (bool): must be False (NotImplementedError otherwise).

    Calling it, ``kernel(grid, block, args, shared_mem=0, stream=None)``, launches
    ``grid`` blocks of ``block`` threads (ints or tuples of up to 3 ints). ``args`` is a
    tuple with one item per kernel parameter: cunp arrays pass their data pointer, NumPy
    scalars their exact bytes, Python scalars are converted to the parameter's declared
    type (``int n`` takes a 4-byte int), an int for a pointer parameter is an address.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False, *,
                 enable_cooperative_groups=False, jitify=False):
        if isinstance(options, str):
            options = (options,)
        super().__init__(code, name, tuple(options), backend, bool(translate_cucomplex),
                         enable_cooperative_groups=bool(enable_cooperative_groups), jitify=bool(jitify))
        self.__name__ = name

    @classmethod
    def _wrap(cls, kernel):
        k = cls.__new__(cls)
        _core._RawKernel.__init__(k, kernel)
        k.__name__ = kernel.name
        return k

    @property
    def params(self):
        """The parameters of the kernel's declaration in the source, as a tuple of
        KernelParameter (None when the kernel came from a binary or the declaration was
        not found). Needs no GPU."""
        params = self._params
        return None if params is None else tuple(KernelParameter(**p) for p in params)

    @property
    def max_threads_per_block(self):
        return self.attributes["max_threads_per_block"]

    @property
    def shared_size_bytes(self):
        return self.attributes["shared_size_bytes"]

    @property
    def const_size_bytes(self):
        return self.attributes["const_size_bytes"]

    @property
    def local_size_bytes(self):
        return self.attributes["local_size_bytes"]

    @property
    def num_regs(self):
        return self.attributes["num_regs"]

    @property
    def ptx_version(self):
        return self.attributes["ptx_version"]

    @property
    def binary_version(self):
        return self.attributes["binary_version"]

    @property
    def cache_mode_ca(self):
        return self.attributes["cache_mode_ca"]

    def __repr__(self):
        return "<cunp.RawKernel %r>" % (self.name,)


class RawModule(_core._RawModule):
    """A module of raw CUDA C++ kernels and ``__device__`` variables (CuPy's ``RawModule``).

    Args:
        code (str): CUDA C++ source, compiled as RawKernel's. Mutually exclusive with ``path``.
        path (str or os.PathLike): a ``.cu`` file (read and compiled, its directory on the
            include path), or a ``.cubin``, ``.ptx`` or ``.fatbin`` file (loaded as it is).
        options, backend, translate_cucomplex, enable_cooperative_groups, jitify: as RawKernel's.
        name_expressions (sequence of str): C++ names to instantiate and lower, e.g.
            ``('f<float>', 'f<double>')``; ``get_function`` and ``get_global`` take them.
    """

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if isinstance(options, str):
            options = (options,)
        if isinstance(name_expressions, str):
            name_expressions = (name_expressions,)
        super().__init__(code, path=path, options=tuple(options), backend=backend,
                         translate_cucomplex=bool(translate_cucomplex),
                         enable_cooperative_groups=bool(enable_cooperative_groups),
                         name_expressions=None if name_expressions is None else tuple(name_expressions),
                         jitify=bool(jitify))

    def get_function(self, name):
        """The kernel ``name`` (a name expression, an ``extern "C"`` name or a mangled
        symbol) as a RawKernel. With a GPU the module is compiled now and a missing name
        raises CUDARuntimeError listing the module's kernels."""
        return RawKernel._wrap(self._get_function(name))

    def get_global(self, name):
        """The ``__device__`` (or ``__constant__``) variable ``name`` on the current device,
        as a ``cunp.cuda.MemoryPointer`` to its bytes (``ptr``, ``size``), as CuPy returns.
        Read or write it through an array over it:
        ``cunp.ndarray((4,), cunp.float32, memptr=module.get_global('table'))``."""
        return MemoryPointer(Memory(self._get_global(name)))

    def __repr__(self):
        where = self.file_path if self.file_path is not None else "code"
        return "<cunp.RawModule from %s>" % (where,)


# CuPy also exposes the kernel classes from its core module.
_core.RawKernel = RawKernel
_core.RawModule = RawModule
