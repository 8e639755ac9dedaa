"""One layout from another with some fields changed: the step every
function that renumbers, reorders or strips a layout shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from .layout import Layout, Tile

__all__ = ["replace_layout"]

# Positions in a Layout's fields, in the order its pickle recipe takes them.
_MINOR_TO_MAJOR, _PADDED_DIMENSIONS, _TILES, _ELEMENT_SIZE_IN_BITS = 0, 1, 3, 4
_MEMORY_SPACE, _TAIL_PADDING_ALIGNMENT, _METADATA_PREFIX_BYTES = 5, 6, 8


def replace_layout(
    layout: Layout,
    *,
    minor_to_major: Iterable[int] | None = None,
    padded_dimensions: Iterable[int] | None = None,
    tiles: Iterable[Tile] | None = None,
    element_size_in_bits: int | None = None,
    memory_space: int | None = None,
    tail_padding_alignment_in_elements: int | None = None,
    dynamic_shape_metadata_prefix_bytes: int | None = None,
) -> Layout:
    """``layout`` with the given fields replaced and every other field kept:
    it is rebuilt from its own pickle recipe (``__reduce__``), which carries
    all of them, so fields added to Layout later are kept too.

    Examples
    --------
    >>> from xlashape.model.layout_edit import replace_layout
    >>> print(replace_layout(xs.Layout((1, 0), tiles=[(8, 128)], memory_space=1), minor_to_major=(0, 1)))
    {0,1:T(8,128)S(1)}
    """
    rebuild, fields = cast(tuple[Callable[..., Layout], tuple[object, ...]], layout.__reduce__())
    values = list(fields)
    for position, value in (
        (_MINOR_TO_MAJOR, minor_to_major),
        (_PADDED_DIMENSIONS, padded_dimensions),
        (_TILES, tiles),
        (_ELEMENT_SIZE_IN_BITS, element_size_in_bits),
        (_MEMORY_SPACE, memory_space),
        (_TAIL_PADDING_ALIGNMENT, tail_padding_alignment_in_elements),
        (_METADATA_PREFIX_BYTES, dynamic_shape_metadata_prefix_bytes),
    ):
        if value is not None:
            values[position] = value
    return rebuild(*values)
