"""NumPy's own tests of ``ravel_multi_index`` and ``unravel_index``
(``TestRavelUnravelIndex`` in ``numpy/lib/tests/test_index_tricks.py``, and
``TestTextSignatures.test_c_func_dispatcher_signature`` in
``numpy/_core/tests/test_multiarray.py`` for their ``__signature__``), run
against xlashape's drop-ins.

The test module is loaded from the installed NumPy, not copied, so a new
NumPy release shows any drift. Its name ``np`` is rebound to a view of
NumPy whose two functions are xlashape's; nothing else changes, and NumPy
itself is not patched.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import os
import types

import numpy as np
import pytest

import xlashape as xs

NUMPY_TESTS = os.path.join(os.path.dirname(np.lib.__file__), "tests", "test_index_tricks.py")
NUMPY_SIGNATURE_TESTS = os.path.join(
    os.path.dirname(np._core.__file__), "tests", "test_multiarray.py"
)

if not os.path.exists(NUMPY_TESTS):
    pytest.skip(
        f"this NumPy {np.__version__} was installed without its tests ({NUMPY_TESTS})",
        allow_module_level=True,
    )


class _NumPyWithDropIns(types.ModuleType):
    """``numpy``, except that ``ravel_multi_index`` and ``unravel_index``
    are xlashape's."""

    ravel_multi_index = staticmethod(xs.ravel_multi_index)
    unravel_index = staticmethod(xs.unravel_index)

    def __getattr__(self, name: str) -> object:
        return getattr(np, name)


def _load(name: str, path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _numpy_test_module() -> types.ModuleType:
    module = _load("numpy_test_index_tricks", NUMPY_TESTS)
    module.np = _NumPyWithDropIns("numpy")  # what the tests' ``np.`` now finds
    return module


_numpy_tests = _numpy_test_module()


class TestRavelUnravelIndex(_numpy_tests.TestRavelUnravelIndex):
    """NumPy's class, its test methods reading ``np`` from the module above."""


def test_the_drop_ins_are_what_numpys_tests_call():
    assert _numpy_tests.np.ravel_multi_index is xs.ravel_multi_index
    assert _numpy_tests.np.unravel_index is xs.unravel_index
    assert _numpy_tests.np.array is np.array
    names = [name for name in dir(TestRavelUnravelIndex) if name.startswith("test_")]
    assert names  # the class was found and has its tests (9 in NumPy 2.2, 12 in 2.4)


@functools.cache
def _signature_tests() -> object:
    return _load("numpy_test_multiarray", NUMPY_SIGNATURE_TESTS).TestTextSignatures()


@pytest.mark.parametrize("func", [xs.ravel_multi_index, xs.unravel_index], ids=lambda f: f.__name__)
def test_c_func_dispatcher_signature(func):
    """NumPy's test_c_func_dispatcher_signature[ravel_multi_index] and
    [unravel_index], its body called with the drop-ins (its parameters are
    bound to NumPy's functions when its module is read, so the ``np``
    rebinding above cannot reach them)."""
    if not os.path.exists(NUMPY_SIGNATURE_TESTS):
        pytest.skip(f"this NumPy was installed without {NUMPY_SIGNATURE_TESTS}")
    _signature_tests().test_c_func_dispatcher_signature(func)


def test_signatures_are_the_real_parameters():
    """NumPy's parameters first, in NumPy's order, then xlashape's
    keyword-only ones; a call binds as the signature says."""
    for func, numpy_func in [(xs.ravel_multi_index, np.ravel_multi_index),
                             (xs.unravel_index, np.unravel_index)]:
        ours = inspect.signature(func)
        theirs = list(inspect.signature(numpy_func).parameters.values())
        assert list(ours.parameters.values())[: len(theirs)] == theirs
        extra = list(ours.parameters.values())[len(theirs) :]
        assert [p.name for p in extra] == ["out", "padded_dims", "threads"]
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None for p in extra)
    bound = inspect.signature(xs.unravel_index).bind(5, (2, 3), "F", padded_dims=(2, 4))
    assert xs.unravel_index(*bound.args, **bound.kwargs) == (1, 2)
