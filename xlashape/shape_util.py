"""ShapeUtil: XLA's shape helpers, in snake_case."""

from __future__ import annotations

from collections.abc import Iterable

from . import shape_text
from .layout import Layout
from .primitive_type import PaddingValue, PrimitiveType
from .shape import Shape
from .shape import require_shape as _shape

__all__ = ["ShapeUtil"]


class ShapeUtil:
    """Static helpers on :class:`Shape`, named after XLA's ``ShapeUtil``."""

    # -- construction ----------------------------------------------------
    @staticmethod
    def make_shape(element_type: PrimitiveType | int | str, dimensions: Iterable[int]) -> Shape:
        """A shape with the default major-to-minor layout."""
        return Shape(element_type, dimensions)

    @staticmethod
    def make_shape_with_layout(
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        minor_to_major: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> Shape:
        return Shape(element_type, dimensions, Layout(minor_to_major, padded_dimensions, padding_value))

    @staticmethod
    def make_shape_with_monotonic_dim0_major_layout(
        element_type: PrimitiveType | int | str, dimensions: Iterable[int]
    ) -> Shape:
        """A shape whose layout is ``{n-1,...,0}``: dimension 0 most major."""
        return Shape(element_type, dimensions)

    # -- sizes -----------------------------------------------------------
    @staticmethod
    def elements_in(shape: Shape) -> int:
        """The number of array elements (padding not counted)."""
        return _shape(shape).element_count

    @staticmethod
    def byte_size_of(shape: Shape) -> int:
        """Bytes of the linear buffer, padding counted."""
        shape = _shape(shape)
        return shape.buffer_size * shape.element_type.byte_size

    @staticmethod
    def rank(shape: Shape) -> int:
        return _shape(shape).rank

    @staticmethod
    def true_rank(shape: Shape) -> int:
        """The number of dimensions whose size is not 1."""
        return _shape(shape).true_rank

    @staticmethod
    def get_dimension(shape: Shape, dimension_number: int) -> int:
        """A dimension's size; negative numbers count from the end."""
        return _shape(shape).dimension(dimension_number)

    # -- text ------------------------------------------------------------
    @staticmethod
    def human_string(shape: Shape) -> str:
        """``f32[2,3]``."""
        return shape_text.human_string(_shape(shape))

    @staticmethod
    def human_string_with_layout(shape: Shape) -> str:
        """``f32[2,3]{1,0}``."""
        return shape_text.human_string_with_layout(_shape(shape))

    @staticmethod
    def parse_shape_string(text: str) -> Shape:
        """Read ``f32[2,3]`` or ``f32[2,3]{1,0}`` back into a Shape."""
        return shape_text.parse_shape_string(text)

    # -- comparison ------------------------------------------------------
    @staticmethod
    def equal(lhs: Shape, rhs: Shape) -> bool:
        """Same element type, dimensions and layout (padding included)."""
        return _shape(lhs, "lhs") == _shape(rhs, "rhs")

    @staticmethod
    def compatible(lhs: Shape, rhs: Shape) -> bool:
        """Same element type and dimensions; layouts may differ."""
        lhs, rhs = _shape(lhs, "lhs"), _shape(rhs, "rhs")
        return lhs.element_type == rhs.element_type and lhs.dimensions == rhs.dimensions

    @staticmethod
    def same_dimensions(lhs: Shape, rhs: Shape) -> bool:
        """Same dimension sizes; type and layout may differ."""
        return _shape(lhs, "lhs").dimensions == _shape(rhs, "rhs").dimensions
