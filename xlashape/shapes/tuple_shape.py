"""Shapes that are not one array: tuples, tokens and opaque values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeAlias

from ..model._frozen import Frozen
from ..model.primitive_type import PrimitiveType
from .shape import Shape

__all__ = ["AnyShape", "MAX_TUPLE_DEPTH", "NonArrayShape", "TupleShape"]

# How deep tuples may nest: protobuf's default recursion limit (100), which
# bounds how deep a ShapeProto that XLA reads can nest. Past it, printing,
# comparing and hashing (which recurse) are refused at construction, as is
# parsing, with a ValueError that says so.
MAX_TUPLE_DEPTH = 100


class NonArrayShape(Frozen):
    """A TOKEN or OPAQUE shape (``token[]``, ``opaque[]``): no dimensions, no
    layout and no buffer of elements.

    >>> str(xs.NonArrayShape("token"))
    'token[]'
    """

    __slots__ = ("_element_type",)
    _element_type: PrimitiveType

    def __init__(self, element_type: PrimitiveType | int | str) -> None:
        etype = PrimitiveType.coerce(element_type)
        if etype not in (PrimitiveType.TOKEN, PrimitiveType.OPAQUE):
            raise ValueError(
                f"a NonArrayShape is a TOKEN or OPAQUE shape, got {etype.name}; use "
                "Shape for arrays and TupleShape for tuples"
            )
        object.__setattr__(self, "_element_type", etype)

    @property
    def element_type(self) -> PrimitiveType:
        """TOKEN or OPAQUE.

        Examples
        --------
        >>> xs.NonArrayShape("opaque").element_type
        <PrimitiveType.OPAQUE: 14>
        """
        return self._element_type

    def _key(self) -> tuple[object, ...]:
        return (self._element_type,)

    def __repr__(self) -> str:
        return f"NonArrayShape({self._element_type.text!r})"

    def __str__(self) -> str:
        return f"{self._element_type.text}[]"


class TupleShape(Frozen):
    """XLA's TUPLE shape: an ordered sequence of shapes (arrays, tokens,
    opaque values or tuples again), nesting at most ``MAX_TUPLE_DEPTH``
    (100) tuples deep: a deeper one is a ValueError.

    >>> t = xs.TupleShape([xs.Shape("f32", (2, 3)), xs.Shape("s32", ())])
    >>> str(t), len(t)
    ('(f32[2,3]{1,0}, s32[])', 2)
    """

    __slots__ = ("_tuple_shapes", "_depth")
    _tuple_shapes: tuple[AnyShape, ...]
    _depth: int

    def __init__(self, tuple_shapes: Iterable[AnyShape]) -> None:
        if not isinstance(tuple_shapes, Iterable):
            raise TypeError(f"tuple_shapes must be a sequence of shapes, got {type(tuple_shapes).__name__}")
        shapes = tuple(tuple_shapes)
        for i, s in enumerate(shapes):
            if not isinstance(s, (Shape, TupleShape, NonArrayShape)):
                raise TypeError(
                    f"tuple element {i} must be a Shape, TupleShape or NonArrayShape, "
                    f"got {type(s).__name__}"
                )
        depth = 1 + max((s._depth for s in shapes if isinstance(s, TupleShape)), default=0)
        if depth > MAX_TUPLE_DEPTH:
            raise ValueError(
                f"tuples nest at most {MAX_TUPLE_DEPTH} deep (protobuf's recursion limit "
                f"for a ShapeProto), but this one nests {depth} deep"
            )
        object.__setattr__(self, "_tuple_shapes", shapes)
        object.__setattr__(self, "_depth", depth)

    @property
    def element_type(self) -> PrimitiveType:
        """Always TUPLE.

        Examples
        --------
        >>> xs.TupleShape([]).element_type
        <PrimitiveType.TUPLE: 13>
        """
        return PrimitiveType.TUPLE

    @property
    def tuple_shapes(self) -> tuple[AnyShape, ...]:
        """The element shapes, in order.

        Examples
        --------
        >>> xs.TupleShape([xs.NonArrayShape("token")]).tuple_shapes
        (NonArrayShape('token'),)
        """
        return self._tuple_shapes

    def __len__(self) -> int:
        return len(self._tuple_shapes)

    def __getitem__(self, index: int) -> AnyShape:
        return self._tuple_shapes[index]

    def __iter__(self) -> Iterator[AnyShape]:
        return iter(self._tuple_shapes)

    def leaves(self) -> Iterator[Shape | NonArrayShape]:
        """The non-tuple shapes inside, depth first, in order.

        Examples
        --------
        >>> t = xs.ShapeUtil.parse_shape_string("(f32[1], (s8[2], token[]))")
        >>> [str(s) for s in t.leaves()]
        ['f32[1]{0}', 's8[2]{0}', 'token[]']
        """
        for s in self._tuple_shapes:
            if isinstance(s, TupleShape):
                yield from s.leaves()
            else:
                yield s

    def _key(self) -> tuple[object, ...]:
        return (self._tuple_shapes,)

    def __repr__(self) -> str:
        return f"TupleShape({list(self._tuple_shapes)!r})"

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self._tuple_shapes)) + ")"


AnyShape: TypeAlias = Shape | TupleShape | NonArrayShape
