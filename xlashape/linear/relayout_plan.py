"""Plans for the compiled relayout mover (csrc/relayout/relayout.h).

Each side of a relayout (a linear buffer of a Shape, or a NumPy array) is
read as *axes*: digits of the dimensions, each with a step in bytes. A
dimension's value is the sum of its digits times their divisors, the
divisors of one dimension forming a chain (each divides the next, the
lowest is 1). Untiled layouts have one digit per dimension (its padded
width the extent); tiled ones have the digits of :func:`tiling.digits`
(``T(8,128)`` splits the two minor dimensions by 8 and by 128).

A plan refines both sides' digits to common ones, dimension by dimension,
so that every common digit has one step in each buffer; then the elements
are whole boxes of common digits (a dimension whose size is not a multiple
of a tile needs a box for its last, partial tile), and so is the padding of
a buffer. The mover runs each box as copies of runs, blocked transposes or
fills (csrc/relayout/relayout.h).

There is no plan (:func:`plan` returns None) when a tiling combines
dimensions with ``*`` or re-tiles a digit so that the two sides' divisors
do not divide each other; the callers then use the element-by-element path.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core import _relayout
from ..model import tiling
from ..shapes.shape import Shape

__all__ = ["Axis", "Plan", "array_axes", "fill_plan", "plan", "shape_axes"]


@dataclass(frozen=True)
class Axis:
    """A digit of dimension ``dim``: its divisor, its extent and its step
    in bytes. The top digit's extent may exceed what the size needs."""

    dim: int
    divisor: int
    extent: int
    step: int


@dataclass(frozen=True)
class Plan:
    """Steps per axis (bytes) and boxes (start and count per axis)."""

    src_step: np.ndarray
    dst_step: np.ndarray
    start: np.ndarray
    count: np.ndarray

    def run(self, src: np.ndarray, dst: np.ndarray, threads: int | None = None) -> None:
        """Move the boxes from ``src`` to ``dst`` (same itemsize)."""
        _relayout.move(
            src, dst, dst.itemsize, self.src_step, self.dst_step, self.start, self.count, threads
        )


@functools.lru_cache(maxsize=256)
def shape_axes(shape: Shape, itemsize: int) -> tuple[Axis, ...] | None:
    """The axes of ``shape``'s linear buffer, or None where a tile combines
    dimensions (``*``) or the tiling has no digit form."""
    layout = shape.layout
    order = list(reversed(layout.minor_to_major))
    if not layout.tiles:
        widths = shape.padded_dimensions
        step = itemsize
        axes = []
        for dim in reversed(order):
            axes.append(Axis(dim, 1, widths[dim], step))
            step *= widths[dim]
        return tuple(axes[::-1])
    form = tiling.digits(shape.dimensions, layout.minor_to_major, layout.tiles)
    if form is None:
        return None
    # A leading dimension of size 1 that a tile adds is dimension rank + k:
    # its padding (a within-tile index past 0) is padding like any other.
    lead = {g: shape.rank + k for k, g in enumerate(i for i, g in enumerate(form.groups) if not g.dimensions)}
    axes = []
    for axis, stride in zip(form.axes, form.strides):
        dims = form.groups[axis.group].dimensions
        if len(dims) > 1:
            return None
        if axis.extent > 1:
            dim = dims[0] if dims else lead[axis.group]
            axes.append(Axis(dim, axis.divisor, axis.extent, stride * itemsize))
    return tuple(axes)


def _sizes(dimensions: tuple[int, ...], *sides: tuple[Axis, ...]) -> tuple[int, ...]:
    """The dimensions, and 1 for each leading dimension a tile added."""
    extra = max((a.dim + 1 for side in sides for a in side), default=0) - len(dimensions)
    return dimensions + (1,) * max(extra, 0)


def array_axes(array: np.ndarray) -> tuple[Axis, ...]:
    """The axes of a NumPy array, one per dimension."""
    return _array_axes(array.shape, array.strides)


@functools.lru_cache(maxsize=256)
def _array_axes(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[Axis, ...]:
    return tuple(Axis(d, 1, n, s) for d, (n, s) in enumerate(zip(shape, strides)))


def _chain(divisors: set[int]) -> list[int] | None:
    chain = sorted(divisors)
    if any(b % a for a, b in itertools.pairwise(chain)):
        return None
    return chain


def _digit_boxes(extents: list[int], size: int, valid: bool) -> list[list[tuple[int, int]]]:
    """Boxes of one dimension's digits (least significant first; each
    (start, count)) covering the values below ``size`` (``valid``) or the
    values from ``size`` up to what the extents hold."""
    top = len(extents) - 1
    divisors = [1]
    for extent in extents[:-1]:
        divisors.append(divisors[-1] * extent)
    digits = [(size // d) % e for d, e in zip(divisors[:-1], extents[:-1])] + [size // divisors[-1]]
    boxes = []
    fixed: list[tuple[int, int]] = []  # digits above k, most significant first, at size's
    for k in range(top, -1, -1):
        if valid:
            low, high = 0, digits[k]
        else:
            low, high = digits[k] + (k > 0), extents[k]
        high = min(high, extents[k])
        if high > low:
            below = [(0, e) for e in extents[:k]]
            boxes.append(below + [(low, high - low)] + fixed[::-1])
        if digits[k] >= extents[k]:
            break
        fixed.append((digits[k], 1))
    return boxes


def _rows(boxes: list[tuple[list[tuple[int, int]], ...]], naxes: int) -> tuple[np.ndarray, np.ndarray]:
    """Boxes given as one (start, count) list per dimension, as start and
    count arrays over the axes."""
    start = np.zeros((len(boxes), naxes), dtype=np.int64)
    count = np.ones((len(boxes), naxes), dtype=np.int64)
    for b, combo in enumerate(boxes):
        row = [pair for box in combo for pair in box]
        start[b] = [s for s, _ in row]
        count[b] = [c for _, c in row]
    return start, count


def plan(dimensions: tuple[int, ...], src: Sequence[Axis], dst: Sequence[Axis]) -> Plan | None:
    """The plan that moves every element from a buffer read as ``src`` to
    one read as ``dst``, or None where their digits have no common
    refinement (or need more axes than the mover takes). Plans are cached:
    a call on a small array costs a dictionary look-up, not a planning."""
    return _plan(tuple(dimensions), tuple(src), tuple(dst))


@functools.lru_cache(maxsize=256)
def _plan(dimensions: tuple[int, ...], src: tuple[Axis, ...], dst: tuple[Axis, ...]) -> Plan | None:
    dimensions = _sizes(dimensions, src, dst)
    digits: list[tuple[int, int, int, int]] = []  # (dim, extent, src step, dst step)
    per_dim_extents: list[list[int]] = []
    for dim, size in enumerate(dimensions):
        mine = [a for a in src + dst if a.dim == dim]
        chain = _chain({1} | {a.divisor for a in mine})
        if chain is None:
            return None
        tops = [*chain[1:], None]
        extents = [b // a if b else max(-(-size // a), 1) for a, b in zip(chain, tops)]
        per_dim_extents.append(extents)
        for divisor, extent in zip(chain, extents):
            digits.append((dim, extent, _step(src, dim, divisor), _step(dst, dim, divisor)))
    if len(digits) > _relayout.MAX_AXES:
        return None
    per_dim = [_digit_boxes(e, size, True) for e, size in zip(per_dim_extents, dimensions)]
    start, count = _rows(list(itertools.product(*per_dim)), len(digits))
    order = sorted(range(len(digits)), key=lambda k: -abs(digits[k][3]))
    return _make(
        [digits[k][2] for k in order], [digits[k][3] for k in order], start[:, order], count[:, order]
    )


def _make(src_step: list[int], dst_step: list[int], start: np.ndarray, count: np.ndarray) -> Plan | None:
    """The plan, or None where a step does not fit in int64 (a buffer no
    memory holds: only an empty array has one)."""
    try:
        steps = np.array(src_step, dtype=np.int64), np.array(dst_step, dtype=np.int64)
    except OverflowError:
        return None
    arrays = (*steps, np.ascontiguousarray(start), np.ascontiguousarray(count))
    for array in arrays:
        array.flags.writeable = False  # plans are cached and shared
    return Plan(*arrays)


def _step(axes: tuple[Axis, ...], dim: int, divisor: int) -> int:
    """The step of the common digit of ``divisor`` in a side's buffer: that
    of the side's digit holding it, times the divisors' ratio."""
    holder = max((a for a in axes if a.dim == dim and a.divisor <= divisor), key=lambda a: a.divisor, default=None)
    if holder is None:  # a dimension of size 1 that the side leaves out
        return 0
    return holder.step * (divisor // holder.divisor)


@functools.lru_cache(maxsize=256)
def fill_plan(dimensions: tuple[int, ...], axes: tuple[Axis, ...]) -> Plan | None:
    """The plan that writes one value (source steps 0) into every padding
    position of a buffer read as ``axes``; None when it has no padding.
    Cached, as :func:`plan`."""
    dimensions = _sizes(dimensions, axes)
    per_dim = []
    naxes = 0
    for dim, size in enumerate(dimensions):
        mine = sorted((a for a in axes if a.dim == dim), key=lambda a: a.divisor)
        extents = [a.extent for a in mine] or [1]
        naxes += len(extents)
        per_dim.append((extents, size))
    boxes: list[tuple[list[tuple[int, int]], ...]] = []
    for d, (extents, size) in enumerate(per_dim):
        invalid = _digit_boxes(extents, size, False)
        if not invalid:
            continue
        before = [_digit_boxes(e, s, True) for e, s in per_dim[:d]]
        after = [[[(0, e) for e in ext]] for ext, _ in per_dim[d + 1 :]]
        boxes.extend(itertools.product(*before, invalid, *after))
    if not boxes:
        return None
    start, count = _rows(boxes, naxes)
    steps: list[int] = []
    for dim in range(len(dimensions)):
        mine = sorted((a for a in axes if a.dim == dim), key=lambda a: a.divisor)
        steps.extend([a.step for a in mine] or [0])
    order = sorted(range(naxes), key=lambda k: -abs(steps[k]))
    return _make([0] * naxes, [steps[k] for k in order], start[:, order], count[:, order])

