"""The drop-ins type-check as NumPy's functions do (``mypy --strict``):
each NumPy-shaped call below has the same type with ``np.`` and ``xs.``.

Checked, not run, by the mypy step of .ci/run (this file is among the
``files`` of ``[tool.mypy]`` in pyproject.toml).
"""

from __future__ import annotations

from typing import assert_type

import numpy as np
from numpy.typing import NDArray

import xlashape as xs


def same_types(
    rows: NDArray[np.int64], flat: NDArray[np.intp], one: int, small: np.int32, dims: list[int]
) -> None:
    assert_type(np.ravel_multi_index((1, 2), (3, 4)), np.intp)
    assert_type(xs.ravel_multi_index((1, 2), (3, 4)), np.intp)
    assert_type(np.ravel_multi_index([small, one], dims, mode="wrap", order="F"), np.intp)
    assert_type(xs.ravel_multi_index([small, one], dims, mode="wrap", order="F"), np.intp)
    assert_type(np.ravel_multi_index([rows, flat], (3, 4)), NDArray[np.intp])
    assert_type(xs.ravel_multi_index([rows, flat], (3, 4)), NDArray[np.intp])
    assert_type(np.ravel_multi_index((flat, flat), 12, mode=("clip", "wrap")), NDArray[np.intp])
    assert_type(xs.ravel_multi_index((flat, flat), 12, mode=("clip", "wrap")), NDArray[np.intp])
    assert_type(np.unravel_index(one, (3, 4)), tuple[np.intp, ...])
    assert_type(xs.unravel_index(one, (3, 4)), tuple[np.intp, ...])
    assert_type(np.unravel_index(small, dims, order="C"), tuple[np.intp, ...])
    assert_type(xs.unravel_index(small, dims, order="C"), tuple[np.intp, ...])
    assert_type(np.unravel_index(flat, (3, 4)), tuple[NDArray[np.intp], ...])
    assert_type(xs.unravel_index(flat, (3, 4)), tuple[NDArray[np.intp], ...])
    assert_type(np.unravel_index([1, 2], 12), tuple[NDArray[np.intp], ...])
    assert_type(xs.unravel_index([1, 2], 12), tuple[NDArray[np.intp], ...])


def swapped(flat: NDArray[np.intp]) -> NDArray[np.intp]:
    """Code written for NumPy's function keeps type-checking with xlashape's."""
    rows: tuple[NDArray[np.intp], ...] = xs.unravel_index(flat, (3, 4))
    linear: NDArray[np.intp] = xs.ravel_multi_index(rows, (3, 4))
    return linear
