"""``mypy --strict`` on tests/typing/drop_ins.py: the drop-ins' stubs give
NumPy-shaped calls the types NumPy's stubs give them."""

from __future__ import annotations

import os

import pytest

TYPING = os.path.join(os.path.dirname(__file__), "typing", "drop_ins.py")


def test_drop_ins_type_check_as_numpys_functions():
    api = pytest.importorskip("mypy.api", reason="needs mypy (pip install mypy)")
    stdout, stderr, status = api.run(["--strict", "--no-incremental", TYPING])
    assert status == 0, stdout + stderr
