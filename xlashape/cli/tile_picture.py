"""The pictures ``xlashape show`` draws for a tiled layout, as XLA's "Tiled
layout" page draws Figure 1: the array cut into tiles (padded to whole
tiles), and linear memory tile by tile.

Long axes and long memory are elided as the SVG picture elides them
(:func:`xlashape.pictures.layout_picture.elide_tiled`): the first and last tiles,
and the first and last ``edge`` cells of each long tile, with the last
element and the first padding cell of each axis kept, so that the tile
order and where padding falls stay in the picture. The caller picks
``edge`` to fit its lines to the terminal.

Cells are named by the caller's ``name`` (the element's row-major number to
its name); padding cells are drawn as ``pad``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..pictures.layout_picture import (
    drawn_extents,
    elide_tiled,
    grid_axis,
    memory_unit,
    slot_index,
    tile_sizes,
)
from ..shapes.shape import Shape

__all__ = ["memory_line", "tile_grid"]

GAP = "..."
BORDER = "|"
ROW_EDGE = 4  # rows of the grid kept at each end of each long tile


def _cell(shape: Shape, index: Sequence[int], name: Callable[[int], str], pad: str) -> str:
    if any(i >= d for i, d in zip(index, shape.dimensions)):
        return pad
    number = 0
    for i, d in zip(index, shape.dimensions):
        number = number * d + i
    return name(number)


def _with_borders(items: Sequence[int | None], size: int, extent: int) -> list[int | str | None]:
    """``items`` (positions of an axis of ``extent``, None for a run left
    out) with BORDER wherever a tile of ``size`` ends between them."""
    marked: list[int | str | None] = []
    for item in items:
        if item is not None and item % size == 0 and item > 0 and marked[-1:] != [BORDER]:
            marked.append(BORDER)
        marked.append(item)
        if item is not None and (item + 1) % size == 0 and item + 1 < extent:
            marked.append(BORDER)
    return marked


def tile_grid(shape: Shape, name: Callable[[int], str], pad: str, edge: int) -> list[str]:
    """The two most minor physical dimensions padded to whole tiles of the
    first tile, tile borders drawn with | and -, earlier dimensions at 0;
    columns elided to ``edge`` cells at each end of each long tile. Empty
    for a rank-0 shape."""
    m2m = shape.layout.minor_to_major
    if not m2m:
        return []
    sizes, extents = tile_sizes(shape)[0], drawn_extents(shape)

    def axis(dim: int, cells: int) -> list[int | str | None]:
        return _with_borders(grid_axis(shape, dim, cells), sizes.get(dim, extents[dim]), extents[dim])

    minor = m2m[0]
    major = m2m[1] if len(m2m) > 1 else None
    cols = axis(minor, edge)
    rows: list[int | str | None] = [0] if major is None else axis(major, ROW_EDGE)
    cells = {}
    for r in rows:
        for c in cols:
            if isinstance(r, int) and isinstance(c, int):
                index = [0] * shape.rank
                index[minor] = c
                if major is not None:
                    index[major] = r
                cells[r, c] = _cell(shape, index, name, pad)
    width = max(map(len, cells.values()), default=1)
    lines = []
    for r in rows:
        if r == BORDER:
            lines.append("-".join("+" if c == BORDER else "-" * (len(GAP) if c is None else width) for c in cols))
        elif isinstance(r, int):
            lines.append(" ".join(cells[r, c].rjust(width) if isinstance(c, int) else c or GAP for c in cols))
        else:
            lines.append(GAP)
    return lines


def memory_line(shape: Shape, name: Callable[[int], str], pad: str, edge: int) -> str:
    """Linear memory, a cell per offset, | between the first tile's tiles;
    of long memory the first two tiles and the last, each elided to
    ``edge`` cells at each end."""
    size = shape.buffer_size
    unit = memory_unit(shape)
    cells = []
    for k in _with_borders(elide_tiled(size, unit, edge, lead=1), unit, size):
        if isinstance(k, int):
            index = slot_index(shape, k)
            cells.append(pad if index is None else _cell(shape, index, name, pad))
        else:
            cells.append(k or GAP)
    return " ".join(cells) if cells else "(empty)"
