"""Which dimensions a reshape leaves alone, as XLA reasons about it.

A reshape keeps the elements' logical (row-major) order. XLA describes it
by the *common factors* of the two dimension lists (``xla::CommonFactors``):
the pairs ``(i, j)`` where the first ``i`` input dimensions hold exactly as
many elements as the first ``j`` output dimensions. A dimension that is a
common factor of its own, one step in both lists, is unmodified.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .._validate import as_int_tuple
from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape

__all__ = [
    "ShapeEqualityDescriptor",
    "common_factors",
    "dimensions_unmodified_by_reshape",
    "inserted_or_deleted_1_sized_dimensions",
    "reshape_leaves_dimensions_unmodified",
]


def common_factors(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """The bounds ``(i, j)``, from ``(0, 0)`` to ``(len(a), len(b))``, where
    ``prod(a[:i]) == prod(b[:j])``, as XLA's ``CommonFactors`` finds them:
    a common leading run pairs dimension by dimension, and where what
    follows holds no elements it is one factor (the whole lists, where a
    zero in the common run makes the rest differ).

    Examples
    --------
    >>> from xlashape.xla.reshape_dimensions import common_factors
    >>> common_factors([2, 3, 5, 7, 143], [6, 5, 1, 7, 11, 13])
    [(0, 0), (2, 1), (3, 2), (3, 3), (4, 4), (5, 6)]
    """
    if math.prod(a) != math.prod(b):
        raise ValueError(
            f"common factors need lists with as many elements: {list(a)} holds "
            f"{math.prod(a)}, {list(b)} holds {math.prod(b)}"
        )
    if list(a) == list(b):
        return [(i, i) for i in range(len(a) + 1)]
    bounds: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b) and a[i] == b[j]:
        bounds.append((i, j))
        i, j = i + 1, j + 1
    if math.prod(a[i:]) != math.prod(b[j:]):  # zeros in the common run: one factor
        return [(0, 0), (len(a), len(b))]
    if math.prod(a[i:]) == 0:
        return bounds + [(i, j), (len(a), len(b))]
    prior = (i - 1, j - 1)
    size_a = size_b = 1
    while True:
        if size_a == size_b and (i > prior[0] or j > prior[1]):
            prior = (i, j)
            bounds.append(prior)
            continue
        more_a, more_b = i < len(a), j < len(b)
        if not (more_a or more_b):
            return bounds
        step_a = size_a < size_b or (more_a and (not more_b or (size_a == size_b and a[i] <= b[j])))
        step_b = size_b < size_a or (more_b and (not more_a or (size_a == size_b and b[j] <= a[i])))
        if step_a:
            size_a, i = size_a * a[i], i + 1
        if step_b:
            size_b, j = size_b * b[j], j + 1


def _arrays(input_shape: Shape, output_shape: Shape) -> tuple[Shape, Shape]:
    return require_shape(input_shape, "input_shape"), require_shape(output_shape, "output_shape")


def dimensions_unmodified_by_reshape(input_shape: Shape, output_shape: Shape) -> list[tuple[int, int]]:
    """The pairs (input dimension, output dimension) that a reshape from
    ``input_shape`` to ``output_shape`` leaves unmodified: an input index
    whose dimension I is x becomes an output index whose dimension O is x
    (XLA's ``DimensionsUnmodifiedByReshape``). Sorted both ways.

    Raises
    ------
    ValueError
        If the shapes hold different numbers of elements.

    Examples
    --------
    >>> a = xs.Shape("f32", [2, 3, 5, 7, 143])
    >>> b = xs.Shape("f32", [6, 5, 1, 7, 11, 13])
    >>> xs.ShapeUtil.dimensions_unmodified_by_reshape(a, b)
    [(2, 1), (3, 3)]
    """
    input_shape, output_shape = _arrays(input_shape, output_shape)
    bounds = common_factors(input_shape.dimensions, output_shape.dimensions)
    return [
        here
        for here, after in itertools.pairwise(bounds)
        if after[0] - here[0] == 1 and after[1] - here[1] == 1
    ]


def reshape_leaves_dimensions_unmodified(
    from_shape: Shape, to_shape: Shape, input_dim_indices: Iterable[int]
) -> list[int] | None:
    """The output dimensions of the given input dimensions, when a reshape
    from ``from_shape`` to ``to_shape`` leaves every one of them unmodified;
    None when it modifies one, or when ``input_dim_indices`` is not sorted
    (XLA's ``ReshapeLeavesDimensionsUnmodified``).

    Examples
    --------
    >>> a = xs.Shape("f32", [2, 3, 5, 7, 143])
    >>> b = xs.Shape("f32", [6, 5, 1, 7, 11, 13])
    >>> xs.ShapeUtil.reshape_leaves_dimensions_unmodified(a, b, [2, 3])
    [1, 3]
    >>> print(xs.ShapeUtil.reshape_leaves_dimensions_unmodified(a, b, [0]))
    None
    """
    wanted = as_int_tuple(input_dim_indices, "input_dim_indices", per_dimension=True)
    if list(wanted) != sorted(wanted):
        return None
    unmodified = dict(dimensions_unmodified_by_reshape(from_shape, to_shape))
    if not all(d in unmodified for d in wanted):
        return None
    return [unmodified[d] for d in wanted]


class ShapeEqualityDescriptor(NamedTuple):
    """How one shape becomes another by size-1 dimensions alone (XLA's
    ``ShapeEqualityDescriptor``): the input's deleted dimensions and the
    output's inserted ones."""

    deleted_dimensions: list[int]
    inserted_dimensions: list[int]


def inserted_or_deleted_1_sized_dimensions(
    shape_pre: Shape, shape_post: Shape
) -> ShapeEqualityDescriptor | None:
    """Where a reshape from ``shape_pre`` to ``shape_post`` only deletes and
    inserts dimensions of size 1, which ones: the deleted dimensions of
    ``shape_pre`` and the inserted ones of ``shape_post``; None where it does
    more (XLA's ``InsertedOrDeleted1SizedDimensions``).

    Examples
    --------
    >>> a, b = xs.Shape("s32", [9, 1, 4]), xs.Shape("s32", [1, 9, 4, 1])
    >>> xs.ShapeUtil.inserted_or_deleted_1_sized_dimensions(a, b)
    ShapeEqualityDescriptor(deleted_dimensions=[1], inserted_dimensions=[0, 3])
    >>> print(xs.ShapeUtil.inserted_or_deleted_1_sized_dimensions(a, xs.Shape("s32", [3, 1, 12])))
    None
    """
    shape_pre, shape_post = _arrays(shape_pre, shape_post)
    pre, post = shape_pre.dimensions, shape_post.dimensions
    unmodified = dimensions_unmodified_by_reshape(shape_pre, shape_post)
    deleted: list[int] = []
    inserted: list[int] = []
    for before, after in zip([(-1, -1)] + unmodified, unmodified + [(len(pre), len(post))]):
        gap_pre = range(before[0] + 1, after[0])
        gap_post = range(before[1] + 1, after[1])
        if any(pre[d] > 1 for d in gap_pre) or any(post[d] > 1 for d in gap_post):
            return None
        deleted.extend(gap_pre)
        inserted.extend(gap_post)
    return ShapeEqualityDescriptor(deleted, inserted)
