"""Shapes as text, as XLA prints and parses them.

``f32[2,3]{1,0}``, tiles and layout attributes
(``{1,0:T(8,128)(2,1)L(2)E(4)S(1)SC(0:4)M(8)}``, ``*`` for a combined tile
dimension), bounded and unbounded dynamic sizes (``f32[<=16,3]``,
``f32[?,784]``), tuples (``(f32[2,3]{1,0}, s32[])``), ``token[]`` and
``opaque[]``; and xlashape's own ``PAD(3,5)`` or ``PAD(3,5:zero)`` for the
2017 padded widths and padding value, which XLA's text lacks (XLA refuses
it, rather than read a padded buffer as an unpadded one).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from typing import NoReturn

from .._validate import INT64_MAX, MAX_RANK, MAX_TILES
from ..model.layout import (
    PADDING_ATTRIBUTE,
    PADDING_VALUES_BY_NAME,
    Layout,
    SplitConfig,
    Tile,
    too_many_tiles,
)
from ..model.primitive_type import PaddingValue, PrimitiveType
from .shape import UNBOUNDED_SIZE, Shape
from .tuple_shape import MAX_TUPLE_DEPTH, AnyShape, NonArrayShape, TupleShape

__all__ = [
    "human_string",
    "human_string_with_layout",
    "parse_array_shape_string",
    "parse_shape_string",
    "require_layout",
    "require_shape",
]

# The layout attributes of XLA's sparse layouts, which xlashape does not
# model, by letter.
_SPARSE = {
    "D": "dimension level types",
    "#": "index primitive type",
    "*": "pointer primitive type",
    "P": "physical shape",
}
# Attributes of one integer in parentheses, by letter: the Layout field.
_INTEGER_ATTRIBUTES = {
    "L": "tail_padding_alignment_in_elements",
    "E": "element_size_in_bits",
    "S": "memory_space",
    "M": "dynamic_shape_metadata_prefix_bytes",
}
# '+' and '~' occur only in sparse dimension level types (D(C+~)): read as
# tokens so that the D attribute is refused with its reason.
# Any other character is read as an empty token (the group does not take
# it), an unexpected character: one findall reads the whole text.
_TOKEN = re.compile(r"\s*(?:(<=|[A-Za-z][A-Za-z0-9]*|\d+|[#*?()\[\]{},:+~])|\S)", re.ASCII)


def human_string(shape: AnyShape) -> str:
    """``f32[2,3]``: the element type and dimensions (``<=`` marks a bound);
    tuples as ``(f32[2,3], s32[])``."""
    if isinstance(shape, TupleShape):
        return "(" + ", ".join(human_string(s) for s in shape) + ")"
    if isinstance(shape, NonArrayShape):
        return str(shape)
    return shape.dimensions_text()


def human_string_with_layout(shape: AnyShape) -> str:
    """``f32[2,3]{1,0}``: with the layout and its attributes as XLA prints
    them, and the 2017 padding in xlashape's ``PAD(...)``; a scalar's layout
    only when it is more than ``{}``."""
    return str(shape)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        # Tokens only: a token's position is found again for a message.
        self.tokens: list[str] = _TOKEN.findall(text.rstrip())
        self.k = 0
        self.depth = 0  # tuples open at the current token
        if "" in self.tokens:
            self.k = self.tokens.index("")
            position = self.position(self.k)
            self.fail(f"unexpected character {text[position]!r} at position {position}")

    def fail(self, reason: str) -> NoReturn:
        raise ValueError(f"cannot parse shape {self.text!r}: {reason}")

    def position(self, k: int) -> int:
        """Where token ``k`` starts in the text."""
        match = next(itertools.islice(_TOKEN.finditer(self.text), k, None))
        return match.start(1) if match[1] else match.end() - 1

    def peek(self) -> str | None:
        return self.tokens[self.k] if self.k < len(self.tokens) else None

    def take(self, expected: str | None = None, what: str = "") -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            where = "the end" if token is None else f"{token!r} at position {self.position(self.k)}"
            self.fail(f"expected {what or repr(expected)}, found {where}")
        self.k += 1
        return token

    def number(self, what: str) -> int:
        token = self.take(what=what)
        if not token.isdigit():
            self.fail(f"expected {what}, found {token!r} at position {self.position(self.k - 1)}")
        try:
            value = int(token)
        except ValueError as e:  # more digits than int() converts
            self.fail(f"{what}: {e}")
        if value > INT64_MAX:  # XLA's lexer reads every integer as an int64
            self.fail(
                f"{what} {token} at position {self.position(self.k - 1)} is more than "
                f"the int64 maximum {INT64_MAX}, and XLA reads every integer as an int64"
            )
        return value

    def shape(self) -> AnyShape:
        if self.peek() == "(":
            if self.depth == MAX_TUPLE_DEPTH:
                self.fail(
                    f"tuples nest at most {MAX_TUPLE_DEPTH} deep (protobuf's recursion limit "
                    f"for a ShapeProto); '(' at position {self.position(self.k)} opens one more"
                )
            self.take("(")
            self.depth += 1
            elements: list[AnyShape] = []
            while self.peek() != ")":
                if elements:
                    self.take(",", "',' or ')' in a tuple")
                elements.append(self.shape())
            self.take(")")
            self.depth -= 1
            return TupleShape(elements)
        name = self.take(what="an element type such as f32")
        if name != name.lower():  # XLA's parser knows lower-case names only
            self.fail(
                f"element type {name!r} is not lower case; XLA's text writes "
                f"{name.lower()!r} (upper case, as in XLA's C++ enum names, is not read)"
            )
        try:
            element_type = PrimitiveType.from_text(name)
        except ValueError as e:
            self.fail(str(e))
        dims, dynamic = self.dimensions()
        if element_type in (PrimitiveType.TOKEN, PrimitiveType.OPAQUE):
            if dims:
                self.fail(f"{name} shapes have no dimensions")
            return NonArrayShape(element_type)
        if element_type == PrimitiveType.TUPLE:
            self.fail("a tuple is written (shape, shape, ...)")
        layout = self.layout() if self.peek() == "{" else None
        try:
            shape = Shape(element_type, dims, layout, dynamic)
        except (ValueError, OverflowError) as e:
            raise ValueError(f"invalid shape {self.text!r}: {e}") from None
        byte_size = element_type.byte_size
        assert byte_size is not None  # array element types only
        # XLA's ValidateShapeSize: the static extent (bounds counted, an
        # unbounded size, stored negative, left out) times the element's bytes.
        extent = math.prod(size for size in shape.dimensions if size >= 0)
        if extent * byte_size > INT64_MAX:
            self.fail(
                f"{shape.dimensions_text()} holds {extent} elements of {byte_size} "
                "bytes, whose size overflows int64 (XLA refuses it: \"size may "
                "overflow int64_t\")"
            )
        return shape

    def dimensions(self) -> tuple[list[int], list[bool]]:
        self.take("[", "'['")
        dims: list[int] = []
        dynamic: list[bool] = []
        while self.peek() != "]":
            if dims:
                self.take(",", "',' or ']' between dimensions")
            bounded = self.peek() == "<="
            if bounded:
                self.take("<=")
            if not bounded and self.peek() == "?":
                self.take("?")
                dims.append(UNBOUNDED_SIZE)
                dynamic.append(True)
                continue
            dims.append(self.number("a dimension size"))
            dynamic.append(bounded)
        self.take("]")
        return dims, dynamic

    def layout(self) -> Layout:
        self.take("{")
        m2m = self.integers("a dimension number in the layout", "minor_to_major entries", ("}", ":"))
        tiles: list[Tile] = []
        splits: list[SplitConfig] = []
        fields: dict[str, int] = {}
        padded: list[int] = []
        padding = PaddingValue.INVALID_PAD
        seen: set[str] = set()
        if self.peek() == ":":
            self.take(":")
            while self.peek() != "}":
                letter = self.take(what="a layout attribute such as T(8,128)")
                if letter in seen:
                    self.fail(f"layout attribute {letter} appears twice")
                seen.add(letter)
                if letter == "T":
                    while self.peek() == "(":
                        if len(tiles) == MAX_TILES:  # refused before reading more
                            self.fail(too_many_tiles())
                        tiles.append(self.tile())
                    if not tiles:
                        self.fail("T must be followed by at least one tile, as in T(8,128)")
                elif letter in _INTEGER_ATTRIBUTES:
                    self.take("(")
                    fields[_INTEGER_ATTRIBUTES[letter]] = self.number("an integer")
                    self.take(")")
                elif letter == "SC":
                    while self.peek() == "(":
                        splits.append(self.split_config())
                    if not splits:
                        self.fail("SC must be followed by at least one split, as in SC(1:200)")
                elif letter == PADDING_ATTRIBUTE:
                    padded, padding = self.padding()
                elif letter in _SPARSE:
                    self.fail(
                        f"sparse layouts are not modelled by xlashape: layout attribute "
                        f"{letter}(...) ({_SPARSE[letter]}) belongs to a sparse layout"
                    )
                else:
                    self.fail(f"unknown layout attribute {letter!r}")
        self.take("}")
        try:
            return Layout(
                m2m, padded, padding, tiles=tiles, split_configs=splits, **fields
            )
        except ValueError as e:
            raise ValueError(f"invalid shape {self.text!r}: {e}") from None

    def integers(self, what: str, plural: str, closing: tuple[str, ...]) -> list[int]:
        """Integers separated by ',' up to (not taking) one of ``closing``."""
        values: list[int] = []
        while self.peek() not in closing:
            if values:
                self.take(",", f"',' between {plural}")
            values.append(self.number(what))
        return values

    def split_config(self) -> SplitConfig:
        self.take("(")
        dimension = self.number("a split dimension")
        self.take(":", "':' after the split dimension, as in (1:200)")
        indices = self.integers("a split index", "split indices", (")",))
        self.take(")")
        try:
            return SplitConfig(dimension, indices)
        except ValueError as e:
            raise ValueError(f"invalid shape {self.text!r}: {e}") from None

    def padding(self) -> tuple[list[int], PaddingValue]:
        """xlashape's ``PAD(3,5)`` or ``PAD(3,5:zero)``."""
        self.take("(")
        widths = self.integers("a padded width", "padded widths", (")", ":"))
        value = PaddingValue.INVALID_PAD
        if self.peek() == ":":
            self.take(":")
            name = self.take(what="a padding value")
            if name not in PADDING_VALUES_BY_NAME:
                self.fail(
                    f"unknown padding value {name!r}; expected one of "
                    f"{', '.join(PADDING_VALUES_BY_NAME)}"
                )
            value = PADDING_VALUES_BY_NAME[name]
        self.take(")")
        return widths, value

    def tile(self) -> Tile:
        self.take("(")
        sizes: list[int] = []
        while self.peek() != ")":
            if len(sizes) == MAX_RANK:  # refused before reading more
                self.fail(f"a tile has at most Shape.MAX_RANK = {MAX_RANK} sizes, got more")
            if sizes:
                self.take(",", "',' between tile sizes")
            if self.peek() == "*":
                self.take("*")
                sizes.append(Tile.COMBINE)
            else:
                sizes.append(self.number("a tile size or *"))
        self.take(")")
        try:
            return Tile(sizes)
        except ValueError as e:
            raise ValueError(f"invalid shape {self.text!r}: {e}") from None


def parse_shape_string(text: str) -> AnyShape:
    """Read a shape as XLA writes it: ``"f32[2,3]{0,1}"``,
    ``"bf16[128,256]{1,0:T(8,128)(2,1)}"``, ``"s4[1024]{0:E(4)}"``,
    ``"f32[<=16,3]"``, ``"f32[?,784]"``, ``"(f32[2,3]{1,0}, s32[])"``,
    ``"token[]"``, ``"f32[1,2,3,4]{3,2,1,0:L(100)}"``,
    ``"pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}"``, and xlashape's
    ``"f32[2,3]{0,1:PAD(3,5)}"``.

    Whitespace between tokens is allowed, as XLA allows it. Raises
    ValueError quoting the text for anything else, naming what was
    expected: upper-case element types (``F32``, which XLA's parser does
    not read either), and sparse layouts (``D(...)``, ``#(...)``,
    ``*(...)``, ``P(...)``), which xlashape does not model.
    """
    if not isinstance(text, str):
        raise TypeError(f"shape string must be a str, got {type(text).__name__}")
    parser = _Parser(text)
    if parser.peek() is None:
        parser.fail(
            "expected the form TYPE[D0,D1,...] or TYPE[D0,D1,...]{M0,M1,...}, "
            "such as f32[2,3]{1,0}"
        )
    shape = parser.shape()
    if parser.peek() is not None:
        parser.fail(f"unexpected {parser.peek()!r} after the shape")
    return shape


def parse_array_shape_string(text: str) -> Shape:
    """:func:`parse_shape_string` for where only an array will do: a tuple,
    token or opaque shape is a ValueError naming what it is."""
    shape = parse_shape_string(text)
    if not isinstance(shape, Shape):
        kind = shape.element_type.name.lower()
        article = "an" if kind[0] in "aeiou" else "a"
        raise ValueError(f"shape {text!r} is {article} {kind} shape, not an array shape")
    return shape


def require_shape(value: object, name: str = "shape") -> Shape:
    """``value`` itself if it is a Shape, the Shape its text describes if it
    is a str (``"f32[2,3]{0,1}"``, read once and kept); TypeError otherwise.
    The one place where a public function's Shape argument is read."""
    if isinstance(value, Shape):
        return value
    if isinstance(value, str):
        return _shape_of_text(value)
    raise TypeError(
        f"{name} must be a Shape, got {type(value).__name__}; shape text such as "
        "'f32[2,3]{1,0}' is taken too"
    )


def require_layout(value: object, name: str = "layout") -> Layout:
    """``value`` itself if it is a Layout, else the layout of the Shape
    :func:`require_shape` reads it as (a Shape or shape text); TypeError
    naming what was expected otherwise. The one place where a public
    function's Layout argument is read."""
    if isinstance(value, Layout):
        return value
    if isinstance(value, (Shape, str)):
        return require_shape(value, name).layout
    raise TypeError(
        f"{name} must be a Layout, a Shape or shape text such as 'f32[2,3]{{1,0}}', "
        f"got {type(value).__name__}"
    )


@functools.lru_cache(maxsize=256)
def _shape_of_text(text: str) -> Shape:
    """The array Shape of ``text`` (Shapes are immutable, so one is shared
    by every call that names it; errors are raised, never kept)."""
    return parse_array_shape_string(text)
