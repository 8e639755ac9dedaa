"""One layout from another with some fields changed: the step every
function that renumbers, reorders or strips a layout shares."""

from __future__ import annotations

from collections.abc import Iterable

from .layout import Layout, Tile

__all__ = ["replace_layout"]


def replace_layout(
    layout: Layout,
    *,
    minor_to_major: Iterable[int] | None = None,
    padded_dimensions: Iterable[int] | None = None,
    tiles: Iterable[Tile] | None = None,
    element_size_in_bits: int | None = None,
) -> Layout:
    """``layout`` with the given fields replaced and the others kept.

    Examples
    --------
    >>> from xlashape.layout_edit import replace_layout
    >>> print(replace_layout(xs.Layout((1, 0), tiles=[(8, 128)], memory_space=1), minor_to_major=(0, 1)))
    {0,1:T(8,128)S(1)}
    """
    return Layout(
        layout.minor_to_major if minor_to_major is None else minor_to_major,
        layout.padded_dimensions if padded_dimensions is None else padded_dimensions,
        layout.padding_value,
        tiles=layout.tiles if tiles is None else tiles,
        element_size_in_bits=layout.element_size_in_bits if element_size_in_bits is None else element_size_in_bits,
        memory_space=layout.memory_space,
    )
