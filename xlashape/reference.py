"""A plain-Python implementation of the spec, the oracle and the fallback.

Written straight from "Shapes and Layout", with Python's unbounded ints and no
NumPy: the linear index is built by Horner's rule from the most major
dimension down (no strides), and a linear index is taken apart by repeated
division from the most minor dimension up. The tests compare every fast path
against it; the fast paths call it to produce their error messages and to
handle anything they do not (Python ints outside int64, non-integers).

Each function takes the dimension sizes, the layout's ``minor_to_major`` and
the padded widths (the sizes themselves where the layout is not padded).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from ._validate import as_int
from .errors import index_out_of_bounds, linear_index_on_padding, linear_index_out_of_bounds

__all__ = ["check_length", "linear_index", "multi_index", "linear_buffer"]


def _at_row(row: int | None) -> str:
    return "" if row is None else f" at row {row} of the batch"


def check_length(multi_index: Sequence[object], rank: int, row: int | None = None) -> None:
    """ValueError unless a multi-index has one entry per dimension."""
    if len(multi_index) != rank:
        raise ValueError(
            f"multi-index {tuple(multi_index)!r}{_at_row(row)} has "
            f"{len(multi_index)} entries, but the shape is rank {rank}"
        )


def linear_index(
    dimensions: Sequence[int],
    minor_to_major: Sequence[int],
    widths: Sequence[int],
    multi_index: Sequence[object],
    row: int | None = None,
) -> int:
    """The position of ``multi_index`` in the linear buffer."""
    check_length(multi_index, len(dimensions), row)
    index = tuple(as_int(v, f"entry {j} of the multi-index") for j, v in enumerate(multi_index))
    for dim, (value, size) in enumerate(zip(index, dimensions)):
        if not 0 <= value < size:
            raise index_out_of_bounds(value, dim, size, index, row)
    linear = 0
    for dim in reversed(minor_to_major):
        linear = linear * widths[dim] + index[dim]
    return linear


def multi_index(
    dimensions: Sequence[int],
    minor_to_major: Sequence[int],
    widths: Sequence[int],
    linear_index: object,
    row: int | None = None,
) -> tuple[int, ...]:
    """The multi-index stored at ``linear_index``; an error on padding."""
    start = as_int(linear_index, "linear index")
    size = math.prod(widths)
    if not 0 <= start < size:
        raise linear_index_out_of_bounds(start, size, row)
    index = [0] * len(dimensions)
    rest = start
    for dim in minor_to_major:
        rest, position = divmod(rest, widths[dim])
        if position >= dimensions[dim]:
            raise linear_index_on_padding(start, dim, position, dimensions[dim], widths[dim], row)
        index[dim] = position
    return tuple(index)


def linear_buffer(
    dimensions: Sequence[int],
    minor_to_major: Sequence[int],
    widths: Sequence[int],
    values: Sequence[object],
    fill: object = 0,
) -> list[object]:
    """Lay out ``values`` (the array in row-major order) in linear memory.

    Padding positions hold ``fill``. For the spec's 2x3 array ``a b c / d e f``
    with ``minor_to_major`` (0, 1) and widths (3, 5) this gives
    ``a d 0 b e 0 c f 0 0 0 0 0 0 0``.
    """
    buffer = [fill] * math.prod(widths)
    positions = itertools.product(*(range(size) for size in dimensions))
    for index, value in zip(positions, values, strict=True):
        buffer[linear_index(dimensions, minor_to_major, widths, index)] = value
    return buffer
