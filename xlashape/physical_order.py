"""Indices in the order memory holds them: XLA's ``ForEachIndex`` and its
batch form, :func:`indices_in_physical_order`, which computes a whole
region's indices with the compiled kernels.

A region is given as XLA gives it: per dimension a ``base``, a ``count``
and an ``incr``, visiting ``base, base + incr, ...`` below ``base + count``;
a count of 0 pins the dimension at ``base`` (XLA's convention). Every index
visited must lie inside the shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import tiling
from ._batch import check_out
from ._convert import ravel, unravel
from ._validate import as_int_tuple
from .layout import Layout
from .shape import Shape, require_shape
from .tiling import Digits, Group

__all__ = ["for_each_index", "indices_in_physical_order"]

_CHUNK = 1 << 14  # rows for_each_index materialises at a time
_INT32_MAX = 2**31 - 1
_BLOCK = 1 << 16  # mask entries turned into offsets at a time


class _Region(NamedTuple):
    base: tuple[int, ...]
    steps: tuple[int, ...]  # indices visited along each dimension
    incr: tuple[int, ...]


def _region(
    shape: Shape,
    base: Sequence[int] | None,
    count: Sequence[int] | None,
    incr: Sequence[int] | None,
) -> _Region:
    """The region checked: one entry per dimension, every visited index
    inside the shape."""
    rank = shape.rank
    b = (0,) * rank if base is None else as_int_tuple(base, "base")
    c = shape.dimensions if count is None else as_int_tuple(count, "count")
    s = (1,) * rank if incr is None else as_int_tuple(incr, "incr")
    for name, values in (("base", b), ("count", c), ("incr", s)):
        if len(values) != rank:
            raise ValueError(f"{name} has {len(values)} entries, but the shape is rank {rank}: {shape}")
    steps = []
    for d in range(rank):
        if b[d] < 0 or c[d] < 0:
            raise ValueError(f"dimension {d}: base {b[d]} and count {c[d]} must be >= 0")
        if c[d] and s[d] < 1:
            raise ValueError(
                f"dimension {d}: incr {s[d]} must be >= 1 where count ({c[d]}) is not 0; "
                "XLA's loop never ends there"
            )
        n = -(-c[d] // s[d]) if c[d] else 1
        last = b[d] + (n - 1) * (s[d] if c[d] else 0)
        if shape.element_count and last >= shape.dimensions[d]:
            raise IndexError(
                f"dimension {d}: the region reaches index {last}, outside the extent "
                f"{shape.dimensions[d]} of {shape}"
            )
        steps.append(n)
    return _Region(b, tuple(steps) if shape.element_count else (0,) * rank, s)


def _plain(shape: Shape, region: _Region) -> tuple[Shape, type[np.integer], int]:
    """The unpadded, untiled array of ``shape``'s dimensions and order; the
    dtype its offsets fit in (int32 where they can); the region's first
    offset in it."""
    plain = Shape("u8", shape.dimensions, Layout(shape.layout.minor_to_major))
    dtype: type[np.integer] = np.int32 if plain.buffer_size <= _INT32_MAX else np.int64
    if not plain.element_count:
        return plain, dtype, 0
    return plain, dtype, sum(b * stride for b, stride in zip(region.base, plain.strides))


def _steps_offsets(
    plain: Shape, region: _Region, dims: Sequence[int], first: int, dtype: type[np.integer]
) -> NDArray[np.integer]:
    """The offsets in ``plain`` of the region's steps along ``dims`` (most
    major first), from ``first``: a sum of one broadcast step per dimension,
    as a flat array in that order."""
    strides = plain.strides if plain.element_count else (0,) * plain.rank
    offsets: NDArray[np.integer] = np.array(first, dtype=dtype)
    for d in dims:
        n = region.steps[d]
        step = np.arange(n, dtype=np.int64) * (region.incr[d] * strides[d]) if n > 1 else np.zeros(n, np.int64)
        offsets = np.add.outer(offsets, step.astype(dtype))
    return offsets.reshape(-1)


def _region_offsets(shape: Shape, region: _Region) -> tuple[Shape, NDArray[np.integer]]:
    """The region's offsets, in order, in the unpadded untiled array of
    ``shape``'s dimensions and order (the returned shape). An unravel of
    them against that shape gives the region's indices, most minor
    dimension fastest."""
    plain, dtype, first = _plain(shape, region)
    return plain, _steps_offsets(plain, region, shape.layout.major_to_minor, first, dtype)


def _unravel_region(shape: Shape, region: _Region) -> NDArray[np.int64]:
    """The region's indices in order (an untiled ``shape``): its offsets a
    block of about _BLOCK at a time, so that they stay in cache on their
    way to the kernel. A block is the most minor dimensions' steps (as many
    as fit in _BLOCK, at least one) under a run of the other dimensions'."""
    plain, dtype, first = _plain(shape, region)
    order = shape.layout.major_to_minor
    split, size = len(order), 1
    while split > 0 and (split == len(order) or size * region.steps[order[split - 1]] <= _BLOCK):
        split -= 1
        size *= region.steps[order[split]]
    inner = _steps_offsets(plain, region, order[split:], 0, dtype)
    outer = _steps_offsets(plain, region, order[:split], first, dtype)
    rows = check_out(None, (outer.size * inner.size, shape.rank))
    if rows.size == 0:
        return rows
    # outer steps per block, a multiple of ``unit`` so that every block's
    # rows start on a 64-byte boundary, as the result's first row does
    # (unaligned vector stores cost up to 1.5x)
    unit = 8 // math.gcd(inner.size * shape.rank, 8)
    per = max(unit, _BLOCK // inner.size // unit * unit)
    block = np.empty((min(per, outer.size), inner.size), dtype=dtype)
    for a in range(0, outer.size, per):
        b = min(a + per, outer.size)
        offsets = np.add.outer(outer[a:b], inner, out=block[: b - a])
        unravel(offsets.reshape(-1), plain, out=rows[a * inner.size : b * inner.size])
    return rows


def _counting(total: int) -> NDArray[np.integer]:
    """``arange(total)``, int32 where it fits, written as rows of 4096 into
    memory the result cache may hold."""
    width = max(1, min(total, 1 << 12))
    rows = -(-total // width)
    dtype = np.int32 if rows * width <= _INT32_MAX else np.int64
    out = check_out(None, (rows, width), dtype=dtype)
    np.add.outer(np.arange(0, rows * width, width, dtype=dtype), np.arange(width, dtype=dtype), out=out)
    return out.reshape(-1)[:total]


def _group_keeps(shape: Shape, region: _Region, group: Group, value: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Where a group's values (the row-major index of its dimensions) lie
    inside the shape and the region."""
    keep = value < group.extent
    stride = group.extent
    for dim in group.dimensions:
        stride //= shape.dimensions[dim]
        index = value // stride % shape.dimensions[dim]
        base, incr = region.base[dim], region.incr[dim]
        last = base + (region.steps[dim] - 1) * incr
        keep &= (index >= base) & (index <= last) & ((index - base) % max(incr, 1) == 0)
    return keep


def _tiled_mask(shape: Shape, region: _Region, form: Digits) -> NDArray[np.bool_]:
    """Which offsets of a tiled buffer hold the region's elements: a mask
    over the tiled array's axes, one broadcast condition per group."""
    extents = [axis.extent for axis in form.axes]
    mask = np.ones([1] * len(extents), dtype=bool)
    for g, group in enumerate(form.groups):
        value = np.zeros([1] * len(extents), dtype=np.int64)
        for k, axis in enumerate(form.axes):
            if axis.group == g:
                place = [1] * len(extents)
                place[k] = axis.extent
                value = value + (np.arange(axis.extent, dtype=np.int64) * axis.divisor).reshape(place)
        mask = mask & _group_keeps(shape, region, group, value)  # grows to the full size once
    return np.broadcast_to(mask, extents).reshape(-1)


def _unravel_marked(marked: NDArray[np.bool_], shape: Shape, total: int) -> NDArray[np.int64]:
    """The indices of the ``total`` marked offsets of ``shape``'s buffer, in
    order: a block of the mask at a time, so that its offsets stay in cache
    on their way to the kernel."""
    rows = check_out(None, (total, shape.rank))
    written = 0
    for start in range(0, marked.size, _BLOCK):
        offsets = np.flatnonzero(marked[start : start + _BLOCK])
        offsets += start
        unravel(offsets, shape, out=rows[written : written + offsets.size])
        written += offsets.size
    return rows


def for_each_index(
    shape: Shape,
    base: Sequence[int] | None,
    count: Sequence[int] | None,
    incr: Sequence[int] | None,
    visitor: Callable[[tuple[int, ...]], object],
) -> None:
    """Call ``visitor(index)`` on every index of a region, the most minor
    dimension of the layout changing fastest (XLA's ``ForEachIndex``); a
    ``visitor`` that returns ``False`` stops the walk. None for ``base``,
    ``count`` and ``incr`` means zeros, the dimensions and ones: the whole
    shape. A shape with no elements visits nothing, whatever the region.

    The order is the layout's, not the tiles': for an untiled layout it is
    memory order, while a tiled layout stores the same indices tile by tile
    (see :func:`indices_in_physical_order`).

    Raises
    ------
    ValueError
        For a region without one entry per dimension, a negative entry, or
        an ``incr`` below 1 where the count is not 0 (XLA loops forever).
    IndexError
        For a region reaching outside the shape.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")
    >>> xs.ShapeUtil.for_each_index(shape, None, None, None, print)
    (0, 0)
    (1, 0)
    (0, 1)
    (1, 1)
    (0, 2)
    (1, 2)
    >>> xs.ShapeUtil.for_each_index(shape, [1, 0], [0, 3], [0, 2], print)
    (1, 0)
    (1, 2)
    """
    shape = require_shape(shape)
    plain, offsets = _region_offsets(shape, _region(shape, base, count, incr))
    for start in range(0, offsets.size, _CHUNK):
        for row in unravel(offsets[start : start + _CHUNK], plain).tolist():
            if visitor(tuple(row)) is False:
                return


def indices_in_physical_order(
    shape: Shape,
    base: Sequence[int] | None = None,
    count: Sequence[int] | None = None,
    incr: Sequence[int] | None = None,
) -> NDArray[np.int64]:
    """The indices of a region as an ``(N, rank)`` int64 array, in the order
    the buffer holds them: ``ravel`` of the rows is strictly increasing.
    The region is :func:`for_each_index`'s (the whole shape by default).

    One unravel by the compiled kernels computes the rows. For an untiled
    layout, padded or not, memory order is the layout's order (the order
    ``for_each_index`` visits): the kernels unravel the region's offsets in
    the unpadded array, built as one broadcast step per dimension. A tiled
    layout stores the region tile by tile: its whole unpadded buffer is an
    unravel of a range; otherwise a mask over the tiled array's axes (one
    broadcast condition per dimension) marks the region's offsets, tile
    padding left out, and the kernels unravel them in order. Tilings the
    kernels run by reference take a ravel of the region to mark them.
    (benchmarks/test_physical_order_bench.py times it against an unravel of
    the same offsets.)

    Raises
    ------
    ValueError, IndexError
        As :func:`for_each_index`.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("s32[3,3]{1,0:T(2,2)}")
    >>> rows = xs.ShapeUtil.indices_in_physical_order(shape)
    >>> rows[:6].tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1], [0, 2], [1, 2]]
    >>> xs.ravel(rows, shape)[:6]
    array([0, 1, 2, 3, 4, 6])
    """
    shape = require_shape(shape)
    region = _region(shape, base, count, incr)
    if not shape.is_tiled:
        return _unravel_region(shape, region)
    total = int(np.prod(region.steps, dtype=np.int64))
    if total == shape.buffer_size:  # the whole buffer, no tile padding
        return unravel(_counting(total), shape)
    form = tiling.digits(shape.dimensions, shape.layout.minor_to_major, shape.layout.tiles)
    if form is not None:
        return _unravel_marked(_tiled_mask(shape, region, form), shape, total)
    marked = np.zeros(shape.buffer_size, dtype=bool)  # tilings the kernels run by reference
    plain, offsets = _region_offsets(shape, region)
    marked[ravel(unravel(offsets, plain), shape)] = True
    return _unravel_marked(marked, shape, total)
