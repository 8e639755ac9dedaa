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
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .._validate import as_int_tuple
from ..core._batch import check_out
from ..core._boxes import write_boxes
from ..errors import IndexOutOfBoundsError
from ..model import tiling
from ..model.tiling import Digits, Group
from ..shapes._convert import ravel, unravel
from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape

__all__ = ["for_each_index", "indices_in_physical_order"]

_CHUNK = 1 << 14  # rows for_each_index makes at a time
_BOX = 64  # rows a box holds where the region allows: enough to make its first row's cost small
_BOX_CUT = 1 << 12  # rows past which a box is cut, so that the threads share many of them
_INTP_MAX = int(np.iinfo(np.intp).max)


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
    inside the shape. The region of a shape with no elements is empty
    (every count 0, whatever was given); a dimension visited once has an
    ``incr`` of 1, so that every entry of a region fits in int64."""
    rank = shape.rank
    b = (0,) * rank if base is None else as_int_tuple(base, "base", per_dimension=True)
    c = shape.dimensions if count is None else as_int_tuple(count, "count", per_dimension=True)
    s = (1,) * rank if incr is None else as_int_tuple(incr, "incr", per_dimension=True)
    for name, values in (("base", b), ("count", c), ("incr", s)):
        if len(values) != rank:
            raise ValueError(f"{name} has {len(values)} entries, but the shape has {rank} dimensions: {shape}")
    steps = []
    for d in range(rank):
        if b[d] < 0 or c[d] < 0:
            raise ValueError(f"dimension {d}: base {b[d]} and count {c[d]} must be >= 0")
        if c[d] and s[d] < 1:
            raise ValueError(f"dimension {d}: incr {s[d]} must be >= 0, and not 0 where count ({c[d]}) is not 0")
        n = -(-c[d] // s[d]) if c[d] else 1
        last = b[d] + (n - 1) * (s[d] if c[d] else 0)
        if shape.element_count and last >= shape.dimensions[d]:
            raise IndexOutOfBoundsError(
                f"dimension {d}: the region reaches index {last}, outside the extent "
                f"{shape.dimensions[d]} of {shape}"
            )
        steps.append(n)
    if not shape.element_count:
        return _Region((0,) * rank, (0,) * rank, (1,) * rank)
    return _Region(b, tuple(steps), tuple(s[d] if steps[d] > 1 else 1 for d in range(rank)))


def _endless_cycle(
    shape: Shape, count: Sequence[int] | None, incr: Sequence[int] | None
) -> tuple[Sequence[int] | None, int | None]:
    """XLA's walk never moves a dimension whose ``incr`` is 0 and count is
    not: it goes round the more minor dimensions forever. The count of
    that round (the dimension and the more major ones pinned at their base)
    and the dimension; ``count`` and None where the walk ends."""
    if incr is None:
        return count, None
    c = shape.dimensions if count is None else as_int_tuple(count, "count")
    s = as_int_tuple(incr, "incr")
    if len(c) != shape.rank or len(s) != shape.rank:
        return count, None  # _region says what is wrong
    order = shape.layout.minor_to_major
    endless = next((d for d in order if c[d] and s[d] == 0), None)
    if endless is None:
        return count, None
    pinned = order[order.index(endless) :]
    return tuple(0 if d in pinned else n for d, n in enumerate(c)), endless


class _Boxes(NamedTuple):
    """Indices as boxes: box ``b`` is every index ``starts[b]`` moved on by
    ``k[i] * steps[i]`` along dimension ``dims[i]``, for ``k[i] < counts[b, i]``,
    in row-major order of ``k`` (the last axis fastest)."""

    starts: NDArray[np.int64]
    counts: NDArray[np.int64]
    dims: tuple[int, ...]
    steps: tuple[int, ...]

    def rows(self) -> NDArray[np.int64]:
        """Every box's rows, in order (``_boxes.write_boxes``)."""
        first = np.zeros(self.starts.shape[0] + 1, dtype=np.int64)
        np.cumsum(_product(list(self.counts.T)), out=first[1:])
        rows = check_out(None, (int(first[-1]), self.starts.shape[1]))
        write_boxes(
            self.starts, self.counts, first, np.array(self.dims, np.int64), np.array(self.steps, np.int64), rows
        )
        return rows


def _product(columns: Sequence[NDArray[np.int64]]) -> NDArray[np.int64]:
    """The elementwise product of a few columns (np.prod along a short axis
    is slow)."""
    product = np.array(columns[0], dtype=np.int64)
    for column in columns[1:]:
        product *= column
    return product


def _region_boxes(starts: NDArray[np.int64], region: _Region, dims: Sequence[int]) -> _Boxes:
    """The region's steps along ``dims`` (most major first) from each of
    ``starts``; one dimension that does not move (rank 0 included) where
    ``dims`` is empty."""
    dims = list(dims) or [0]
    steps = [region.steps[d] if region.steps else 1 for d in dims]
    return _Boxes(
        starts, np.tile(np.array(steps, np.int64), (starts.shape[0], 1)), tuple(dims),
        tuple(region.incr[d] if region.incr else 0 for d in dims),
    )


def _layout_boxes(shape: Shape, region: _Region) -> _Boxes:
    """The region in the layout's order (memory order, for an untiled
    shape), as boxes of _BOX rows or more: of its most minor dimensions
    that move, the most major of them cut into chunks where it makes the
    boxes larger than _BOX_CUT. The boxes' first indices are themselves boxes: the base index
    expanded along the other dimensions that move, and the chunks."""
    moving = [d for d in shape.layout.major_to_minor if region.steps[d] > 1]
    starts = np.array([region.base], dtype=np.int64).reshape(1, shape.rank)[: 1 if shape.element_count else 0]
    split, size = len(moving), 1
    while split > 0 and size < _BOX:
        split -= 1
        size *= region.steps[moving[split]]
    if split == len(moving):
        return _region_boxes(starts, region, [])
    d, n = moving[split], region.steps[moving[split]]
    chunk = min(n, -(-_BOX_CUT * n // size))  # steps of d in a box
    cut = list(moving[:split]) + ([d] if chunk < n else [])
    if cut:
        steps, incr = list(region.steps), list(region.incr)
        steps[d], incr[d] = -(-n // chunk), incr[d] * chunk
        starts = _region_boxes(starts, _Region(region.base, tuple(steps), tuple(incr)), cut).rows()
    boxes = _region_boxes(starts, region, moving[split:])
    if chunk < n:  # the last chunk of each run along d is short
        boxes.counts[:, 0] = np.minimum(chunk, n - (starts[:, d] - region.base[d]) // region.incr[d])
    return boxes


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


def _whole_groups(shape: Shape, region: _Region, form: Digits) -> list[bool]:
    """Per group: whether it is one dimension that the region covers whole
    and the tiles do not pad, so that every position of the tiled array
    holds an element of it."""
    whole = []
    for g, group in enumerate(form.groups):
        d = group.dimensions[0] if len(group.dimensions) == 1 else None
        whole.append(
            d is not None
            and region.base[d] == 0
            and region.steps[d] == shape.dimensions[d]
            and (region.incr[d] == 1 or shape.dimensions[d] == 1)
            and math.prod(axis.extent for axis in form.axes if axis.group == g) == group.extent
        )
    return whole


def _tiled_boxes(shape: Shape, region: _Region, form: Digits) -> _Boxes | None:
    """The region in memory order, for a tiled ``shape``, as boxes of the
    tiled array's most minor axes, as many as make _BOX positions: digits
    of dimensions the region covers whole (and the tiles do not pad), and
    lowest digits of other dimensions, one each. None where the most minor
    axis of more than one element is neither, or where the outer array
    would be many times larger than the region (a small region of a large
    buffer).

    The other axes (the outer ones) are a small array, the boxes' size
    times smaller than the buffer. Over it, one broadcast condition per
    group that has no box axis says whether a position holds the region's
    elements, and each lowest digit's dimension gives the position its
    count along that axis (the region's steps from the value the outer
    axes give the dimension to that value plus the axis's extent); a whole
    dimension's digits count their extents. The kernels unravel the first
    offset of each box that is not empty."""
    axes, size, whole = form.axes, 1, _whole_groups(shape, region, form)
    inner: dict[int, int] = {}  # the box's axes: position -> group
    split = len(axes)
    while split > 0 and size < _BOX:
        axis = axes[split - 1]
        if axis.extent > 1:
            lowest = axis.divisor == 1 and len(form.groups[axis.group].dimensions) == 1
            if not whole[axis.group] and (not lowest or axis.group in inner.values()):
                break
            inner[split - 1] = axis.group
            size *= axis.extent
        split -= 1  # axes of extent 1 are digits that are always 0
    if not inner:
        return None
    outer = [axis.extent for axis in axes[:split]]
    if math.prod(outer) > 4 * math.prod(region.steps) + _BOX_CUT:
        return None  # a region small in its buffer: sorted by offset (region-sized) instead
    box = math.prod(axis.extent for axis in axes[split:])
    keep: NDArray[np.bool_] = np.ones([1] * split, dtype=bool)
    skipped: NDArray[np.int64] = np.zeros([1] * split, dtype=np.int64)
    counts = {k: np.array(axes[k].extent, dtype=np.int64) for k in inner}
    for g, group in enumerate(form.groups):
        if whole[g]:
            continue
        value = np.zeros([1] * split, dtype=np.int64)
        for k in range(split):
            if axes[k].group == g:
                place = [1] * split
                place[k] = outer[k]
                value = value + (np.arange(outer[k], dtype=np.int64) * axes[k].divisor).reshape(place)
        box_axes = [k for k, group_of in inner.items() if group_of == g]
        if not box_axes:
            keep = keep & _group_keeps(shape, region, group, value)
            continue
        k, d = box_axes[0], group.dimensions[0]
        base, incr, steps = region.base[d], max(region.incr[d], 1), region.steps[d]
        first = np.maximum(0, -((base - value) // incr))  # the region's first step at or past value
        stop = np.minimum(steps, -((base - value - axes[k].extent) // incr))
        counts[k] = np.maximum(stop - first, 0)
        stride = math.prod(axis.extent for axis in axes[k + 1 :])
        skipped = skipped + (base + first * incr - value) * stride
    order = sorted(inner)
    if keep.all() and all(np.all(counts[k] == axes[k].extent) for k in order):  # every box full
        boxes = np.arange(math.prod(outer), dtype=np.int64)
        offsets = boxes * box
        per_axis = np.tile(np.array([axes[k].extent for k in order], np.int64), (boxes.size, 1))
    else:
        flat = [np.broadcast_to(counts[k] * keep, outer).reshape(-1) for k in order]
        boxes = np.flatnonzero(_product(flat))
        offsets = boxes * box + np.broadcast_to(skipped, outer).reshape(-1)[boxes]
        per_axis = np.empty((boxes.size, len(order)), dtype=np.int64)
        for i, column in enumerate(flat):
            np.take(column, boxes, out=per_axis[:, i])
    starts = unravel(offsets, shape, out=check_out(None, (boxes.size, shape.rank)))
    dims = tuple(form.groups[inner[k]].dimensions[0] for k in order)
    return _Boxes(starts, per_axis, dims, tuple(axes[k].divisor * max(region.incr[d], 1) for k, d in zip(order, dims)))


def for_each_index(
    shape: Shape,
    base: Sequence[int] | None,
    count: Sequence[int] | None,
    incr: Sequence[int] | None,
    visitor: Callable[[tuple[int, ...]], object],
) -> None:
    """Call ``visitor(index)`` on every index of a region, the most minor
    dimension of the layout changing fastest (XLA's ``ForEachIndex``); a
    ``visitor`` that returns ``False`` stops the walk, and one that raises
    stops it with its exception (XLA's ``ForEachIndexWithStatus``). None
    for ``base``, ``count`` and ``incr`` means zeros, the dimensions and
    ones: the whole shape. A shape with no elements visits nothing,
    whatever the region.

    An ``incr`` of 0 in a dimension whose count is not 0 is XLA's too: the
    walk never moves that dimension, so it never ends; it goes round the
    more minor dimensions' region again and again until the visitor
    stops it. Since a visitor that never stops then never returns, such a
    walk warns first (``RuntimeWarning``), naming the dimension.

    The order is the layout's, not the tiles': for an untiled layout it is
    memory order, while a tiled layout stores the same indices tile by tile
    (see :func:`indices_in_physical_order`).

    Raises
    ------
    ValueError
        For a region without one entry per dimension, or a negative entry.
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
    cycle, endless = _endless_cycle(shape, count, incr)
    if endless is not None:
        if not shape.element_count:
            return  # XLA's walk of a shape without elements visits nothing
        warnings.warn(
            f"for_each_index: dimension {endless} has incr 0 where its count is not 0, so the "
            "walk never ends (as XLA's): it repeats until the visitor returns False or raises",
            RuntimeWarning,
            stacklevel=2,
        )
        stopped = False

        def until_stopped(index: tuple[int, ...]) -> bool:
            nonlocal stopped
            stopped = visitor(index) is False
            return not stopped

        while not stopped:
            for_each_index(shape, base, cycle, incr, until_stopped)
        return
    for rows in _layout_order_chunks(shape, _region(shape, base, count, incr)):
        for row in rows.tolist():
            if visitor(tuple(row)) is False:
                return


def _layout_order_chunks(shape: Shape, region: _Region) -> Iterator[NDArray[np.int64]]:
    """The region's indices in the layout's order, _CHUNK rows at a time,
    each chunk made from its rows' positions in that order: nothing is
    built for the whole region, so the first chunk comes at once whatever
    the region's size."""
    total = math.prod(region.steps)
    for start in range(0, total, _CHUNK):
        position = np.arange(start, min(start + _CHUNK, total), dtype=np.int64)
        rows = np.empty((position.size, shape.rank), dtype=np.int64)
        for d in shape.layout.minor_to_major:  # the most minor dimension changes fastest
            position, step = np.divmod(position, region.steps[d])
            rows[:, d] = step * region.incr[d] + region.base[d]
        yield rows


def indices_in_physical_order(
    shape: Shape,
    base: Sequence[int] | None = None,
    count: Sequence[int] | None = None,
    incr: Sequence[int] | None = None,
) -> NDArray[np.int64]:
    """The indices of a region as an ``(N, rank)`` int64 array, in the order
    the buffer holds them: ``ravel`` of the rows is strictly increasing.
    The region is :func:`for_each_index`'s (the whole shape by default).

    The rows come as boxes: a first index, and the few most minor
    dimensions that move from it in memory order, each by its own count
    (about 64 rows or more to a box), written out by a compiled loop on the
    worker pool that copies and steps rows, dividing nothing. For an
    untiled layout, padded or not, memory order is the layout's order (the
    order ``for_each_index`` visits), and the boxes' first indices are
    boxes themselves. A tiled layout stores the region tile by tile: the
    boxes are the tiled array's most minor axes, each the lowest digit of a
    dimension of its own, and over the other axes (an array the boxes' size
    times smaller than the buffer) one broadcast condition per dimension
    gives each box its counts, tile padding and the region's steps left
    out; the kernels unravel each box's first offset. Tilings without such
    axes take a sort of the region's offsets. About 10**7 rows take about
    what an unravel of as many offsets takes; tilings whose boxes are small
    (a ``T(2,4)`` over a rank-4 array: 8 elements) take a few times more
    (benchmarks/test_physical_order_bench.py).

    Raises
    ------
    ValueError, IndexError
        As :func:`for_each_index`; ValueError too for an ``incr`` of 0
        where the count is not 0 (an endless region), and for a region
        whose indices no NumPy array can hold.

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
    cycle, endless = _endless_cycle(shape, count, incr)
    if endless is not None and shape.element_count:
        raise ValueError(
            f"indices_in_physical_order: dimension {endless} has incr 0 where its count is "
            "not 0, so the region never ends (XLA's walk repeats it forever); "
            "for_each_index walks such a region until its visitor stops"
        )
    region = _region(shape, base, cycle, incr)
    size = math.prod(region.steps)
    if size * shape.rank * 8 > _INTP_MAX:
        raise ValueError(
            f"the region holds {size} indices of {shape}: an ({size}, {shape.rank}) int64 "
            f"array of them is larger than NumPy's maximum size ({_INTP_MAX} bytes); "
            "ShapeUtil.for_each_index visits them one by one"
        )
    if not shape.is_tiled or not shape.element_count:
        return _layout_boxes(shape, region).rows()
    form = tiling.digits(shape.dimensions, shape.layout.minor_to_major, shape.layout.tiles)
    boxes = None if form is None else _tiled_boxes(shape, region, form)
    if boxes is not None:
        return boxes.rows()
    rows = _layout_boxes(shape, region).rows()  # tilings without boxes: sorted by offset
    return rows[np.argsort(ravel(rows, shape), kind="stable")]
