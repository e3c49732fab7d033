"""Tables of argument forms run against NumPy and cunp in one test function: each case
is a function of the array module `xp`; both modules must return the same values
(helpers.assert_same) or raise the same exception type, with NumPy's message where
the case asks for it."""
import warnings

import numpy

import cunp
from helpers import assert_same


class Message:
    """A case whose exception message must equal NumPy's exactly; `label` names it in
    failure reports (default: the function's source line)."""

    def __init__(self, fn, label=None):
        self.fn = fn
        self.label = label


def _outcome(fn, xp):
    # Warnings (NumPy's All-NaN RuntimeWarning, ...) are not what these tables compare.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(xp), None
        except Exception as e:  # noqa: BLE001 - the oracle's exception is the expectation
            return None, e


def tolerance_of(dt):
    """A relative tolerance for results of dtype `dt` (0 for exact dtypes)."""
    dt = numpy.dtype(dt)
    return {2: 2e-3, 4: 2e-5, 8: 1e-12, 16: 1e-12}[dt.itemsize if dt.kind != "c" else dt.itemsize // 2] \
        if dt.kind in "fc" else 0.0


def _auto_tolerance(expected, scale):
    """`scale` times the tolerance of the expected result's dtype (its first array)."""
    first = expected
    while isinstance(first, (tuple, list)) and first:
        first = first[0]
    dt = getattr(first, "dtype", None)
    return tolerance_of(dt) * scale if dt is not None else 0.0


def check_cases(cases, rtol=0.0, atol=0.0, auto=None):
    """cases: an iterable of functions of xp (or Message(function)). Collects every
    disagreement and fails once, listing them with each case's source line. `rtol` and
    `atol` loosen value comparisons; with `auto`, rtol is at least that many times the
    tolerance of the result's dtype."""
    failures = []
    for case in cases:
        exact = isinstance(case, Message)
        fn = case.fn if exact else case
        expected, np_err = _outcome(fn, numpy)
        actual, cp_err = _outcome(fn, cunp)
        where = getattr(case, "label", None) or "%s:%d" % (fn.__code__.co_filename.rsplit("/", 1)[-1],
                                                             fn.__code__.co_firstlineno)
        if np_err is not None or cp_err is not None:
            if np_err is None:
                failures.append("%s: cunp raised %s(%s), NumPy returned %r" % (where, type(cp_err).__name__, cp_err,
                                                                              expected))
            elif cp_err is None:
                failures.append("%s: NumPy raised %s(%s), cunp returned %r" % (where, type(np_err).__name__, np_err,
                                                                              actual))
            elif not isinstance(cp_err, type(np_err)):
                failures.append("%s: NumPy raised %s(%s), cunp %s(%s)" % (where, type(np_err).__name__, np_err,
                                                                         type(cp_err).__name__, cp_err))
            elif exact and str(cp_err) != str(np_err):
                failures.append("%s: message %r, NumPy's %r" % (where, str(cp_err), str(np_err)))
            continue
        try:
            tol = max(rtol, _auto_tolerance(expected, auto)) if auto else rtol
            assert_same(actual, expected, rtol=tol, atol=atol)
        except AssertionError as e:
            failures.append("%s: %s" % (where, e))
    assert not failures, "\n".join(failures)
