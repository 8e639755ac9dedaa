"""Tuple shapes as XLA's ``ShapeUtil`` asks about them and builds them:
nested, empty, a slice of one, and a tuple of several shapes or the one
shape alone."""

from __future__ import annotations

from collections.abc import Iterable

from .._validate import as_int
from .shape_equality import require_any_shape
from .tuple_shape import AnyShape, TupleShape

__all__ = ["is_empty_tuple", "is_nested_tuple", "make_maybe_tuple_shape", "make_nil", "slice_tuple"]


def is_nested_tuple(shape: AnyShape) -> bool:
    """Whether the shape is a tuple with a tuple among its elements (XLA's
    ``IsNestedTuple``).

    Examples
    --------
    >>> xs.ShapeUtil.is_nested_tuple("(f32[2], ())"), xs.ShapeUtil.is_nested_tuple("(f32[2], s8[])")
    (True, False)
    """
    shape = require_any_shape(shape)
    return isinstance(shape, TupleShape) and any(isinstance(s, TupleShape) for s in shape)


def is_empty_tuple(shape: AnyShape) -> bool:
    """Whether the shape is the tuple of no elements, ``()`` (XLA's
    ``IsEmptyTuple``).

    Examples
    --------
    >>> xs.ShapeUtil.is_empty_tuple("()"), xs.ShapeUtil.is_empty_tuple("(())")
    (True, False)
    """
    shape = require_any_shape(shape)
    return isinstance(shape, TupleShape) and len(shape) == 0


def make_nil() -> TupleShape:
    """The empty tuple ``()``, a sentinel shape (XLA's ``MakeNil``).

    Examples
    --------
    >>> print(xs.ShapeUtil.make_nil())
    ()
    """
    return TupleShape(())


def make_maybe_tuple_shape(shapes: Iterable[AnyShape]) -> AnyShape:
    """The one shape itself where ``shapes`` holds one, else their tuple
    (XLA's ``MakeMaybeTupleShape``).

    Examples
    --------
    >>> s = xs.Shape("f32", [2])
    >>> print(xs.ShapeUtil.make_maybe_tuple_shape([s]), xs.ShapeUtil.make_maybe_tuple_shape([s, s]))
    f32[2]{0} (f32[2]{0}, f32[2]{0})
    """
    elements = TupleShape(shapes)
    return elements[0] if len(elements) == 1 else elements


def slice_tuple(tuple_shape: TupleShape, start: int, limit: int) -> TupleShape:
    """The tuple of elements ``start`` to ``limit - 1`` (XLA's
    ``SliceTuple``).

    Raises
    ------
    TypeError
        For a shape that is not a tuple.
    IndexError
        Unless ``0 <= start <= limit <= len(tuple_shape)``.

    Examples
    --------
    >>> print(xs.ShapeUtil.slice_tuple(xs.ShapeUtil.parse_shape_string("(f32[2], s8[], token[])"), 1, 3))
    (s8[], token[])
    """
    whole = require_any_shape(tuple_shape, "tuple_shape")
    if not isinstance(whole, TupleShape):
        raise TypeError(f"tuple_shape must be a tuple shape, got {whole}")
    first, end = as_int(start, "start"), as_int(limit, "limit")
    if not 0 <= first <= end <= len(whole):
        raise IndexError(
            f"slice_tuple takes 0 <= start <= limit <= {len(whole)} for a tuple of "
            f"{len(whole)} elements, got start {first} and limit {end}"
        )
    return TupleShape(whole.tuple_shapes[first:end])
