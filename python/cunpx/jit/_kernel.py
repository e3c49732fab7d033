"""``@cunpx.jit.rawkernel()``: a Python function translated to CUDA C++ (_compile.py)
for the types of its launch arguments, compiled and launched through cunp.RawKernel."""
import ast
import functools
import inspect
import textwrap

import cunp
from cunpx.jit import _types
from cunpx.jit._compile import Translator


class _Launch:
    __slots__ = ("kernel", "grid", "block", "shared_mem", "stream")

    def __init__(self, kernel, grid, block, shared_mem, stream):
        self.kernel, self.grid, self.block, self.shared_mem, self.stream = kernel, grid, block, shared_mem, stream

    def __call__(self, *args):
        self.kernel(self.grid, self.block, args, shared_mem=self.shared_mem, stream=self.stream)


class RawKernel:
    """A kernel written in Python (cupyx.jit.rawkernel): launched as
    ``kernel[grid, block](*args)`` (``kernel[grid, block, shared_mem]`` and
    ``kernel[grid, block, shared_mem, stream]`` too) or ``kernel(grid, block, args,
    shared_mem=0, stream=None)``. The first launch for each tuple of argument types
    (cunp arrays by dtype and ndim, scalars by dtype: Python ints are int64, floats
    float64) translates the function to CUDA C++ and compiles it; ``cached_codes``
    holds the generated source per argument types and ``cached_code`` the only one."""

    def __init__(self, func, mode="cuda", device=False):
        if device:
            raise NotImplementedError("cunpx.jit.rawkernel(device=True): device functions are not supported yet; "
                                      "write the helper's code in the kernel")
        if mode != "cuda":
            raise ValueError("cunpx.jit.rawkernel: mode must be 'cuda', got %r" % (mode,))
        if not inspect.isfunction(func):
            raise TypeError("cunpx.jit.rawkernel takes a function defined with def, got %s" % type(func).__name__)
        if func.__name__ == "<lambda>":
            raise TypeError("cunpx.jit.rawkernel takes a function defined with def, not a lambda")
        try:
            lines, first = inspect.getsourcelines(func)
        except (OSError, TypeError) as e:
            raise TypeError("cunpx.jit.rawkernel: the source code of '%s' is not available (%s); kernels defined "
                            "in an interactive session or with exec() cannot be translated, define the kernel "
                            "in a file" % (func.__name__, e)) from None
        source = textwrap.dedent("".join(lines))
        tree = ast.parse(source)
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        if not defs:
            raise TypeError("cunpx.jit.rawkernel: no function definition found for '%s'" % func.__name__)
        self._func = func
        self._tree = defs[0]
        self._filename = inspect.getsourcefile(func) or "<unknown>"
        self._first_line = first
        self._lines = source.splitlines()
        self._kernels = {}  # argument types -> (code, cunp.RawKernel)
        functools.update_wrapper(self, func)

    def _types(self, args):
        return tuple(_types.of_value(a) for a in args)

    def _translate(self, types):
        return Translator(self._func, self._tree, self._filename, self._first_line, self._lines, types,
                          self._func.__name__).translate()

    def _kernel(self, types):
        entry = self._kernels.get(types)
        if entry is None:
            code = self._translate(types)
            entry = self._kernels[types] = (code, cunp.RawKernel(code, self._func.__name__))
        return entry[1]

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        if not isinstance(args, (tuple, list)):
            raise TypeError("cunpx.jit kernel '%s': args must be a tuple of kernel arguments, got %s"
                            % (self.__name__, type(args).__name__))
        types = self._types(args)
        kernel = self._kernel(types)
        flat = []
        for a, t in zip(args, types):
            flat.append(a)
            if type(t) is _types.Array:
                flat.extend(a.shape)
                flat.extend(a.strides)
        kernel(grid, block, tuple(flat), shared_mem=shared_mem, stream=stream)

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("cunpx.jit kernel '%s': launch as kernel[grid, block](*args) (or [grid, block, "
                            "shared_mem] / [grid, block, shared_mem, stream])" % self.__name__)
        grid, block = config[0], config[1]
        shared_mem = config[2] if len(config) > 2 else 0
        stream = config[3] if len(config) > 3 else None
        return _Launch(self, grid, block, shared_mem, stream)

    @property
    def cached_codes(self):
        """The generated CUDA source of each compiled argument signature (a dict)."""
        return {k: v[0] for k, v in self._kernels.items()}

    @property
    def cached_code(self):
        """The generated CUDA source, when exactly one signature has been compiled."""
        codes = list(self._kernels.values())
        if len(codes) != 1:
            raise RuntimeError("cunpx.jit kernel '%s' has %d compiled signatures; see cached_codes"
                               % (self.__name__, len(codes)))
        return codes[0][0]

    def _cuda_source(self, *args):
        """The CUDA source a launch with these arguments compiles (translation only; the
        arrays may be on any device)."""
        return self._translate(self._types(args))

    def _compile(self, *args, arch=90):
        """Translates and compiles the kernel for these arguments for sm_<arch> without a
        GPU; returns what cunp.RawKernel._compile does ({'cubin': bytes, ...})."""
        return self._kernel(self._types(args))._compile(arch=arch)

    def __repr__(self):
        return "<cunpx.jit.rawkernel %r>" % (self.__name__,)


def rawkernel(*, mode="cuda", device=False):
    """cupyx.jit.rawkernel: ``@cunpx.jit.rawkernel()`` turns a function into a kernel
    (see RawKernel)."""
    def deco(func):
        return RawKernel(func, mode=mode, device=device)
    return deco
