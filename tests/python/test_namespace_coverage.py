"""Every public callable of NumPy's main namespace, linalg, fft and random exists in
cunp, or is on the justified exclusion list of docs/differences.md ("Names cunp does not
have"); an excluded name that cunp has fails too, so the list stays true."""
import os
import re

import numpy
import pytest

import cunp

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "differences.md")
MODULES = ["", "linalg", "fft", "random"]


def public_callables(module):
    return sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))


def exclusions():
    text = open(DOCS, encoding="utf-8").read()
    block = re.search(r"<!-- namespace-exclusions: begin -->(.*?)<!-- namespace-exclusions: end -->", text, re.S)
    assert block, "docs/differences.md lacks the namespace-exclusions block"
    names = set()
    for line in block.group(1).splitlines():
        if line.startswith("- "):
            names.update(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", line.split(":")[0]))
    return names


def submodule(root, name):
    return getattr(root, name) if name else root


@pytest.mark.parametrize("name", MODULES, ids=lambda n: n or "numpy")
def test_every_numpy_callable_is_in_cunp_or_excluded(name):
    excluded = exclusions()
    ours = submodule(cunp, name)
    missing = [n for n in public_callables(submodule(numpy, name)) if not hasattr(ours, n) and n not in excluded]
    assert not missing, "numpy%s names missing from cunp: %s" % ("." + name if name else "", missing)


def test_exclusions_are_really_missing():
    present = sorted(n for n in exclusions() if hasattr(cunp, n))
    assert not present, "docs/differences.md excludes names cunp has: %s" % present
