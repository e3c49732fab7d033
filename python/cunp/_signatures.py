"""inspect.signature() for the functions and methods bound in C++, and for the ufuncs.

nanobind's function objects cannot carry a ``__signature__`` (Note [Inspectable bound
functions] in python/src/signature_py.cpp), so each public one is put behind a
forwarding ``_signed_function`` (namespaces) or ``_signed_method`` (ndarray methods)
whose signature is read, on first use, from the binding's own ``__nb_signature__``.
The ufunc objects get NumPy's ufunc signature for their number of inputs and outputs.
"""
import ast
import inspect
import re

from cunp import _core

_P = inspect.Parameter
_NB_FUNC = type(_core.zeros)
_NB_METHOD = type(_core.ndarray.copy)
_DEFAULT_REF = re.compile(r"\\(\d+)$")


class _Text:
    """A default value nanobind only gives as text: shown as that text."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _split_params(text):
    """The top-level comma-separated items of a nanobind signature's parameter list."""
    start = text.index("(") + 1
    depth, items, item, quote = 0, [], [], None
    for ch in text[start:]:
        if quote:
            item.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            items.append("".join(item).strip())
            item = []
            continue
        item.append(ch)
    last = "".join(item).strip()
    if last:
        items.append(last)
    return items


def _top_level_index(text, ch):
    depth = 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ch and depth == 0:
            return i
    return -1


def _default(text, defaults):
    ref = _DEFAULT_REF.match(text)
    if ref:
        return defaults[int(ref.group(1))]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return _Text(text)


def from_nanobind(func):
    """The inspect.Signature of a nanobind function, from its ``__nb_signature__``
    (None for an overloaded function: it has no single signature). A method's first
    parameter, ``self``, is positional-only."""
    sigs = func.__nb_signature__
    if len(sigs) != 1:
        return None
    text, _doc, defaults = sigs[0]
    params, kind = [], _P.POSITIONAL_OR_KEYWORD
    for item in _split_params(text):
        if item == "/":
            params = [p.replace(kind=_P.POSITIONAL_ONLY) for p in params]
        elif item == "*":
            kind = _P.KEYWORD_ONLY
        elif item.startswith("**"):
            params.append(_P(item[2:].split(":")[0].strip(), _P.VAR_KEYWORD))
        elif item.startswith("*"):
            params.append(_P(item[1:].split(":")[0].strip(), _P.VAR_POSITIONAL))
            kind = _P.KEYWORD_ONLY
        else:
            eq = _top_level_index(item, "=")
            head, default = (item[:eq], _default(item[eq + 1:].strip(), defaults)) if eq >= 0 else (item, _P.empty)
            name = head.split(":")[0].strip()
            params.append(_P(name, kind, default=default))
    if isinstance(func, _NB_METHOD) and params and params[0].name == "self" and params[0].kind is not _P.POSITIONAL_ONLY:
        params[0] = params[0].replace(kind=_P.POSITIONAL_ONLY)
    return inspect.Signature(params)


_core._signature_hook = from_nanobind
_signed = {}  # id(nanobind function) -> its _signed_function, so aliases stay one object


def sign_namespace(namespace, module_name):
    """Puts every public nanobind function of a module's namespace behind a
    _signed_function (the same one for every name it has)."""
    for name, value in list(namespace.items()):
        if type(value) is _NB_FUNC and not name.startswith("_"):
            s = _signed.get(id(value))
            if s is None:
                s = _signed[id(value)] = _core._signed_function(value)
                s.__module__ = module_name
            namespace[name] = s


def sign_methods(cls):
    """Puts each nanobind method of `cls` (but its constructor) behind a _signed_method."""
    for name, value in list(vars(cls).items()):
        if type(value) is _NB_METHOD and name not in ("__init__", "__new__"):
            m = _core._signed_method(value)
            m.__qualname__ = "%s.%s" % (cls.__name__, name)
            m.__module__ = cls.__module__
            setattr(cls, name, m)
    init = vars(cls).get("__init__")
    if type(init) is _NB_METHOD:  # the class's own signature: its constructor's, less `self`
        sig = from_nanobind(init)
        if sig is not None:
            params = list(sig.parameters.values())[1:]
            cls.__signature__ = sig.replace(parameters=params)


_UFUNC_KEYWORDS = [_P("where", _P.KEYWORD_ONLY, default=True), _P("casting", _P.KEYWORD_ONLY, default="same_kind"),
                   _P("order", _P.KEYWORD_ONLY, default="K"), _P("dtype", _P.KEYWORD_ONLY, default=None),
                   _P("subok", _P.KEYWORD_ONLY, default=True), _P("signature", _P.KEYWORD_ONLY, default=None)]


def ufunc_signature(nin, nout):
    """NumPy's signature of a ufunc call: ``(x, /, out=None, *, where=True, ...)`` for one
    input, ``(x1, x2, /, ...)`` for two; ``out=(None, None)`` for two outputs."""
    names = ["x"] if nin == 1 else ["x%d" % (i + 1) for i in range(nin)]
    params = [_P(n, _P.POSITIONAL_ONLY) for n in names]
    params.append(_P("out", _P.POSITIONAL_OR_KEYWORD, default=None if nout == 1 else (None,) * nout))
    return inspect.Signature(params + _UFUNC_KEYWORDS)


def sign_ufuncs(ufuncs):
    sigs = {}
    for u in ufuncs:
        key = (u.nin, u.nout)
        if key not in sigs:
            sigs[key] = ufunc_signature(*key)
        u.__signature__ = sigs[key]
