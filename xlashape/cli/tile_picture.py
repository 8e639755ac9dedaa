"""The pictures ``xlashape show`` draws for a tiled layout, as XLA's "Tiled
layout" page draws Figure 1: the array cut into tiles (padded to whole
tiles), and linear memory tile by tile.

Cells are named by the caller's ``name`` (the element's row-major number to
its name); padding cells are drawn as ``pad``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..errors import IndexOutOfBoundsError
from ..index_util import IndexUtil
from ..shape import Shape

__all__ = ["memory_line", "tile_grid"]

GAP = "..."
# Tiles drawn along each axis of the grid, and cells of memory, before eliding.
GRID_TILES = 4
MEMORY_CELLS = 48


def _cell(shape: Shape, index: tuple[int, ...], name: Callable[[int], str], pad: str) -> str:
    if any(i >= d for i, d in zip(index, shape.dimensions)):
        return pad
    number = 0
    for i, d in zip(index, shape.dimensions):
        number = number * d + i
    return name(number)


def tile_grid(shape: Shape, name: Callable[[int], str], pad: str) -> list[str]:
    """The two most minor physical dimensions padded to whole tiles of the
    first tile, tile borders drawn with | and -; earlier dimensions at 0.
    Empty for a rank-0 shape."""
    m2m = shape.layout.minor_to_major
    if not m2m:
        return []
    tile = shape.layout.tiles[0].dimensions
    minor = m2m[0]
    major = m2m[1] if len(m2m) > 1 else None
    t_minor = tile[-1]
    t_major = tile[-2] if len(tile) > 1 and tile[-2] > 0 else 1
    cols = -(-shape.dimensions[minor] // t_minor) * t_minor
    rows = -(-shape.dimensions[major] // t_major) * t_major if major is not None else 1
    cols_shown = min(cols, GRID_TILES * t_minor)
    rows_shown = min(rows, GRID_TILES * t_major)
    base = [0] * shape.rank
    cells = {}
    for r in range(rows_shown):
        for c in range(cols_shown):
            index = list(base)
            index[minor] = c
            if major is not None:
                index[major] = r
            cells[r, c] = _cell(shape, tuple(index), name, pad)
    width = max(map(len, cells.values()), default=1)
    lines = []
    for r in range(rows_shown):
        if r and r % t_major == 0:
            lines.append("-+-".join("-" * (t_minor * (width + 1) - 1) for _ in range(0, cols_shown, t_minor)))
        groups = [
            " ".join(cells[r, c].rjust(width) for c in range(c0, min(c0 + t_minor, cols_shown)))
            for c0 in range(0, cols_shown, t_minor)
        ]
        lines.append(" | ".join(groups) + (f" {GAP}" if cols_shown < cols else ""))
    if rows_shown < rows:
        lines.append(GAP)
    return lines


def memory_line(shape: Shape, name: Callable[[int], str], pad: str) -> str:
    """Linear memory, a cell per offset, | between the first tile's tiles;
    the first MEMORY_CELLS offsets of longer buffers."""
    size = shape.buffer_size
    per_tile = math.prod(d for d in shape.layout.tiles[0].dimensions if d > 0)
    shown = min(size, MEMORY_CELLS)
    cells = []
    for k in range(shown):
        try:
            index = IndexUtil.linear_index_to_multidimensional_index(shape, k)
        except IndexOutOfBoundsError:
            cells.append(pad)
        else:
            cells.append(_cell(shape, index, name, pad))
        if (k + 1) % per_tile == 0 and k + 1 < shown:
            cells.append("|")
    return " ".join(cells) + (f" {GAP}" if shown < size else "") if cells else "(empty)"
