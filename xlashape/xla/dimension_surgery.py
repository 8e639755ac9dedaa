"""Dimension surgery, as XLA's ``ShapeUtil`` does it: permute, delete,
filter and append dimensions, and move one to the most major place.

Shapes are immutable here, so each function returns a new Shape where XLA
changes its argument. The layout follows the dimensions as XLA's does:
``minor_to_major`` is renumbered, and the other layout fields (tiles,
element size, memory space) are kept, except where XLA itself rebuilds the
layout (:func:`move_dim_to_major`). A 2017 padded layout keeps each
dimension's padded width with its dimension.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .._validate import as_int, as_int_tuple
from ..errors import IndexOutOfBoundsError
from ..model.layout import Layout
from ..model.layout_edit import replace_layout
from ..shapes.shape import Shape
from ..shapes.shape_equality import require_any_shape
from ..shapes.shape_text import require_shape
from ..shapes.tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = [
    "append_major_dimension",
    "append_minor_dimension",
    "delete_dimension",
    "delete_dimensions",
    "drop_degenerate_dimensions",
    "filter_dimensions",
    "has_degenerate_dimensions",
    "insert_dimension_at_index",
    "insert_dimensions_at_index",
    "is_effectively_most_major_dimension",
    "move_dim_to_major",
    "permute_dimensions",
    "permute_dimensions_ignoring_layout",
    "prepend_major_dimension",
    "reorder_logical_dimensions",
]


def _dimension(value: object, rank: int, what: str = "dimension") -> int:
    d = as_int(value, what)
    if not 0 <= d < rank:
        raise IndexOutOfBoundsError(f"{what} {d} is out of range for a rank-{rank} shape; expected 0 <= {what} < {rank}")
    return d


def _check_permutation(permutation: Iterable[int], rank: int) -> tuple[int, ...]:
    perm = as_int_tuple(permutation, "permutation", per_dimension=True)
    if sorted(perm) != list(range(rank)):
        raise ValueError(
            f"permutation must be a permutation of 0..{rank - 1} for a rank-{rank} shape, got {list(perm)}"
        )
    return perm


def permute_dimensions(permutation: Iterable[int], shape: Shape) -> Shape:
    """The shape with dimension ``i`` taken from ``shape``'s dimension
    ``permutation[i]``, and a layout that keeps every element where it is in
    memory (XLA's ``PermuteDimensions``): so that
    ``transpose_is_bitcast(shape, result, permutation)`` holds.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3,4]{2,1,0}")
    >>> print(xs.ShapeUtil.permute_dimensions([2, 0, 1], shape))
    f32[4,2,3]{0,2,1}
    """
    shape = require_shape(shape)
    perm = _check_permutation(permutation, shape.rank)
    inverse = [0] * shape.rank
    for i, source in enumerate(perm):
        inverse[source] = i
    layout = shape.layout
    widths = tuple(layout.padded_dimensions[d] for d in perm) if layout.padded_dimensions else ()
    return Shape(
        shape.element_type,
        (shape.dimensions[d] for d in perm),
        replace_layout(layout, minor_to_major=(inverse[d] for d in layout.minor_to_major), padded_dimensions=widths),
        tuple(shape.dynamic_dimensions[d] for d in perm),
    )


def delete_dimensions(dims_to_delete: Iterable[int], shape: Shape) -> Shape:
    """The shape without the given dimensions, in any order (XLA's
    ``DeleteDimensions``); the layout keeps the others' relative order,
    renumbered.

    Raises
    ------
    IndexError
        For a dimension number outside the rank.
    ValueError
        For a dimension named twice.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3,4,5]{2,0,1,3}")
    >>> print(xs.ShapeUtil.delete_dimensions([3, 0], shape))
    f32[3,4]{1,0}
    """
    shape = require_shape(shape)
    doomed = [_dimension(d, shape.rank) for d in as_int_tuple(dims_to_delete, "dims_to_delete", per_dimension=True)]
    if len(set(doomed)) != len(doomed):
        raise ValueError(f"dims_to_delete names a dimension twice: {doomed}")
    kept = [d for d in range(shape.rank) if d not in doomed]
    number = {d: i for i, d in enumerate(kept)}
    layout = shape.layout
    widths = tuple(layout.padded_dimensions[d] for d in kept) if layout.padded_dimensions else ()
    return Shape(
        shape.element_type,
        (shape.dimensions[d] for d in kept),
        replace_layout(
            layout,
            minor_to_major=(number[d] for d in layout.minor_to_major if d in number),
            padded_dimensions=widths,
        ),
        tuple(shape.dynamic_dimensions[d] for d in kept),
    )


def delete_dimension(dim_to_delete: int, shape: Shape) -> Shape:
    """The shape without dimension ``dim_to_delete`` (XLA's
    ``DeleteDimension``): ``T[m, n, k]`` less dimension 1 is ``T[m, k]``.

    Examples
    --------
    >>> print(xs.ShapeUtil.delete_dimension(1, xs.ShapeUtil.parse_shape_string("f32[2,3,4]{0,1,2}")))
    f32[2,4]{0,1}
    """
    return delete_dimensions((dim_to_delete,), shape)


def filter_dimensions(predicate: Callable[[int], bool], shape: Shape) -> Shape:
    """The shape with only the dimensions whose number ``predicate`` keeps
    (XLA's ``FilterDimensions``).

    Examples
    --------
    >>> shape = xs.Shape("f32", [2, 3, 4])
    >>> print(xs.ShapeUtil.filter_dimensions(lambda d: d % 2 == 0, shape))
    f32[2,4]{1,0}
    """
    shape = require_shape(shape)
    return delete_dimensions([d for d in range(shape.rank) if not predicate(d)], shape)


def has_degenerate_dimensions(shape: Shape) -> bool:
    """Whether the array has a dimension of size 1 (XLA's
    ``HasDegenerateDimensions``).

    Examples
    --------
    >>> xs.ShapeUtil.has_degenerate_dimensions(xs.Shape("f32", [3, 1, 2]))
    True
    """
    return 1 in require_shape(shape).dimensions


def drop_degenerate_dimensions(shape: Shape) -> Shape:
    """The shape without its dimensions of size 1 (XLA's
    ``DropDegenerateDimensions``).

    Examples
    --------
    >>> print(xs.ShapeUtil.drop_degenerate_dimensions(xs.ShapeUtil.parse_shape_string("f32[1,5,1,3]{0,2,1,3}")))
    f32[5,3]{0,1}
    """
    shape = require_shape(shape)
    return filter_dimensions(lambda d: shape.dimensions[d] != 1, shape)


def _appended(shape: Shape, bound: int, minor_to_major: Iterable[int]) -> Shape:
    size = as_int(bound, "bound")
    layout = shape.layout
    widths = layout.padded_dimensions + (size,) if layout.padded_dimensions else ()
    return Shape(
        shape.element_type,
        shape.dimensions + (size,),
        replace_layout(layout, minor_to_major=minor_to_major, padded_dimensions=widths),
        shape.dynamic_dimensions + (False,),
    )


def append_major_dimension(bound: int, shape: Shape) -> Shape:
    """The shape with a new last dimension of size ``bound``, most major in
    the layout (XLA's ``AppendMajorDimension``).

    Examples
    --------
    >>> print(xs.ShapeUtil.append_major_dimension(7, xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")))
    f32[2,3,7]{0,1,2}
    """
    shape = require_shape(shape)
    return _appended(shape, bound, shape.layout.minor_to_major + (shape.rank,))


def append_minor_dimension(bound: int, shape: Shape) -> Shape:
    """The shape with a new last dimension of size ``bound``, most minor in
    the layout (XLA's ``AppendMinorDimension``).

    Examples
    --------
    >>> print(xs.ShapeUtil.append_minor_dimension(7, xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")))
    f32[2,3,7]{2,0,1}
    """
    shape = require_shape(shape)
    return _appended(shape, bound, (shape.rank,) + shape.layout.minor_to_major)


def move_dim_to_major(shape: AnyShape, dim: int) -> AnyShape:
    """The shape with dimension ``dim`` made the most major in the layout,
    the others keeping their order; every array of a tuple alike (XLA's
    ``ShapeUtil::MoveDimToMajor``).

    As XLA's, the result's layout is the new ``minor_to_major`` alone: tiles,
    element size, memory space and 2017 padding are dropped
    (``LayoutUtil.move_dim_to_major`` keeps them). Tokens and opaque
    values are returned as they are.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("(f32[10,20,30]{2,0,1}, token[])")
    >>> print(xs.ShapeUtil.move_dim_to_major(shape, 0))
    (f32[10,20,30]{2,1,0}, token[])
    """
    shape = require_any_shape(shape)
    if isinstance(shape, TupleShape):
        return TupleShape(move_dim_to_major(s, dim) for s in shape)
    if isinstance(shape, NonArrayShape):
        return shape
    d = _dimension(dim, shape.rank, "dim")
    order = tuple(m for m in shape.layout.minor_to_major if m != d) + (d,)
    return Shape(shape.element_type, shape.dimensions, Layout(order), shape.dynamic_dimensions)


def permute_dimensions_ignoring_layout(permutation: Iterable[int], shape: Shape) -> Shape:
    """The shape with dimension ``i`` taken from ``shape``'s dimension
    ``permutation[i]``, dynamic flags alike, and the layout left as it is
    (XLA's ``PermuteDimensionsIgnoringLayout``): ``minor_to_major`` still
    names the same positions, so the elements move in memory unless the
    permutation is the identity. A 2017 padded width moves with its
    dimension.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3,4]{0,2,1}")
    >>> print(xs.ShapeUtil.permute_dimensions_ignoring_layout([2, 0, 1], shape))
    f32[4,2,3]{0,2,1}
    """
    shape = require_shape(shape)
    perm = _check_permutation(permutation, shape.rank)
    layout = shape.layout
    widths = tuple(layout.padded_dimensions[d] for d in perm) if layout.padded_dimensions else ()
    return Shape(
        shape.element_type,
        (shape.dimensions[d] for d in perm),
        replace_layout(layout, padded_dimensions=widths),
        tuple(shape.dynamic_dimensions[d] for d in perm),
    )


def reorder_logical_dimensions(shape: Shape, permutation: Iterable[int]) -> Shape:
    """The shape with dimension ``i`` taken from ``shape``'s dimension
    ``permutation[i]`` and the layout renumbered to keep every element in
    place (XLA's ``ReorderLogicalDimensions``, whose result is
    :func:`permute_dimensions`'s; note the argument order, XLA's).

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3,4]{2,1,0}")
    >>> print(xs.ShapeUtil.reorder_logical_dimensions(shape, [2, 0, 1]))
    f32[4,2,3]{0,2,1}
    """
    return permute_dimensions(permutation, shape)


def insert_dimensions_at_index(shape: Shape, dim_idx: int, bounds: Iterable[int]) -> Shape:
    """The shape with new dimensions of sizes ``bounds`` inserted before
    dimension ``dim_idx`` (XLA's ``InsertDimensionsAtIndex``).

    In the layout the new dimensions go just more major than the dimension
    they are inserted before, the first most major; inserted at the end
    (``dim_idx`` equal to the rank), they go most minor. As XLA's, the
    result's layout is the new ``minor_to_major`` alone and no bounded
    dimension stays dynamic.

    Raises
    ------
    IndexError
        For ``dim_idx`` outside ``0..rank``.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[5,7]{0,1}")
    >>> print(xs.ShapeUtil.insert_dimensions_at_index(shape, 1, [2, 3]))
    f32[5,2,3,7]{0,3,2,1}
    >>> print(xs.ShapeUtil.insert_dimensions_at_index(shape, 2, [2, 3]))
    f32[5,7,2,3]{3,2,0,1}
    """
    shape = require_shape(shape)
    at = _dimension(dim_idx, shape.rank + 1, "dim_idx")
    sizes = as_int_tuple(bounds, "bounds")
    n = len(sizes)
    new = [at + i for i in range(n - 1, -1, -1)]
    order = list(new) if at == shape.rank else []
    for d in shape.layout.minor_to_major:
        order.append(d + n if d >= at else d)
        if d == at:
            order.extend(new)
    dims = shape.dimensions[:at] + sizes + shape.dimensions[at:]
    return Shape(shape.element_type, dims, Layout(order))


def insert_dimension_at_index(shape: Shape, dim_idx: int, bound: int) -> Shape:
    """The shape with a new dimension of size ``bound`` inserted before
    dimension ``dim_idx`` (XLA's ``InsertDimensionAtIndex``); see
    :func:`insert_dimensions_at_index`.

    Examples
    --------
    >>> print(xs.ShapeUtil.insert_dimension_at_index(xs.ShapeUtil.parse_shape_string("f32[5,7]{1,0}"), 0, 3))
    f32[3,5,7]{2,1,0}
    """
    return insert_dimensions_at_index(shape, dim_idx, (as_int(bound, "bound"),))


def prepend_major_dimension(bound: int, shape: Shape) -> Shape:
    """The shape with a new dimension 0 of size ``bound``, most major in
    the layout (XLA's ``PrependMajorDimension``). As XLA's, the result's
    layout is the new ``minor_to_major`` alone and no bounded dimension
    stays dynamic.

    Examples
    --------
    >>> print(xs.ShapeUtil.prepend_major_dimension(7, xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")))
    f32[7,2,3]{1,2,0}
    """
    shape = require_shape(shape)
    size = as_int(bound, "bound")
    return Shape(
        shape.element_type,
        (size,) + shape.dimensions,
        Layout(tuple(d + 1 for d in shape.layout.minor_to_major) + (0,)),
    )


def is_effectively_most_major_dimension(shape: Shape, dimension: int) -> bool:
    """Whether ``dimension`` is the most major in the layout, or only
    dimensions of size 1 are more major (XLA's
    ``IsEffectivelyMostMajorDimension``).

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[1,5,3]{1,2,0}")
    >>> xs.ShapeUtil.is_effectively_most_major_dimension(shape, 2), xs.ShapeUtil.is_effectively_most_major_dimension(shape, 1)
    (True, False)
    """
    shape = require_shape(shape)
    d = as_int(dimension, "dimension")
    for major in shape.layout.major_to_minor:
        if major == d:
            return True
        if shape.dimensions[major] != 1:
            return False
    return False
