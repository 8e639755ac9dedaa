"""Tiled layouts as digits: the form the compiled tiled kernels run.

XLA's "Tiled layout" page defines a tiling by pad-reshape-transpose: each
tile splits the most minor dimensions of the array so far into tile indices
and within-tile indices, and the element's offset is the row-major index of
all of them. Here each of those final dimensions (an *axis*) is written as a
digit of one *group* value::

    axis value = (group value // divisor) % modulus      (no modulus: the top digit)

where a group is one physical dimension, several combined by ``*`` (their
row-major index), or a leading dimension of size 1 that a tile longer than
the rank adds. Ravel is then a sum of digits times strides, and unravel
splits the offset by the axes' extents and sums each group's digits back
(``digit * divisor``); a group value past the group's extent lies in tile
padding. Powers of two make every digit a shift and a mask.

This form exists when each later tile divides the within-tile size it
re-tiles, and ``*`` combines only dimensions no earlier tile split: the
layouts XLA and TPUs use (``T(8,128)``, ``T(8,128)(2,1)``, ``T(2,*,128)``,
``T(1024)(128)(2,1)``...). :func:`digits` returns None otherwise, and the
conversions use the plain-Python reference, which follows the page step by
step for any tiling.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .layout import Tile

__all__ = ["Axis", "Digits", "Group", "Op", "Program", "digits", "program", "tiled_extents"]


@dataclass(frozen=True)
class Group:
    """Physical dimensions read as one value: their row-major index."""

    dimensions: tuple[int, ...]  # dimension numbers, most major first; () for a leading 1
    extent: int  # the product of their sizes


@dataclass(frozen=True)
class Axis:
    """One dimension of the tiled array: a digit of one group's value."""

    extent: int
    group: int
    divisor: int
    modulus: int  # 0 for the group's top digit, which takes no modulus


@dataclass(frozen=True)
class Digits:
    """A tiled layout as groups and axes (most major axis first)."""

    groups: tuple[Group, ...]
    axes: tuple[Axis, ...]
    strides: tuple[int, ...]  # each axis's stride: row-major over the extents
    size: int  # elements in the buffer, tile padding included


def _walk(
    dimensions: Sequence[int], minor_to_major: Sequence[int], tiles: Sequence[Tile]
) -> tuple[list[int], list[tuple[int, int, int] | None], list[Group]]:
    """The tiled array's extents and, where the digit form holds, each axis's
    digit; ``None`` marks an axis that is not one digit of one group."""
    groups = [Group((d,), dimensions[d]) for d in reversed(minor_to_major)]
    extents = [g.extent for g in groups]
    exprs: list[tuple[int, int, int] | None] = [(g, 1, 0) for g in range(len(groups))]
    for tile in tiles:
        sizes = tile.dimensions
        lead = len(sizes) - len(extents)
        if lead > 0:  # a tile longer than the rank: leading 1s, the last added most major
            exprs[:0] = [(g, 1, 0) for g in range(len(groups) + lead - 1, len(groups) - 1, -1)]
            extents[:0] = [1] * lead
            groups.extend(Group((), 1) for _ in range(lead))
        k = len(sizes)
        kept: list[tuple[int, tuple[int, int, int] | None, int]] = []
        carry: tuple[int, tuple[int, int, int] | None] | None = None
        for extent, expr, size in zip(extents[-k:], exprs[-k:], sizes):
            if carry is not None:
                extent, expr = carry[0] * extent, _combine(groups, carry[1], expr)
            if size == Tile.COMBINE:
                carry = (extent, expr)
                continue
            carry = None
            kept.append((extent, expr, size))
        outer_e = [-(-extent // size) for extent, _, size in kept]
        outer_x = [_split(expr, size, outer=True) for _, expr, size in kept]
        inner_x = [_split(expr, size, outer=False) for _, expr, size in kept]
        # Only the last k entries change: replaced in place, so that many
        # tiles take time linear in their number.
        extents[len(extents) - k :] = outer_e + [size for _, _, size in kept]
        exprs[len(exprs) - k :] = outer_x + inner_x
    return extents, exprs, groups


def _combine(
    groups: list[Group], major: tuple[int, int, int] | None, minor: tuple[int, int, int] | None
) -> tuple[int, int, int] | None:
    """The digit of two whole groups combined by ``*``: a new group."""
    if major is None or minor is None or major[1:] != (1, 0) or minor[1:] != (1, 0):
        return None
    a, b = groups[major[0]], groups[minor[0]]
    groups.append(Group(a.dimensions + b.dimensions, a.extent * b.extent))
    return (len(groups) - 1, 1, 0)


def _split(expr: tuple[int, int, int] | None, size: int, *, outer: bool) -> tuple[int, int, int] | None:
    """The tile index (outer) or within-tile index of a digit tiled by ``size``."""
    if expr is None:
        return None
    group, divisor, modulus = expr
    if modulus and modulus % size:
        return None  # re-tiling a within-tile index by a size that does not divide it
    if outer:
        return (group, divisor * size, modulus // size)
    return (group, divisor, size)


def tiled_extents(
    dimensions: Sequence[int], minor_to_major: Sequence[int], tiles: Sequence[Tile]
) -> tuple[int, ...]:
    """The dimensions of the tiled array, most major first: the array the
    pad-reshape-transpose of XLA's page makes. Their product is the buffer
    size; for no tiles they are the physical dimensions."""
    return tuple(_walk(dimensions, minor_to_major, tiles)[0])


def digits(
    dimensions: Sequence[int], minor_to_major: Sequence[int], tiles: Sequence[Tile]
) -> Digits | None:
    """The digit form of a tiled layout, or None where it has none."""
    extents, exprs, groups = _walk(dimensions, minor_to_major, tiles)
    if any(expr is None for expr in exprs):
        return None
    used = sorted({expr[0] for expr in exprs if expr is not None})
    number = {g: i for i, g in enumerate(used)}
    axes = tuple(
        Axis(extent, number[expr[0]], expr[1], expr[2])
        for extent, expr in zip(extents, exprs)
        if expr is not None
    )
    strides = [1] * len(extents)
    for k in range(len(extents) - 2, -1, -1):
        strides[k] = strides[k + 1] * extents[k + 1]
    return Digits(tuple(groups[g] for g in used), axes, tuple(strides), math.prod(extents))


@dataclass(frozen=True)
class Op:
    """One step of the page's pad-reshape-transpose on slot values.

    - ``"tile"``: ``targets`` = (``source // size``, ``source % size``);
      undone, a source value at or past ``extent`` lies in tile padding.
    - ``"combine"``: ``targets[0]`` = ``major * size + minor`` for
      ``sources`` (major, minor), ``size`` being the minor's extent.
    - ``"lead"``: ``targets[0]`` = 0, a leading dimension of size 1 that a
      tile longer than the array adds; undone, any other value is padding.
    """

    kind: str
    sources: tuple[int, ...]
    targets: tuple[int, ...]
    size: int
    extent: int


@dataclass(frozen=True)
class Program:
    """A tiling as operations on slots. Slot ``d`` holds dimension ``d``'s
    index; each operation writes new slots. The offset is the row-major
    index of the ``final`` slots in ``extents``."""

    slots: int
    ops: tuple[Op, ...]
    final: tuple[int, ...]  # the tiled array's dimensions, most major first
    extents: tuple[int, ...]


def program(dimensions: Sequence[int], minor_to_major: Sequence[int], tiles: Sequence[Tile]) -> Program:
    """Any tiling as a :class:`Program`, step by step as the page tiles."""
    coords = list(reversed(minor_to_major))  # slot numbers, most major first
    extents = [dimensions[d] for d in coords]
    ops: list[Op] = []
    slots = len(dimensions)
    for tile in tiles:
        sizes = tile.dimensions
        lead = len(sizes) - len(extents)
        if lead > 0:  # a tile longer than the array: leading 1s, the last added most major
            ops.extend(Op("lead", (), (slot,), 1, 1) for slot in range(slots, slots + lead))
            coords[:0] = range(slots + lead - 1, slots - 1, -1)
            extents[:0] = [1] * lead
            slots += lead
        first = len(extents) - len(sizes)
        outer: list[tuple[int, int]] = []
        inner: list[tuple[int, int]] = []
        carry: tuple[int, int] | None = None
        for slot, extent, size in zip(coords[first:], extents[first:], sizes):
            if carry is not None:  # '*' merged the previous dimension into this one
                ops.append(Op("combine", (carry[0], slot), (slots,), extent, carry[1] * extent))
                slot, extent, slots = slots, carry[1] * extent, slots + 1
            if size == Tile.COMBINE:
                carry = (slot, extent)
                continue
            carry = None
            ops.append(Op("tile", (slot,), (slots, slots + 1), size, extent))
            outer.append((slots, -(-extent // size)))
            inner.append((slots + 1, size))
            slots += 2
        coords[first:] = [slot for slot, _ in outer + inner]
        extents[first:] = [extent for _, extent in outer + inner]
    return Program(slots, tuple(ops), tuple(coords), tuple(extents))
