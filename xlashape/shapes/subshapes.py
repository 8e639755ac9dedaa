"""Sub-shapes of tuple shapes, addressed by a ``ShapeIndex``, as XLA's
``ShapeUtil`` addresses them.

A ``ShapeIndex`` is a tuple of ints: the path from the whole shape down
through nested tuples, ``()`` being the whole shape. In
``(a, (b, c, d), e)``, ``(1, 2)`` is ``d`` and ``(0, 0)`` is not valid
(``a`` is not a tuple). Walks are iterative and visit sub-shapes in
depth-first pre-order, the whole shape first, as XLA's ``ForEachSubshape``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeAlias

from .._validate import as_int_tuple
from ..errors import IndexOutOfBoundsError
from .shape import Shape
from .shape_equality import require_any_shape
from .tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = [
    "IndexedShape",
    "ShapeIndex",
    "flatten_tuple_shape",
    "for_each_leaf_shape",
    "for_each_subshape",
    "for_each_subshape_post_order",
    "get_leaf_count",
    "get_leaf_shapes",
    "get_subshape",
    "index_is_valid",
    "is_leaf_index",
    "subshape_count",
    "try_get_subshape",
]

ShapeIndex: TypeAlias = tuple[int, ...]


@dataclass(frozen=True)
class IndexedShape:
    """A sub-shape and its index (XLA's ``ShapeUtil::IndexedShape``)."""

    index: ShapeIndex
    shape: Shape | NonArrayShape


def try_get_subshape(shape: AnyShape, index: Iterable[int]) -> AnyShape | None:
    """The sub-shape at ``index``, or None where ``index`` is not valid
    (XLA's ``TryGetSubshape``, whose error becomes None).

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))")
    >>> print(xs.ShapeUtil.try_get_subshape(t, (1, 0)), xs.ShapeUtil.try_get_subshape(t, (0, 0)))
    s8[3]{0} None
    """
    current = require_any_shape(shape)
    for i in as_int_tuple(index, "index"):
        if not isinstance(current, TupleShape) or not 0 <= i < len(current):
            return None
        current = current[i]
    return current


def get_subshape(shape: AnyShape, index: Iterable[int]) -> AnyShape:
    """The sub-shape at ``index`` (XLA's ``GetSubshape``).

    Raises
    ------
    IndexError
        Where ``index`` is not valid, naming the step that is not.

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))")
    >>> print(xs.ShapeUtil.get_subshape(t, (1,)))
    (s8[3]{0}, token[])
    """
    current = require_any_shape(shape)
    path = as_int_tuple(index, "index")
    for step, i in enumerate(path):
        if not isinstance(current, TupleShape):
            raise IndexOutOfBoundsError(
                f"shape index {path} is not valid for {shape}: the sub-shape at "
                f"{path[:step]} is {current}, not a tuple"
            )
        if not 0 <= i < len(current):
            raise IndexOutOfBoundsError(
                f"shape index {path} is not valid for {shape}: entry {step} is {i}, "
                f"but the tuple there has {len(current)} elements"
            )
        current = current[i]
    return current


def index_is_valid(shape: AnyShape, index: Iterable[int]) -> bool:
    """Whether ``shape`` has a sub-shape at ``index`` (XLA's ``IndexIsValid``).

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))")
    >>> xs.ShapeUtil.index_is_valid(t, (1, 1)), xs.ShapeUtil.index_is_valid(t, (2,))
    (True, False)
    """
    return try_get_subshape(shape, index) is not None


def _walk(shape: AnyShape) -> Iterator[tuple[AnyShape, ShapeIndex]]:
    """Every sub-shape with its index, depth-first pre-order."""
    pending: list[tuple[AnyShape, ShapeIndex]] = [(require_any_shape(shape), ())]
    while pending:
        current, index = pending.pop()
        yield current, index
        if isinstance(current, TupleShape):
            pending.extend((current[i], index + (i,)) for i in range(len(current) - 1, -1, -1))


def for_each_subshape(shape: AnyShape, visitor: Callable[[AnyShape, ShapeIndex], object]) -> None:
    """Call ``visitor(subshape, index)`` on every sub-shape, depth-first
    pre-order, the whole shape first (XLA's ``ForEachSubshape``).

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[42], (f32[101], pred[33]))")
    >>> xs.ShapeUtil.for_each_subshape(t, lambda s, i: print(i, xs.ShapeUtil.human_string(s)))
    () (f32[42], (f32[101], pred[33]))
    (0,) f32[42]
    (1,) (f32[101], pred[33])
    (1, 0) f32[101]
    (1, 1) pred[33]
    """
    for current, index in _walk(shape):
        visitor(current, index)


def get_leaf_shapes(shape: AnyShape) -> list[IndexedShape]:
    """The leaves (sub-shapes that are not tuples) with their indices, in
    ``for_each_subshape`` order (XLA's ``GetLeafShapes``); an empty tuple
    is no leaf.

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], ((), token[]))")
    >>> [(leaf.index, str(leaf.shape)) for leaf in xs.ShapeUtil.get_leaf_shapes(t)]
    [((0,), 'f32[2]{0}'), ((1, 1), 'token[]')]
    """
    return [
        IndexedShape(index, current)
        for current, index in _walk(shape)
        if not isinstance(current, TupleShape)
    ]


def get_leaf_count(shape: AnyShape) -> int:
    """The number of leaves: 1 for an array, token or opaque value (XLA's
    ``GetLeafCount``).

    Examples
    --------
    >>> xs.ShapeUtil.get_leaf_count(xs.ShapeUtil.parse_shape_string("(f32[2], ((), token[]))"))
    2
    """
    return sum(1 for current, _ in _walk(shape) if not isinstance(current, TupleShape))


def is_leaf_index(shape: AnyShape, index: Iterable[int]) -> bool:
    """Whether the sub-shape at ``index`` is not a tuple (XLA's
    ``IsLeafIndex``; an empty tuple is no leaf).

    Raises
    ------
    IndexError
        Where ``index`` is not valid, as :func:`get_subshape`.

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))")
    >>> xs.ShapeUtil.is_leaf_index(t, (1, 0)), xs.ShapeUtil.is_leaf_index(t, (1,))
    (True, False)
    """
    return not isinstance(get_subshape(shape, index), TupleShape)


def subshape_count(shape: AnyShape) -> int:
    """The number of sub-shapes, the whole shape and every tuple counted
    (XLA's ``SubshapeCount``).

    Examples
    --------
    >>> xs.ShapeUtil.subshape_count(xs.ShapeUtil.parse_shape_string("(f32[2], (s8[3], token[]))"))
    5
    """
    return sum(1 for _ in _walk(shape))


def flatten_tuple_shape(shape: AnyShape) -> list[Shape | NonArrayShape]:
    """The leaves, depth first: the shapes that are not tuples, or
    ``[shape]`` for a shape that is not one (XLA's ``FlattenTupleShape``).

    Examples
    --------
    >>> [str(s) for s in xs.ShapeUtil.flatten_tuple_shape("(f32[2], ((), token[]))")]
    ['f32[2]{0}', 'token[]']
    """
    return [leaf.shape for leaf in get_leaf_shapes(shape)]


def for_each_leaf_shape(shape: AnyShape, visitor: Callable[[Shape | NonArrayShape, ShapeIndex], object]) -> None:
    """Call ``visitor(leaf, index)`` on every sub-shape that is not a tuple,
    in :func:`for_each_subshape` order (XLA's ``ForEachLeafShape``).

    Examples
    --------
    >>> xs.ShapeUtil.for_each_leaf_shape("(f32[42], (f32[101], pred[33]))", lambda s, i: print(i, s))
    (0,) f32[42]{0}
    (1, 0) f32[101]{0}
    (1, 1) pred[33]{0}
    """
    for leaf in get_leaf_shapes(shape):
        visitor(leaf.shape, leaf.index)


def for_each_subshape_post_order(shape: AnyShape, visitor: Callable[[AnyShape, ShapeIndex], object]) -> None:
    """Call ``visitor(subshape, index)`` on every sub-shape, each tuple after
    its elements, the whole shape last (XLA's ``ForEachSubshapePostOrder``).

    Examples
    --------
    >>> xs.ShapeUtil.for_each_subshape_post_order("(f32[42], (f32[101]))", lambda s, i: print(i, s))
    (0,) f32[42]{0}
    (1, 0) f32[101]{0}
    (1,) (f32[101]{0})
    () (f32[42]{0}, (f32[101]{0}))
    """
    order: list[tuple[AnyShape, ShapeIndex]] = []
    pending: list[tuple[AnyShape, ShapeIndex]] = [(require_any_shape(shape), ())]
    while pending:
        current, index = pending.pop()
        order.append((current, index))
        if isinstance(current, TupleShape):
            pending.extend((current[i], index + (i,)) for i in range(len(current)))
    for current, index in reversed(order):
        visitor(current, index)
