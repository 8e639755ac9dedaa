"""NumPy's own tests of ``ravel_multi_index`` and ``unravel_index``
(``TestRavelUnravelIndex`` in ``numpy/lib/tests/test_index_tricks.py``),
run against xlashape's drop-ins.

The test module is loaded from the installed NumPy, not copied, so a new
NumPy release shows any drift. Its name ``np`` is rebound to a view of
NumPy whose two functions are xlashape's; nothing else changes, and NumPy
itself is not patched.
"""

from __future__ import annotations

import importlib.util
import os
import types

import numpy as np
import pytest

import xlashape as xs

NUMPY_TESTS = os.path.join(os.path.dirname(np.lib.__file__), "tests", "test_index_tricks.py")

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


def _numpy_test_module() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("numpy_test_index_tricks", NUMPY_TESTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
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
