"""Layouts read off NumPy strides: which layout puts an array's elements
exactly where its strides do (what :meth:`Shape.from_array
<xlashape.Shape.from_array>` uses)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from .layout import Layout
from .primitive_type import PaddingValue

__all__ = ["layout_from_strides"]


def _element_stride(dim: int, byte_stride: int, itemsize: int) -> int:
    """A dimension's stride in elements; ValueError if no layout has it."""
    if byte_stride <= 0:
        raise ValueError(
            f"dimension {dim} has stride {byte_stride} bytes; a layout places every "
            "dimension at a positive stride (reversed and broadcast arrays have none)"
        )
    if byte_stride % itemsize:
        raise ValueError(
            f"dimension {dim} has stride {byte_stride} bytes, not a multiple of the "
            f"itemsize {itemsize}"
        )
    return byte_stride // itemsize


def _widths(
    order: list[int], strides: dict[int, int], dimensions: tuple[int, ...]
) -> dict[int, int]:
    """The padded width of each dimension in ``order`` (minor to major) but
    the last, from the stride of the next more major one; ValueError naming
    the first dimension whose stride no width gives."""
    widths = {}
    for inner, dim in itertools.pairwise(order):
        inner_stride, stride = strides[inner], strides[dim]
        if stride % inner_stride:
            raise ValueError(
                f"dimension {dim} has stride {stride} elements, not a multiple of the "
                f"stride {inner_stride} of dimension {inner}, the next more minor; no "
                "padded layout gives these strides"
            )
        if stride // inner_stride < dimensions[inner]:
            raise ValueError(
                f"dimension {dim} has stride {stride} elements, less than the "
                f"{dimensions[inner]} x {inner_stride} elements spanned by dimension "
                f"{inner}: the array's elements overlap"
            )
        widths[inner] = stride // inner_stride
    return widths


def _merge(order: list[int], units: list[int], key: Callable[[int], int]) -> list[int]:
    """``order`` with ``units`` (sorted by ``key``) merged in: each unit goes
    before the first dimension of ``order`` that ``key`` puts after it."""
    pending = list(units)
    merged: list[int] = []
    for dim in order:
        while pending and key(pending[0]) < key(dim):
            merged.append(pending.pop(0))
        merged.append(dim)
    return merged + pending


def layout_from_strides(
    dimensions: tuple[int, ...], byte_strides: tuple[int, ...], itemsize: int
) -> Layout:
    """The layout under which elements of ``itemsize`` bytes sit at exactly
    ``byte_strides`` from the first: what :meth:`Shape.from_array` uses.

    Dimensions are ordered minor to major by stride. Each stride must be a
    whole multiple of the next more minor one, at least that dimension's
    extent: where it is more, that dimension is padded to the width the
    stride implies, and the padding value is UNKNOWN_PAD (the padding holds
    whatever the memory holds). The most major dimension is never padded.
    Anything else (overlapping, reversed, broadcast or misaligned strides)
    raises ValueError: no layout describes it.

    Strides of size-1 dimensions never matter, so they are ignored, and those
    dimensions are merged into the order of the others by dimension number:
    ascending if the others are in Fortran order (dim 0 minor), descending
    otherwise. So C arrays get the default layout ``{n-1,...,0}`` and Fortran
    arrays ``{0,...,n-1}`` even with size-1 dimensions. The most minor of the
    others must have stride 1, unless there is a size-1 dimension to put
    before it padded to that stride, as in a column ``a[:, :1]`` of a C
    array: the first in that merge order is used. An array with no elements
    places nothing, so it gets the default layout.
    """
    rank = len(dimensions)
    if 0 in dimensions:
        return Layout(range(rank - 1, -1, -1))
    spread = [d for d in range(rank) if dimensions[d] > 1]
    strides = {d: _element_stride(d, byte_strides[d], itemsize) for d in spread}
    order = sorted(spread, key=strides.__getitem__)
    widths = _widths(order, strides, dimensions)
    ascending = len(order) > 1 and order == sorted(order)
    key = (lambda d: d) if ascending else (lambda d: -d)
    units = sorted((d for d in range(rank) if dimensions[d] == 1), key=key)
    gap = strides[order[0]] if order else 1
    if gap == 1:
        minor_to_major = _merge(order, units, key)
    elif units:
        widths[units[0]] = gap
        minor_to_major = [units[0]] + _merge(order, units[1:], key)
    else:
        raise ValueError(
            f"dimension {order[0]}, the most minor (smallest stride), has stride {gap} "
            "elements; a layout's most minor dimension has stride 1 (a step in the "
            "minor dimension leaves gaps no padding describes)"
        )
    padded = tuple(widths.get(d, size) for d, size in enumerate(dimensions))
    if padded == dimensions:
        return Layout(minor_to_major)
    return Layout(minor_to_major, padded, PaddingValue.UNKNOWN_PAD)
