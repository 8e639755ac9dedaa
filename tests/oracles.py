"""NumPy as an oracle for any layout: reorder to major-to-minor first."""

from __future__ import annotations

import numpy as np

from xlashape import Shape


def numpy_ravel(shape: Shape, rows: np.ndarray) -> np.ndarray:
    """np.ravel_multi_index of (N, rank) rows, the tuple reordered to
    major-to-minor and the padded widths as dims."""
    order = shape.layout.major_to_minor
    if shape.rank == 0:
        return np.zeros(len(rows), dtype=np.intp)
    return np.ravel_multi_index(
        tuple(rows[:, d] for d in order), tuple(shape.padded_dimensions[d] for d in order)
    )


def numpy_unravel(shape: Shape, offsets: np.ndarray) -> np.ndarray:
    """np.unravel_index of offsets into the padded widths, as (N, rank) in
    dimension order (positions on padding included)."""
    order = shape.layout.major_to_minor
    if shape.rank == 0:
        return np.zeros((len(offsets), 0), dtype=np.intp)
    columns = np.unravel_index(offsets, tuple(shape.padded_dimensions[d] for d in order))
    result = np.empty((len(offsets), shape.rank), dtype=np.intp)
    for column, d in zip(columns, order):
        result[:, d] = column
    return result
