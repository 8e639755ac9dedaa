"""Dynamic shapes as XLA's ``ShapeUtil`` compares them with their bounds:
whether a dynamic shape fits a bounded one, and the product of the sizes
that are known."""

from __future__ import annotations

import math

from .shape import UNBOUNDED_SIZE, Shape
from .shape_equality import require_any_shape
from .shape_text import require_shape
from .subshapes import for_each_subshape, try_get_subshape
from .tuple_shape import AnyShape, TupleShape

__all__ = ["dynamic_array_shape_is_compatible", "dynamic_shape_is_compatible", "static_extent_product"]


def dynamic_array_shape_is_compatible(dynamic_shape: Shape, bounded_shape: Shape) -> bool:
    """Whether an array of ``dynamic_shape`` fits in ``bounded_shape``: the
    same rank and no size above the bound's (XLA's
    ``DynamicArrayShapeIsCompatible``; element types and layouts are
    ignored, and an unbounded size ``?`` fits any bound).

    Examples
    --------
    >>> xs.ShapeUtil.dynamic_array_shape_is_compatible("f32[<=3,4]", "f32[5,4]")
    True
    >>> xs.ShapeUtil.dynamic_array_shape_is_compatible("f32[<=6,4]", "f32[5,4]")
    False
    """
    dynamic = require_shape(dynamic_shape, "dynamic_shape")
    bounded = require_shape(bounded_shape, "bounded_shape")
    return dynamic.rank == bounded.rank and all(
        d <= b for d, b in zip(dynamic.dimensions, bounded.dimensions)
    )


def dynamic_shape_is_compatible(dynamic_shape: AnyShape, bounded_shape: AnyShape) -> bool:
    """Whether ``dynamic_shape`` fits ``bounded_shape`` through tuples
    (XLA's ``DynamicShapeIsCompatible``): every sub-shape of
    ``dynamic_shape`` has a counterpart, tuples against tuples, and each
    array with a dynamic dimension fits its counterpart as
    :func:`dynamic_array_shape_is_compatible` says. Static arrays are not
    compared, and ``bounded_shape`` may hold more tuple elements.

    Examples
    --------
    >>> xs.ShapeUtil.dynamic_shape_is_compatible("(f32[<=3], s8[2])", "(f32[4], s8[2], token[])")
    True
    >>> xs.ShapeUtil.dynamic_shape_is_compatible("(f32[<=3], s8[2])", "(f32[2], s8[2])")
    False
    """
    bounded = require_any_shape(bounded_shape, "bounded_shape")
    compatible = True

    def visit(sub: AnyShape, index: tuple[int, ...]) -> None:
        nonlocal compatible
        if not compatible:
            return
        counterpart = try_get_subshape(bounded, index)
        if counterpart is None or isinstance(sub, TupleShape) != isinstance(counterpart, TupleShape):
            compatible = False
        elif isinstance(sub, Shape) and not sub.is_static:
            compatible = isinstance(counterpart, Shape) and dynamic_array_shape_is_compatible(sub, counterpart)

    for_each_subshape(require_any_shape(dynamic_shape, "dynamic_shape"), visit)
    return compatible


def static_extent_product(shape: Shape) -> int:
    """The product of the sizes, unbounded ones (``?``) left out, bounded
    dynamic ones at their bound (XLA's ``StaticExtentProduct``).

    Examples
    --------
    >>> xs.ShapeUtil.static_extent_product("f32[?,784,<=10]")
    7840
    """
    shape = require_shape(shape)
    return math.prod(d for d in shape.dimensions if d != UNBOUNDED_SIZE)
