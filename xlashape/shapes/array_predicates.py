"""XLA's predicates on what a shape holds: scalars, empty arrays, and the
element count through tuples."""

from __future__ import annotations

from .shape import Shape
from .shape_equality import require_any_shape
from .tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = ["elements_in_recursive", "is_effective_scalar", "is_scalar", "is_zero_element_array"]


def is_scalar(shape: AnyShape) -> bool:
    """Whether ``shape`` is an array of rank 0 (XLA's ``IsScalar``); a tuple,
    token or opaque shape is not.

    Examples
    --------
    >>> xs.ShapeUtil.is_scalar(xs.Shape("f32", [])), xs.ShapeUtil.is_scalar(xs.Shape("f32", [1]))
    (True, False)
    """
    shape = require_any_shape(shape)
    return isinstance(shape, Shape) and shape.rank == 0


def is_effective_scalar(shape: AnyShape) -> bool:
    """Whether ``shape`` is an array whose dimensions are all 1 (XLA's
    ``IsEffectiveScalar``: true rank 0).

    Examples
    --------
    >>> xs.ShapeUtil.is_effective_scalar(xs.Shape("f32", [1, 1])), xs.ShapeUtil.is_effective_scalar(xs.Shape("f32", [1, 0]))
    (True, False)
    """
    shape = require_any_shape(shape)
    return isinstance(shape, Shape) and shape.true_rank == 0


def is_zero_element_array(shape: AnyShape) -> bool:
    """Whether ``shape`` is an array with a dimension of size 0 (XLA's
    ``IsZeroElementArray``); never a tuple, even of empty arrays.

    Examples
    --------
    >>> xs.ShapeUtil.is_zero_element_array(xs.Shape("s32", [3, 0, 5]))
    True
    >>> xs.ShapeUtil.is_zero_element_array(xs.ShapeUtil.parse_shape_string("(s32[0])"))
    False
    """
    shape = require_any_shape(shape)
    return isinstance(shape, Shape) and 0 in shape.dimensions


def elements_in_recursive(shape: Shape | TupleShape) -> int:
    """The number of array elements, summed through tuples (XLA's
    ``ElementsInRecursive``).

    Raises
    ------
    TypeError
        For a token or opaque shape, inside a tuple or not: they hold no
        elements to count, and XLA refuses them too.

    Examples
    --------
    >>> xs.ShapeUtil.elements_in_recursive(xs.ShapeUtil.parse_shape_string("(f32[2,3], (s8[4], ()))"))
    10
    """
    whole = require_any_shape(shape)
    total = 0
    for leaf in whole.leaves() if isinstance(whole, TupleShape) else (whole,):
        if isinstance(leaf, NonArrayShape):
            raise TypeError(f"elements_in_recursive counts arrays and tuples of them, got {leaf}")
        total += leaf.element_count
    return total
