"""Misspelt attributes of the helper and model classes are still type errors
(``mypy --strict``): the ``__getattr__`` that answers XLA's CamelCase names
at run time is hidden from type checkers. Each ``type: ignore`` below must
be needed, or strict mypy reports it as unused.

Checked, not run, by the mypy step of .ci/run (this file is among the
``files`` of ``[tool.mypy]`` in pyproject.toml).
"""

from __future__ import annotations

import xlashape as xs


def misspelt(shape: xs.Shape, layout: xs.Layout) -> None:
    xs.ShapeUtil.nonexistent_fn(shape)  # type: ignore[attr-defined]
    xs.ShapeUtil.ReshapeIsBitcast(shape, shape)  # type: ignore[attr-defined]
    xs.LayoutUtil.MakeLayout([0, 1])  # type: ignore[attr-defined]
    xs.IndexUtil.BumpIndices(shape, [0])  # type: ignore[attr-defined]
    _ = shape.ElementType  # type: ignore[attr-defined]
    _ = layout.MinorToMajor  # type: ignore[attr-defined]
    xs.ShapeUtil.reshape_is_bitcast(shape, shape)
