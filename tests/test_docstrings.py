"""The examples in the docstrings run as written.

doctest runs over the modules of the *installed* package, the one the tests
import (CI installs it and runs pytest from the checkout, whose source
``xlashape/`` has no compiled modules). Every example may use ``np`` and
``xs`` (``import numpy as np, xlashape as xs``) without importing them.
"""

import doctest
import enum
import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import xlashape

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# Modules that need an extra to import.
NEEDS = {"xlashape.dask": "dask"}


def _module_names() -> list[str]:
    names = ["xlashape"]
    for info in pkgutil.iter_modules(xlashape.__path__, "xlashape."):
        if info.name != "xlashape.__main__":
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in finder.find(module, name, extraglobs={"np": np, "xs": xlashape}):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {name}; see the output"



def _public_objects() -> list[tuple[str, object]]:
    """Every name in ``xlashape.__all__``, and the public methods and
    properties of its classes (enum members aside)."""
    found = []
    for name in xlashape.__all__:
        obj = getattr(xlashape, name)
        found.append((name, obj))
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if not attr.startswith("_") and not isinstance(value, enum.Enum):
                    found.append((f"{name}.{attr}", value))
    return found


def test_every_public_object_has_an_example():
    missing = []
    for name, obj in _public_objects():
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, property):
            obj = obj.fget
        if ">>>" not in (inspect.getdoc(obj) or ""):
            missing.append(name)
    assert missing == [], (
        "add an Examples section (NumPy style, run by this module) to the "
        f"docstring of: {', '.join(missing)}"
    )
