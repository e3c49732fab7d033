"""Python AST to CUDA C++: the translator behind ``@cunpx.jit.rawkernel``.

Note [JIT translation]: one kernel is generated per tuple of argument types (cunp
arrays by dtype and ndim, scalars by dtype), in one pass over the function's statements
in source order. A local variable takes the type of its first assignment; later
assignments convert to it as C++ assignments do, and every local is declared at the top
of the kernel (Python's function scope). Arithmetic follows C++'s usual arithmetic
conversions (float16 computes as float32), except where Python's meaning is kept: `/`
of integers is a double division, `//` and `%` round toward negative infinity and take
the divisor's sign, `**` of integers is an integer power. An array argument arrives as
its pointer, shape and byte strides, so `x[i, j]` honours any layout. Names that are
not locals or arguments are looked up in the function's globals and closure at
translation time: numbers become constants, modules and functions are resolved to the
builtins below. Anything else raises an error naming the file, line and construct.
"""
import ast
import builtins
import cmath
import math

import numpy

from cunpx.jit import _builtins as B
from cunpx.jit import _types as T
from cunpx.jit._types import Array, Scalar, SharedArray, Tuple

_CXX_KEYWORDS = frozenset("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return
co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for friend
goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch
template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
while xor xor_eq threadIdx blockIdx blockDim gridDim warpSize min max abs complex main""".split())

# Math functions: name -> (float version, double version, arity). Complex arguments use
# <cunp/complex.cuh>'s overloads of the double name.
_MATH = {
    "sin": ("sinf", "sin", 1), "cos": ("cosf", "cos", 1), "tan": ("tanf", "tan", 1),
    "arcsin": ("asinf", "asin", 1), "arccos": ("acosf", "acos", 1), "arctan": ("atanf", "atan", 1),
    "sinh": ("sinhf", "sinh", 1), "cosh": ("coshf", "cosh", 1), "tanh": ("tanhf", "tanh", 1),
    "arcsinh": ("asinhf", "asinh", 1), "arccosh": ("acoshf", "acosh", 1), "arctanh": ("atanhf", "atanh", 1),
    "exp": ("expf", "exp", 1), "exp2": ("exp2f", "exp2", 1), "expm1": ("expm1f", "expm1", 1),
    "log": ("logf", "log", 1), "log2": ("log2f", "log2", 1), "log10": ("log10f", "log10", 1),
    "log1p": ("log1pf", "log1p", 1), "sqrt": ("sqrtf", "sqrt", 1), "cbrt": ("cbrtf", "cbrt", 1),
    "ceil": ("ceilf", "ceil", 1), "floor": ("floorf", "floor", 1), "trunc": ("truncf", "trunc", 1),
    "rint": ("rintf", "rint", 1), "fabs": ("fabsf", "fabs", 1), "erf": ("erff", "erf", 1),
    "erfc": ("erfcf", "erfc", 1), "lgamma": ("lgammaf", "lgamma", 1), "gamma": ("tgammaf", "tgamma", 1),
    "arctan2": ("atan2f", "atan2", 2), "hypot": ("hypotf", "hypot", 2), "copysign": ("copysignf", "copysign", 2),
    "fmod": ("fmodf", "fmod", 2), "power": ("powf", "pow", 2), "fmin": ("fminf", "fmin", 2),
    "fmax": ("fmaxf", "fmax", 2),
}
_ALIASES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
            "atanh": "arctanh", "atan2": "arctan2", "pow": "power", "tgamma": "gamma", "absolute": "abs",
            "minimum": "min", "maximum": "max", "amin": "min", "amax": "max"}
_COMPLEX_OK = {"sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
               "arctanh", "exp", "log", "sqrt", "power"}
_PREDICATES = {"isnan", "isinf", "isfinite", "signbit"}

_HELPERS = r"""namespace cunp_jit {
template <typename T> struct is_fp { static constexpr bool value = false; };
template <> struct is_fp<float> { static constexpr bool value = true; };
template <> struct is_fp<double> { static constexpr bool value = true; };
// Python's // and %: the quotient rounded toward negative infinity, the remainder
// with the divisor's sign.
template <typename T> __device__ __forceinline__ T floordiv(T a, T b) {
  if constexpr (is_fp<T>::value) {
    return floor(a / b);
  } else {
    T q = a / b;
    if ((a % b != 0) && ((a < T(0)) != (b < T(0)))) --q;
    return q;
  }
}
template <typename T> __device__ __forceinline__ T mod(T a, T b) {
  T r;
  if constexpr (is_fp<T>::value) r = fmod(a, b); else r = a % b;
  if (r != T(0) && ((r < T(0)) != (b < T(0)))) r += b;
  return r;
}
// Integer powers by squaring; a negative exponent gives 0 (1 for a base of 1).
template <typename T> __device__ __forceinline__ T ipow(T base, T e) {
  if (e < T(0)) return base == T(1) ? T(1) : (base == T(-1) ? ((e & T(1)) ? T(-1) : T(1)) : T(0));
  T r = 1;
  while (e > T(0)) {
    if (e & T(1)) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}
__device__ __forceinline__ unsigned int laneid() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
}  // namespace cunp_jit
"""

# Conversions to complex<T> (from either kind) and complex truth, when a kernel uses complex.
_COMPLEX_HELPERS = r"""namespace cunp_jit {
template <typename T, typename U> __device__ __forceinline__ complex<T> cplx(const complex<U>& z) {
  return complex<T>{(T)z.re, (T)z.im};
}
template <typename T, typename U> __device__ __forceinline__ complex<T> cplx(const U& x) {
  return complex<T>{(T)x, (T)0};
}
template <typename T> __device__ __forceinline__ bool nonzero(const complex<T>& z) { return z.re != 0 || z.im != 0; }
}  // namespace cunp_jit
"""


class JitError(Exception):
    pass


class _Value:
    """A translated expression: C++ `code` of type `type`; `const` holds the Python
    value of compile-time constants; `obj` a Python object (modules, functions) that
    only exists at translation time; `ref` an array or shared array."""

    __slots__ = ("code", "type", "const", "obj", "ref", "positive")

    def __init__(self, code=None, type=None, const=None, obj=None, ref=None, positive=False):
        self.code, self.type, self.const, self.obj, self.ref = code, type, const, obj, ref
        self.positive = positive  # known > 0 (gridsize): a loop step needs no sign test


_NO_OBJ = object()


class _ArrayRef:
    __slots__ = ("name", "type", "cname")

    def __init__(self, name, type, cname):
        self.name, self.type, self.cname = name, type, cname


class _SharedRef:
    __slots__ = ("name", "dtype", "cname")

    def __init__(self, name, dtype, cname):
        self.name, self.dtype, self.cname = name, dtype, cname


class _ShapeRef:
    __slots__ = ("array", "what")

    def __init__(self, array, what):
        self.array, self.what = array, what


def _c_float(v):
    if v != v:
        return "__longlong_as_double(0x7ff8000000000000ll)"
    if v in (math.inf, -math.inf):
        return "%s__longlong_as_double(0x7ff0000000000000ll)" % ("-" if v < 0 else "")
    r = repr(float(v))
    return r if ("." in r or "e" in r or "n" in r) else r + ".0"


def _constant(value):
    """A Python or NumPy number as a typed C++ constant."""
    if isinstance(value, (bool, numpy.bool_)):
        return _Value("true" if value else "false", T.BOOL, const=bool(value))
    if isinstance(value, int):
        if -2 ** 31 <= value < 2 ** 31:
            return _Value(str(value), T.INT32, const=value)
        if -2 ** 63 <= value < 2 ** 63:
            return _Value("%dll" % value, T.INT64, const=value)
        if 0 <= value < 2 ** 64:
            return _Value("%dull" % value, Scalar(numpy.uint64), const=value)
        raise OverflowError("cunpx.jit: the integer %d does not fit 64 bits" % value)
    if isinstance(value, float):
        return _Value(_c_float(value), T.FLOAT64, const=value)
    if isinstance(value, complex):
        return _Value("complex<double>{%s, %s}" % (_c_float(value.real), _c_float(value.imag)),
                      Scalar(numpy.complex128), const=value)
    if isinstance(value, numpy.generic):
        py = value.item()
        base = _constant(py)
        t = Scalar(value.dtype)
        return _Value(T.convert(base.code, base.type, t), t, const=py)
    return None


class Translator(ast.NodeVisitor):
    def __init__(self, func, tree, filename, first_line, source_lines, arg_types, name):
        self.func = func
        self.tree = tree
        self.filename = filename
        self.first_line = first_line
        self.source_lines = source_lines
        self.name = name
        self.env = dict(builtins.__dict__)
        self.env.update(func.__globals__)
        if func.__closure__:
            for n, cell in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.env[n] = cell.cell_contents
                except ValueError:
                    pass
        self.params = []  # (python name, type, cname)
        self.symbols = {}  # python name -> _ArrayRef | _SharedRef | ("local", type, cname) | ("param", type, cname)
        self.locals = []  # (cname, type) in declaration order
        self.lines = []
        self.depth = 1
        self.shared_decls = []
        self.dynamic_shared = None
        self.temps = 0
        self.uses_half = False
        self.uses_complex = False
        self.loop_depth = 0
        args = tree.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
            self.error(tree, NotImplementedError, "kernel parameters must be plain positional names (no *args, "
                                                  "**kwargs, keyword-only or default values)")
        names = [a.arg for a in args.args]
        if len(names) != len(arg_types):
            raise TypeError("cunpx.jit: kernel '%s' takes %d arguments (%s), got %d"
                            % (name, len(names), ", ".join(names), len(arg_types)))
        for n, t in zip(names, arg_types):
            cname = self.cname(n)
            self.params.append((n, t, cname))
            if isinstance(t, Array):
                self.symbols[n] = _ArrayRef(n, t, cname)
                self.note_type(t.elem)
            else:
                self.symbols[n] = ("param", t, cname)
                self.note_type(t)

    # ---- errors and names
    def error(self, node, exc, msg):
        line = getattr(node, "lineno", 1) + self.first_line - 1
        text = ""
        idx = getattr(node, "lineno", 1) - 1
        if 0 <= idx < len(self.source_lines):
            text = "\n    " + self.source_lines[idx].strip()
        raise exc("cunpx.jit: %s:%d (kernel '%s'): %s%s" % (self.filename, line, self.name, msg, text))

    def cname(self, name):
        if name in _CXX_KEYWORDS or name.startswith("_cunp") or name.startswith("cunp_jit"):
            return name + "_"
        return name

    def note_type(self, t):
        if isinstance(t, Scalar):
            self.uses_half |= t.dtype == numpy.float16
            self.uses_complex |= t.dtype.kind == "c"

    def emit(self, line):
        self.lines.append("  " * self.depth + line)

    def temp(self, t, prefix="_cunp_t"):
        self.temps += 1
        name = "%s%d" % (prefix, self.temps)
        self.locals.append((name, t))
        return name

    # ---- the kernel
    def translate(self):
        body = self.tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # the docstring
        for stmt in body:
            self.statement(stmt)
        return self.source()

    def source(self):
        params = []
        for n, t, c in self.params:
            if isinstance(t, Array):
                params.append("%s* %s" % (t.elem.ctype, c))
                params += ["long long _cunp_%s_s%d" % (c, d) for d in range(t.ndim)]
                params += ["long long _cunp_%s_t%d" % (c, d) for d in range(t.ndim)]
            else:
                params.append("const %s %s" % (t.ctype, c))
        out = ["// cunpx.jit kernel '%s' from %s:%d" % (self.name, self.filename, self.first_line)]
        if self.uses_half:
            out.append("#include <cuda_fp16.h>")
        if self.uses_complex:
            out.append("#include <cunp/complex.cuh>")
        out.append(_HELPERS)
        if self.uses_complex:
            out.append(_COMPLEX_HELPERS)
        out.append('extern "C" __global__ void %s(%s) {' % (self.name, ", ".join(params)))
        out += ["  " + d for d in self.shared_decls]
        out += ["  %s %s;" % (t.ctype, c) for c, t in self.locals]
        out += self.lines
        out.append("}")
        return "\n".join(out) + "\n"

    # ---- statements
    def statement(self, node):
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            self.error(node, NotImplementedError, "%s statements are not supported in kernels"
                       % _describe_stmt(node))
        method(node)

    def stmt_Pass(self, node):
        pass

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a string statement (a comment)
        v = self.expr(node.value)
        if v.code is None:
            self.error(node, NotImplementedError, "this expression does nothing in a kernel")
        self.emit(v.code + ";")

    def stmt_Return(self, node):
        if node.value is not None:
            self.error(node, TypeError, "kernels return nothing (write the result to an array argument)")
        self.emit("return;")

    def stmt_Break(self, node):
        if not self.loop_depth:
            self.error(node, SyntaxError, "'break' outside a loop")
        self.emit("break;")

    def stmt_Continue(self, node):
        if not self.loop_depth:
            self.error(node, SyntaxError, "'continue' outside a loop")
        self.emit("continue;")

    def stmt_If(self, node):
        cond = self.as_bool(node.test, self.expr(node.test))
        self.emit("if (%s) {" % cond)
        self.block(node.body)
        if node.orelse:
            self.emit("} else {")
            self.block(node.orelse)
        self.emit("}")

    def stmt_While(self, node):
        if node.orelse:
            self.error(node, NotImplementedError, "while ... else is not supported")
        # The condition may need statements (temporaries) each time: while (true) { if (!c) break; ... }
        mark = len(self.lines)
        cond = self.as_bool(node.test, self.expr(node.test))
        if len(self.lines) != mark:
            self.error(node.test, NotImplementedError, "this loop condition cannot be translated")
        self.emit("while (%s) {" % cond)
        self.loop_depth += 1
        self.block(node.body)
        self.loop_depth -= 1
        self.emit("}")

    def stmt_For(self, node):
        if node.orelse:
            self.error(node, NotImplementedError, "for ... else is not supported")
        if not isinstance(node.target, ast.Name):
            self.error(node.target, NotImplementedError, "the loop variable must be a name")
        it = node.iter
        fn = self.expr(it.func) if isinstance(it, ast.Call) else None
        if fn is None or fn.obj is not range:
            self.error(it, NotImplementedError, "for loops iterate over range(...) only")
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.error(it, TypeError, "range() takes 1 to 3 positional arguments")
        vals = [self.expr(a) for a in it.args]
        for a, v in zip(it.args, vals):
            self.check_integer(a, v, "range() arguments must be integers")
        if len(vals) == 1:
            vals = [_constant(0), vals[0]]
        if len(vals) == 2:
            vals.append(_constant(1))
        start, stop, step = vals
        t = T.promote(T.promote(start.type, stop.type), step.type)
        if step.const is not None and step.const == 0:
            self.error(it, ValueError, "range() arg 3 must not be zero")
        stop_c = self.spill(stop, t)
        step_c = self.spill(step, t)
        if step.positive:
            step = _Value(step_c, t, positive=True)
        counter = self.temp(t, "_cunp_i")
        if step.const is not None or step.positive:
            cmp = "%s %s %s" % (counter, "<" if step.positive or step.const > 0 else ">", stop_c)
        else:
            cmp = "(%s > 0 ? %s < %s : %s > %s)" % (step_c, counter, stop_c, counter, stop_c)
        self.emit("for (%s = %s; %s; %s += %s) {" % (counter, T.convert(start.code, start.type, t), cmp, counter,
                                                      step_c))
        self.depth += 1
        self.assign_name(node.target, node.target.id, _Value(counter, t))
        self.depth -= 1
        self.loop_depth += 1
        self.block(node.body)
        self.loop_depth -= 1
        self.emit("}")

    def spill(self, v, t):
        """`v` converted to t, evaluated once: a constant as it is, else a temporary."""
        if v.const is not None:
            return T.convert(v.code, v.type, t)
        name = self.temp(t)
        self.emit("%s = %s;" % (name, T.convert(v.code, v.type, t)))
        return name

    def block(self, stmts):
        self.depth += 1
        for s in stmts:
            self.statement(s)
        self.depth -= 1

    def stmt_Assign(self, node):
        value = self.expr(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def stmt_AugAssign(self, node):
        target = node.target
        if isinstance(target, ast.Name):
            current = self.expr(ast.Name(id=target.id, ctx=ast.Load(), lineno=target.lineno))
        elif isinstance(target, ast.Subscript):
            current = self.expr(target)
        else:
            self.error(target, NotImplementedError, "augmented assignment to this target is not supported")
        if current.code is None or not isinstance(current.type, Scalar):
            self.error(target, TypeError, "augmented assignment needs a number")
        result = self.binop(node, node.op, current, self.expr(node.value))
        self.assign(target, result, node)

    def stmt_AnnAssign(self, node):
        self.error(node, NotImplementedError, "annotated assignments are not supported; assign a typed value, "
                                              "e.g. x = numpy.float32(0)")

    def assign(self, target, value, node):
        if isinstance(target, ast.Name):
            self.assign_name(target, target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value.type, Tuple) or len(value.type.items) != len(target.elts):
                self.error(target, TypeError, "cannot unpack this value into %d names" % len(target.elts))
            # Evaluate every item before assigning any (a, b = b, a).
            temps = []
            for item in value.type.items:
                if item.const is not None:
                    temps.append(item)
                else:
                    name = self.temp(item.type)
                    self.emit("%s = %s;" % (name, item.code))
                    temps.append(_Value(name, item.type))
            for t, v in zip(target.elts, temps):
                self.assign(t, v, node)
        elif isinstance(target, ast.Subscript):
            place = self.expr(target)
            if place.code is None or place.ref is None:
                self.error(target, TypeError, "only elements of arrays can be assigned")
            self.check_number(target, value)
            self.emit("%s = %s;" % (place.code, T.convert(value.code, value.type, place.type)))
        else:
            self.error(target, NotImplementedError, "assignment to %s is not supported" % type(target).__name__)

    def assign_name(self, node, name, value):
        if value.ref is not None and isinstance(value.ref, _SharedRef):
            sym = self.symbols.get(name)
            if sym is not None and sym is not value.ref:
                self.error(node, TypeError, "'%s' already names a value; a shared array needs a new name" % name)
            self.symbols[name] = value.ref
            return
        sym = self.symbols.get(name)
        if isinstance(sym, (_ArrayRef, _SharedRef)):
            self.error(node, TypeError, "'%s' is an array; it cannot be assigned" % name)
        self.check_number(node, value)
        if sym is None:
            cname = self.cname(name)
            sym = self.symbols[name] = ("local", value.type, cname)
            self.locals.append((cname, value.type))
            self.note_type(value.type)
        _, t, cname = sym
        self.emit("%s = %s;" % (cname, T.convert(value.code, value.type, t)))

    # ---- expressions
    def expr(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            self.error(node, NotImplementedError, "%s is not supported in kernels" % _describe_expr(node))
        return method(node)

    def expr_Constant(self, node):
        v = _constant(node.value)
        if v is None:
            self.error(node, NotImplementedError, "the constant %r is not supported in kernels" % (node.value,))
        self.note_type(v.type)
        return v

    def expr_Name(self, node):
        sym = self.symbols.get(node.id)
        if isinstance(sym, _ArrayRef):
            return _Value(ref=sym, type=sym.type)
        if isinstance(sym, _SharedRef):
            return _Value(ref=sym, type=SharedArray(sym.dtype))
        if sym is not None:
            return _Value(sym[2], sym[1])
        if node.id not in self.env:
            self.error(node, NameError, "name '%s' is not defined" % node.id)
        return self.python_value(node, self.env[node.id])

    def python_value(self, node, obj):
        if obj is B.warpsize:
            return _Value("warpSize", T.INT32)
        c = _constant(obj) if isinstance(obj, (bool, int, float, complex, numpy.generic)) else None
        if c is not None:
            self.note_type(c.type)
            return c
        return _Value(obj=obj)

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        if base.ref is not None and base.code is None:  # an array itself (not one of its elements)
            if isinstance(base.ref, _ArrayRef):
                a = base.ref
                if node.attr == "shape":
                    return _Value(obj=_ShapeRef(a, "s"))
                if node.attr == "strides":
                    return _Value(obj=_ShapeRef(a, "t"))
                if node.attr == "ndim":
                    return _constant(a.type.ndim)
                if node.attr == "size":
                    if a.type.ndim == 0:
                        return _constant(1)
                    return _Value("(%s)" % " * ".join("_cunp_%s_s%d" % (a.cname, d) for d in range(a.type.ndim)),
                                  T.INT64)
                if node.attr == "dtype":
                    return _Value(obj=a.type.dtype)
            self.error(node, NotImplementedError, "the array attribute '%s' is not supported in kernels" % node.attr)
        if base.obj is None:
            if base.type is not None and isinstance(base.type, Scalar) and base.type.kind == "c" \
                    and node.attr in ("real", "imag"):
                t = Scalar(numpy.float64 if base.type.dtype == numpy.complex128 else numpy.float32)
                return _Value("(%s).%s" % (base.code, "re" if node.attr == "real" else "im"), t)
            self.error(node, NotImplementedError, "attribute '%s' of this value is not supported" % node.attr)
        obj = base.obj
        if isinstance(obj, B.Dim3):
            if node.attr not in ("x", "y", "z"):
                self.error(node, AttributeError, "%s has x, y and z" % obj.name)
            return _Value("%s.%s" % (obj.name, node.attr), T.UINT32)
        try:
            value = getattr(obj, node.attr)
        except AttributeError:
            self.error(node, AttributeError, "%r has no attribute '%s'" % (obj, node.attr))
        return self.python_value(node, value)

    def expr_Subscript(self, node):
        base = self.expr(node.value)
        idx = node.slice
        if isinstance(base.obj, _ShapeRef):
            k = self.expr(idx)
            if k.const is None or not isinstance(k.const, int) or isinstance(k.const, bool):
                self.error(idx, TypeError, "shape and strides take a constant index")
            a = base.obj.array
            n = k.const + a.type.ndim if k.const < 0 else k.const
            if not 0 <= n < a.type.ndim:
                self.error(idx, IndexError, "%s has %d dimensions" % (a.name, a.type.ndim))
            return _Value("_cunp_%s_%s%d" % (a.cname, base.obj.what, n), T.INT64)
        if isinstance(base.type, Tuple):
            k = self.expr(idx)
            if k.const is None:
                self.error(idx, TypeError, "tuples take a constant index")
            return base.type.items[k.const]
        if isinstance(base.ref, _SharedRef):
            i = self.expr(idx)
            self.check_integer(idx, i, "shared array indices must be integers")
            t = Scalar(base.ref.dtype)
            return _Value("%s[%s]" % (base.ref.cname, T.convert(i.code, i.type, T.INT64)), t, ref=base.ref)
        if isinstance(base.ref, _ArrayRef):
            return self.element(node, base.ref, idx)
        self.error(node, TypeError, "this value cannot be indexed in a kernel")

    def element(self, node, a, idx):
        if isinstance(idx, ast.Slice) or (isinstance(idx, ast.Tuple) and any(isinstance(e, ast.Slice) for e in idx.elts)):
            self.error(idx, NotImplementedError, "slices are not supported in kernels; index single elements")
        items = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        if len(items) != a.type.ndim:
            self.error(idx, IndexError, "'%s' has %d dimensions but %d indices were given"
                       % (a.name, a.type.ndim, len(items)))
        terms = []
        for d, e in enumerate(items):
            v = self.expr(e)
            self.check_integer(e, v, "array indices must be integers")
            terms.append("%s * _cunp_%s_t%d" % (T.convert(v.code, v.type, T.INT64), a.cname, d))
        ct = a.type.elem.ctype
        if not terms:
            return _Value("(*%s)" % a.cname, a.type.elem, ref=a)
        code = "(*reinterpret_cast<%s*>(reinterpret_cast<char*>(%s) + %s))" % (ct, a.cname, " + ".join(terms))
        return _Value(code, a.type.elem, ref=a)

    def expr_Tuple(self, node):
        items = [self.expr(e) for e in node.elts]
        for e, v in zip(node.elts, items):
            self.check_number(e, v)
        return _Value(type=Tuple(items))

    expr_List = expr_Tuple

    def expr_UnaryOp(self, node):
        v = self.expr(node.operand)
        self.check_number(node.operand, v)
        if isinstance(node.op, ast.Not):
            return _Value("(!%s)" % self.as_bool(node.operand, v), T.BOOL)
        t = T.unary_promote(v.type)
        if isinstance(node.op, ast.Invert):
            if v.type.kind == "b":
                return _Value("(!%s)" % v.code, T.BOOL)
            if v.type.kind not in "iu":
                self.error(node, TypeError, "~ takes integers")
        op = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
        const = None
        if v.const is not None and isinstance(node.op, ast.USub):
            const = -v.const
        return _Value("(%s%s)" % (op, T.convert(v.code, v.type, t)), t, const=const)

    def expr_BinOp(self, node):
        return self.binop(node, node.op, self.expr(node.left), self.expr(node.right))

    def binop(self, node, op, a, b):
        self.check_number(node, a)
        self.check_number(node, b)
        ta, tb = a.type, b.type
        t = T.promote(ta, tb)
        self.note_type(t)
        ints = ta.kind in "biu" and tb.kind in "biu"
        ca, cb = (lambda tt: T.convert(a.code, ta, tt)), (lambda tt: T.convert(b.code, tb, tt))
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult)):
            sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(op)]
            return _Value("(%s %s %s)" % (ca(t), sym, cb(t)), t)
        if isinstance(op, ast.Div):
            if ints:
                t = T.FLOAT64
            return _Value("(%s / %s)" % (ca(t), cb(t)), t)
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            if t.kind == "c":
                self.error(node, TypeError, "// and % do not take complex numbers")
            fn = "floordiv" if isinstance(op, ast.FloorDiv) else "mod"
            return _Value("cunp_jit::%s<%s>(%s, %s)" % (fn, t.ctype, ca(t), cb(t)), t)
        if isinstance(op, ast.Pow):
            if ints:
                return _Value("cunp_jit::ipow<%s>(%s, %s)" % (t.ctype, ca(t), cb(t)), t)
            f = T.floating(t)
            fname = "pow" if f.dtype != numpy.float32 else "powf"
            return _Value("%s(%s, %s)" % (fname, ca(f), cb(f)), f)
        if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)):
            if not ints:
                self.error(node, TypeError, "bitwise operators and shifts take integers and bools")
            sym = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}[type(op)]
            if ta.kind == "b" and tb.kind == "b" and sym in "&|^":
                return _Value("((bool)(%s %s %s))" % (a.code, sym, b.code), T.BOOL)
            return _Value("(%s %s %s)" % (ca(t), sym, cb(t)), t)
        self.error(node, NotImplementedError, "the operator %s is not supported in kernels" % type(op).__name__)

    def expr_BoolOp(self, node):
        sym = " && " if isinstance(node.op, ast.And) else " || "
        parts = [self.as_bool(v, self.expr(v)) for v in node.values]
        return _Value("(%s)" % sym.join(parts), T.BOOL)

    def expr_Compare(self, node):
        parts = []
        left = self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            self.check_number(node, left)
            self.check_number(node, right)
            if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                self.error(node, NotImplementedError, "is / in comparisons are not supported in kernels")
            t = T.promote(left.type, right.type)
            sym = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
            if t.kind == "c" and sym not in ("==", "!="):
                self.error(node, TypeError, "complex numbers are not ordered")
            lc, rc = T.convert(left.code, left.type, t), T.convert(right.code, right.type, t)
            if t.kind == "c":
                parts.append("((%s).re %s (%s).re %s (%s).im %s (%s).im)"
                             % (lc, sym, rc, "&&" if sym == "==" else "||", lc, sym, rc))
            else:
                parts.append("(%s %s %s)" % (lc, sym, rc))
            left = right
        return _Value("(%s)" % " && ".join(parts), T.BOOL)

    def expr_IfExp(self, node):
        c = self.as_bool(node.test, self.expr(node.test))
        a, b = self.expr(node.body), self.expr(node.orelse)
        self.check_number(node, a)
        self.check_number(node, b)
        t = T.promote(a.type, b.type) if a.type != b.type else a.type
        return _Value("(%s ? %s : %s)" % (c, T.convert(a.code, a.type, t), T.convert(b.code, b.type, t)), t)

    # ---- checks
    def check_number(self, node, v):
        if v.code is None or not isinstance(v.type, Scalar):
            what = "an array" if v.ref is not None else ("a tuple" if isinstance(v.type, Tuple) else
                                                        "the Python object %r" % (v.obj,))
            self.error(node, TypeError, "a number is needed here, got %s" % what)

    def check_integer(self, node, v, msg):
        self.check_number(node, v)
        if v.type.kind not in "biu":
            self.error(node, TypeError, msg)

    def as_bool(self, node, v):
        self.check_number(node, v)
        return T.convert(v.code, v.type, T.BOOL)

    # ---- calls
    def expr_Call(self, node):
        fn = self.expr(node.func)
        obj = fn.obj
        if obj is None:
            self.error(node.func, TypeError, "this value cannot be called in a kernel")
        for kw in node.keywords:
            if kw.arg is None:
                self.error(node, NotImplementedError, "**kwargs are not supported in kernels")
        if any(isinstance(a, ast.Starred) for a in node.args):
            self.error(node, NotImplementedError, "*args are not supported in kernels")
        kwargs = {kw.arg: kw.value for kw in node.keywords}
        if isinstance(obj, B._DeviceOnly):
            return self.device_builtin(node, obj, node.args, kwargs)
        if obj is range:
            self.error(node, NotImplementedError, "range() is supported only as the iterable of a for loop")
        cast = _cast_dtype(obj)
        if cast is not None:
            if len(node.args) != 1 or kwargs:
                self.error(node, TypeError, "%s() takes one argument here" % getattr(obj, "__name__", obj))
            v = self.expr(node.args[0])
            self.check_number(node.args[0], v)
            t = Scalar(cast)
            self.note_type(t)
            return _Value(T.convert(v.code, v.type, t), t, const=v.const)
        if obj is len:
            a = self.expr(node.args[0]) if len(node.args) == 1 else None
            if a is None or not isinstance(a.ref, _ArrayRef) or a.ref.type.ndim == 0:
                self.error(node, TypeError, "len() takes an array of at least one dimension")
            return _Value("_cunp_%s_s0" % a.ref.cname, T.INT64)
        name = _math_name(obj)
        if name is None:
            self.error(node, NotImplementedError, "calling %s is not supported in kernels"
                       % getattr(obj, "__qualname__", getattr(obj, "__name__", repr(obj))))
        if kwargs:
            self.error(node, TypeError, "%s() takes no keyword arguments in kernels" % name)
        args = [self.expr(a) for a in node.args]
        for a, v in zip(node.args, args):
            self.check_number(a, v)
        return self.math_call(node, name, args)

    def math_call(self, node, name, args):
        name = _ALIASES.get(name, name)
        if name in ("min", "max"):
            if len(args) < 2:
                self.error(node, TypeError, "%s() takes at least 2 numbers in kernels" % name)
            acc = args[0]
            for b in args[1:]:
                t = T.promote(acc.type, b.type)
                if t.kind == "c":
                    self.error(node, TypeError, "complex numbers are not ordered")
                acc = _Value("%s(%s, %s)" % (name, T.convert(acc.code, acc.type, t), T.convert(b.code, b.type, t)), t)
            return acc
        if name == "abs":
            self.arity(node, name, args, 1)
            v = args[0]
            t = T.unary_promote(v.type)
            if t.kind == "c":
                real = T.FLOAT64 if t.dtype == numpy.complex128 else T.FLOAT32
                return _Value("abs(%s)" % v.code, real)
            if t.kind == "u":
                return _Value(T.convert(v.code, v.type, t), t)
            if t.kind == "i":
                return _Value("%s(%s)" % ("llabs" if t.dtype.itemsize == 8 else "abs", T.convert(v.code, v.type, t)), t)
            return _Value("%s(%s)" % ("fabsf" if t == T.FLOAT32 else "fabs", T.convert(v.code, v.type, t)), t)
        if name in _PREDICATES:
            self.arity(node, name, args, 1)
            v = args[0]
            if v.type.kind in "biu":
                return _Value("false" if name != "isfinite" else "true", T.BOOL)
            if v.type.kind == "c":
                self.error(node, TypeError, "%s() of complex numbers is not supported in kernels" % name)
            f = T.floating(v.type)
            return _Value("((bool)%s(%s))" % (name, T.convert(v.code, v.type, f)), T.BOOL)
        if name not in _MATH:
            self.error(node, NotImplementedError, "the function %s is not supported in kernels" % name)
        fname32, fname64, n = _MATH[name]
        self.arity(node, name, args, n)
        t = args[0].type if n == 1 else T.promote(args[0].type, args[1].type)
        f = T.floating(t)
        if f.kind == "c":
            if name not in _COMPLEX_OK:
                self.error(node, TypeError, "%s() of complex numbers is not supported in kernels" % name)
            self.uses_complex = True
            return _Value("%s(%s)" % (fname64, ", ".join(T.convert(a.code, a.type, f) for a in args)), f)
        fname = fname32 if f == T.FLOAT32 else fname64
        return _Value("%s(%s)" % (fname, ", ".join(T.convert(a.code, a.type, f) for a in args)), f)

    def arity(self, node, name, args, n):
        if len(args) != n:
            self.error(node, TypeError, "%s() takes %d argument%s" % (name, n, "" if n == 1 else "s"))

    # ---- device builtins
    def device_builtin(self, node, obj, args, kwargs):
        name = obj.name
        if isinstance(obj, B.Dim3) or obj is B.warpsize:
            self.error(node, TypeError, "%s is not callable" % name)
        if name in ("grid", "gridsize"):
            if len(args) != 1 or kwargs:
                self.error(node, TypeError, "%s() takes one argument, ndim" % name)
            nd = self.expr(args[0]).const
            if nd not in (1, 2, 3):
                self.error(node, ValueError, "%s() takes a constant ndim of 1, 2 or 3" % name)
            if name == "grid":
                items = [_Value("((long long)blockIdx.%s * blockDim.%s + threadIdx.%s)" % (c, c, c), T.INT64)
                         for c in "xyz"[:nd]]
            else:
                items = [_Value("((long long)blockDim.%s * gridDim.%s)" % (c, c), T.INT64, positive=True)
                         for c in "xyz"[:nd]]
            return items[0] if nd == 1 else _Value(type=Tuple(items))
        if name == "laneid":
            self.no_args(node, name, args, kwargs)
            return _Value("cunp_jit::laneid()", T.UINT32)
        if name == "syncthreads":
            self.no_args(node, name, args, kwargs)
            return _Value("__syncthreads()", None)
        if name == "syncwarp":
            mask = kwargs.pop("mask", args[0] if args else None)
            if kwargs or len(args) > 1:
                self.error(node, TypeError, "syncwarp() takes mask=")
            if mask is None:
                return _Value("__syncwarp()", None)
            m = self.expr(mask)
            self.check_integer(mask, m, "the mask must be an integer")
            return _Value("__syncwarp(%s)" % T.convert(m.code, m.type, T.UINT32), None)
        if name == "shared_memory":
            return self.shared_memory(node, args, kwargs)
        if name in B.ATOMICS:
            return self.atomic(node, name, args, kwargs)
        if name in B.SHUFFLES:
            return self.shuffle(node, name, args, kwargs)
        self.error(node, NotImplementedError, "cunpx.jit.%s is not supported here" % name)

    def no_args(self, node, name, args, kwargs):
        if args or kwargs:
            self.error(node, TypeError, "%s() takes no arguments" % name)

    def shared_memory(self, node, args, kwargs):
        params = _bind(self, node, "shared_memory", ["dtype", "size", "alignment"], args, kwargs, required=2)
        dt = _cast_dtype(self.expr(params["dtype"]).obj)
        if dt is None:
            self.error(node, TypeError, "shared_memory() takes a dtype first")
        t = Scalar(dt)
        self.note_type(t)
        align = ""
        if params.get("alignment") is not None:
            a = self.expr(params["alignment"]).const
            if not isinstance(a, int) or a <= 0 or a & (a - 1):
                self.error(node, ValueError, "alignment must be a constant power of two")
            align = "__align__(%d) " % a
        size_node = params["size"]
        self.temps += 1
        cname = "_cunp_smem%d" % self.temps
        if isinstance(size_node, ast.Constant) and size_node.value is None:
            # The launch's dynamic shared memory (shared_mem=); every such array aliases it.
            if self.dynamic_shared is None:
                self.dynamic_shared = "_cunp_dyn_smem"
                self.shared_decls.insert(0, "extern __shared__ __align__(16) unsigned char _cunp_dyn_smem[];")
            self.shared_decls.append("%s* const %s = reinterpret_cast<%s*>(_cunp_dyn_smem);"
                                     % (t.ctype, cname, t.ctype))
        else:
            size = self.expr(size_node)
            if size.const is None or not isinstance(size.const, int) or isinstance(size.const, bool) \
                    or size.const <= 0:
                self.error(node, ValueError, "shared_memory() takes a positive constant size (or None for the "
                                             "launch's dynamic shared memory)")
            self.shared_decls.append("__shared__ %s%s %s[%d];" % (align, t.ctype, cname, size.const))
        ref = _SharedRef("shared", dt, cname)
        return _Value(ref=ref, type=SharedArray(dt))

    def address(self, node, arr_node, idx_node):
        arr = self.expr(arr_node)
        if isinstance(arr.ref, _ArrayRef):
            elem = self.element(node, arr.ref, idx_node)
        elif isinstance(arr.ref, _SharedRef):
            i = self.expr(idx_node)
            self.check_integer(idx_node, i, "shared array indices must be integers")
            elem = _Value("%s[%s]" % (arr.ref.cname, T.convert(i.code, i.type, T.INT64)), Scalar(arr.ref.dtype))
        else:
            self.error(arr_node, TypeError, "atomics take an array or a shared array")
        return "&%s" % elem.code, elem.type

    def atomic(self, node, name, args, kwargs):
        names = ["array", "index", "cond", "value"] if name == "atomic_cas" else ["array", "index", "value"]
        params = _bind(self, node, name, names + ["alignment"], args, kwargs, required=len(names))
        addr, t = self.address(node, params["array"], params["index"])
        vals = []
        for n in names[2:]:
            v = self.expr(params[n])
            self.check_number(params[n], v)
            vals.append(T.convert(v.code, v.type, t))
        dt = t.dtype.name
        op = name[len("atomic_"):]
        cuda = "atomic" + {"cas": "CAS"}.get(op, op.capitalize())
        v = vals[-1]
        ull = "unsigned long long"

        def unsupported():
            self.error(node, TypeError, "%s does not take %s arrays" % (name, dt))

        if op == "add":
            if dt in ("int32", "uint32", "uint64", "float32", "float64", "float16"):
                return _Value("%s(%s, %s)" % (cuda, addr, v), t)
            if dt == "int64":
                return _Value("(long long)atomicAdd((%s*)(%s), (%s)(%s))" % (ull, addr, ull, v), t)
            unsupported()
        if op == "sub":
            if dt in ("int32", "uint32"):
                return _Value("atomicSub(%s, %s)" % (addr, v), t)
            if dt in ("int64", "uint64"):
                return _Value("(%s)atomicAdd((%s*)(%s), (%s)0 - (%s)(%s))" % (t.ctype, ull, addr, ull, ull, v), t)
            unsupported()
        if op == "exch":
            if dt in ("int32", "uint32", "uint64", "float32"):
                return _Value("atomicExch(%s, %s)" % (addr, v), t)
            if dt == "int64":
                return _Value("(long long)atomicExch((%s*)(%s), (%s)(%s))" % (ull, addr, ull, v), t)
            if dt == "float64":
                return _Value("__longlong_as_double((long long)atomicExch((%s*)(%s), (%s)__double_as_longlong(%s)))"
                              % (ull, addr, ull, v), t)
            unsupported()
        if op in ("min", "max"):
            if dt in ("int32", "uint32", "int64", "uint64"):
                return _Value("%s(%s, %s)" % (cuda, addr, v), t)
            unsupported()
        if op in ("inc", "dec"):
            if dt == "uint32":
                return _Value("%s(%s, %s)" % (cuda, addr, v), t)
            unsupported()
        if op == "cas":
            c = vals[0]
            if dt in ("int32", "uint32", "uint64", "uint16"):
                return _Value("atomicCAS(%s, %s, %s)" % (addr, c, v), t)
            if dt == "int64":
                return _Value("(long long)atomicCAS((%s*)(%s), (%s)(%s), (%s)(%s))" % (ull, addr, ull, c, ull, v), t)
            if dt == "float32":
                return _Value("__int_as_float(atomicCAS((int*)(%s), __float_as_int(%s), __float_as_int(%s)))"
                              % (addr, c, v), t)
            if dt == "float64":
                return _Value("__longlong_as_double((long long)atomicCAS((%s*)(%s), (%s)__double_as_longlong(%s), "
                              "(%s)__double_as_longlong(%s)))" % (ull, addr, ull, c, ull, v), t)
            unsupported()
        if op in ("and", "or", "xor"):
            if dt in ("int32", "uint32", "uint64"):
                return _Value("%s(%s, %s)" % (cuda, addr, v), t)
            if dt == "int64":
                return _Value("(long long)%s((%s*)(%s), (%s)(%s))" % (cuda, ull, addr, ull, v), t)
            unsupported()
        unsupported()

    def shuffle(self, node, name, args, kwargs):
        third = {"shfl_sync": "srcLane", "shfl_xor_sync": "laneMask"}.get(name, "delta")
        params = _bind(self, node, name, ["mask", "var", third, "width"], args, kwargs, required=3)
        mask, var, lane = (self.expr(params[k]) for k in ("mask", "var", third))
        self.check_integer(params["mask"], mask, "the mask must be an integer")
        self.check_number(params["var"], var)
        self.check_integer(params[third], lane, "%s must be an integer" % third)
        t = var.type
        if t.dtype.name not in ("int32", "uint32", "int64", "uint64", "float32", "float64", "float16"):
            if t.kind in "biu":
                t = T.INT32
            else:
                self.error(node, TypeError, "%s does not take %s values" % (name, t.dtype.name))
        width = "32"
        if params.get("width") is not None:
            w = self.expr(params["width"])
            self.check_integer(params["width"], w, "width must be an integer")
            width = T.convert(w.code, w.type, T.INT32)
        cuda = "__" + name
        lane_t = T.INT32 if name != "shfl_up_sync" and name != "shfl_down_sync" else T.UINT32
        return _Value("%s(%s, %s, %s, %s)" % (cuda, T.convert(mask.code, mask.type, T.UINT32),
                                              T.convert(var.code, var.type, t),
                                              T.convert(lane.code, lane.type, lane_t), width), t)


def _bind(tr, node, fname, names, args, kwargs, required):
    """Positional and keyword arguments of a builtin, by name (as ast nodes)."""
    if len(args) > len(names):
        tr.error(node, TypeError, "%s() takes at most %d arguments" % (fname, len(names)))
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            tr.error(node, TypeError, "%s() got an unexpected keyword argument '%s'" % (fname, k))
        if k in bound:
            tr.error(node, TypeError, "%s() got multiple values for argument '%s'" % (fname, k))
        bound[k] = v
    for n in names[:required]:
        if n not in bound:
            tr.error(node, TypeError, "%s() missing required argument '%s'" % (fname, n))
    return bound


def _cast_dtype(obj):
    """The dtype `obj(x)` converts to inside a kernel: int, float, bool, complex, NumPy's
    (and cunp's) scalar types and dtype objects; None for anything else."""
    if obj is int:
        return numpy.dtype(numpy.int64)
    if obj is float:
        return numpy.dtype(numpy.float64)
    if obj is bool:
        return numpy.dtype(numpy.bool_)
    if obj is complex:
        return numpy.dtype(numpy.complex128)
    if isinstance(obj, numpy.dtype):
        return obj if obj.name in T._C_NAMES else None
    if isinstance(obj, type) and issubclass(obj, numpy.generic):
        try:
            dt = numpy.dtype(obj)
        except TypeError:
            return None
        return dt if dt.name in T._C_NAMES else None
    return None


_MATH_OBJECTS = {}
for _n in dir(math):
    _MATH_OBJECTS[id(getattr(math, _n))] = _n
for _n in ("sqrt", "exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh",
           "acosh", "atanh", "log10", "isnan", "isinf", "isfinite"):
    _MATH_OBJECTS.setdefault(id(getattr(cmath, _n)), _n)
_MATH_OBJECTS[id(builtins.abs)] = "abs"
_MATH_OBJECTS[id(builtins.min)] = "min"
_MATH_OBJECTS[id(builtins.max)] = "max"
_MATH_OBJECTS[id(builtins.pow)] = "pow"
del _n


def _math_name(obj):
    """The math function `obj` is: a math/cmath function, abs/min/max/pow, or a NumPy or
    cunp ufunc (by name)."""
    n = _MATH_OBJECTS.get(id(obj))
    if n is not None:
        return n
    if isinstance(obj, numpy.ufunc):
        return obj.__name__
    try:
        import cunp
        if isinstance(obj, cunp.ufunc):
            return obj.__name__
    except ImportError:
        pass
    if obj in (numpy.amin, numpy.amax, numpy.min, numpy.max):
        return obj.__name__
    return None


def _describe_stmt(node):
    return {"FunctionDef": "nested function definitions (def)", "AsyncFunctionDef": "async def",
            "ClassDef": "class", "With": "with", "AsyncWith": "async with", "Try": "try", "Raise": "raise",
            "Assert": "assert", "Delete": "del", "Global": "global", "Nonlocal": "nonlocal", "Import": "import",
            "ImportFrom": "import", "Match": "match", "AsyncFor": "async for"}.get(type(node).__name__,
                                                                              type(node).__name__)


def _describe_expr(node):
    return {"Lambda": "lambda", "ListComp": "a list comprehension", "SetComp": "a set comprehension",
            "DictComp": "a dict comprehension", "GeneratorExp": "a generator expression", "Dict": "a dict",
            "Set": "a set", "JoinedStr": "an f-string", "Await": "await", "Yield": "yield",
            "YieldFrom": "yield from", "NamedExpr": "an assignment expression (:=)",
            "Starred": "*unpacking", "Slice": "a slice"}.get(type(node).__name__, type(node).__name__)
