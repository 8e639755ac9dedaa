"""The examples in the docstrings run as written.

doctest runs over the modules of the *installed* package, the one the tests
import (CI installs it and runs pytest from the checkout, whose source
``xlashape/`` has no compiled modules). An example sees ``np`` and ``xs``
(``import numpy as np, xlashape as xs``) and nothing else: not the names of
the module it is written in, so an example that calls a bare ``Shape(...)``
fails here as it would for a user who pastes it.
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
    for info in pkgutil.walk_packages(xlashape.__path__, "xlashape."):
        if info.name != "xlashape.__main__":
            names.append(info.name)
    return sorted(names)


def _user_globals() -> dict[str, object]:
    """What a user who ran ``import numpy as np, xlashape as xs`` has."""
    return {"np": np, "xs": xlashape}


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in finder.find(module, name, globs=_user_globals()):
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


def test_a_bare_name_in_an_example_fails():
    """The examples' globals are only the user's two imports: an example
    that calls a module's own name without ``xs.`` is a failure."""

    def example() -> None:
        """
        >>> Shape("f32", [2]).dimensions
        (2,)
        >>> xs.Shape("f32", [2]).dimensions
        (2,)
        """

    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in doctest.DocTestFinder().find(example, "example", globs=_user_globals()):
        runner.run(test, out=lambda _text: None)
    assert (runner.failures, runner.tries) == (1, 2)
