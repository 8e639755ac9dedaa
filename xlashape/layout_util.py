"""LayoutUtil: XLA's layout helpers, in snake_case."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ._validate import as_int, normalize_dimension
from .layout import Layout
from .primitive_type import PaddingValue
from .shape import Shape, require_shape, validate_layout

__all__ = ["LayoutUtil"]


def _check_position(layout: Layout, position: object) -> int:
    p = as_int(position, "position")
    rank = len(layout.minor_to_major)
    if not 0 <= p < rank:
        raise IndexError(f"position {p} is out of range for a rank-{rank} layout; expected 0 <= position < {rank}")
    return p


class LayoutUtil:
    """Static helpers on :class:`Layout`, named after XLA's ``LayoutUtil``."""

    @staticmethod
    def make_layout(
        minor_to_major: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> Layout:
        """A Layout from its three fields (see :class:`Layout`)."""
        return Layout(minor_to_major, padded_dimensions, padding_value)

    @staticmethod
    def get_default_layout_for_rank(rank: int) -> Layout:
        """The major-to-minor layout ``{rank-1,...,0}``."""
        r = as_int(rank, "rank")
        if r < 0:
            raise ValueError(f"rank must be >= 0, got {r}")
        return Layout(range(r - 1, -1, -1))

    @staticmethod
    def get_default_layout_for_shape(shape: Shape) -> Layout:
        """The major-to-minor layout for ``shape``'s rank."""
        return LayoutUtil.get_default_layout_for_rank(require_shape(shape).rank)

    @staticmethod
    def validate_layout_for_shape(layout: Layout, shape: Shape) -> None:
        """Raise ValueError unless ``layout`` fits ``shape``'s dimensions."""
        if not isinstance(layout, Layout):
            raise TypeError(f"layout must be a Layout, got {type(layout).__name__}")
        validate_layout(layout, require_shape(shape).dimensions)

    @staticmethod
    def is_padded(shape: Shape) -> bool:
        """Whether some dimension is padded wider than its size."""
        shape = require_shape(shape)
        return any(w > d for w, d in zip(shape.layout.padded_dimensions, shape.dimensions))

    @staticmethod
    def padded_dimensions(shape: Shape) -> tuple[int, ...]:
        """The layout's padded_dimensions field (empty when not padded)."""
        return require_shape(shape).layout.padded_dimensions

    @staticmethod
    def padded_dimension(shape: Shape, index: int) -> int:
        """The width dimension ``index`` occupies in memory (its size when the
        layout is not padded); negative numbers count from the end."""
        shape = require_shape(shape)
        return shape.padded_dimensions[normalize_dimension(index, shape.rank)]

    @staticmethod
    def get_padding_value(shape: Shape) -> PaddingValue:
        """What fills ``shape``'s padding positions."""
        return require_shape(shape).layout.padding_value

    @staticmethod
    def minor(layout: Layout, physical_dimension_number: int) -> int:
        """The dimension at position ``p`` counting from the most minor."""
        return layout.minor_to_major[_check_position(layout, physical_dimension_number)]

    @staticmethod
    def major(layout: Layout, physical_dimension_number: int) -> int:
        """The dimension at position ``p`` counting from the most major."""
        p = _check_position(layout, physical_dimension_number)
        return layout.minor_to_major[len(layout.minor_to_major) - 1 - p]

    @staticmethod
    def make_logical_to_physical(layout: Layout) -> tuple[int, ...]:
        """For each dimension number, its physical position, 0 being the
        most major (XLA's ``MakeLogicalToPhysical``)."""
        m2m = layout.minor_to_major
        rank = len(m2m)
        result = [0] * rank
        for physical in range(rank):
            result[m2m[rank - 1 - physical]] = physical
        return tuple(result)

    @staticmethod
    def is_monotonic_with_dim0_major(layout: Layout) -> bool:
        """minor_to_major is decreasing: dimension 0 is the most major."""
        m2m = layout.minor_to_major
        return all(a > b for a, b in itertools.pairwise(m2m))

    @staticmethod
    def is_monotonic_with_dim0_minor(layout: Layout) -> bool:
        """minor_to_major is increasing: dimension 0 is the most minor."""
        m2m = layout.minor_to_major
        return all(a < b for a, b in itertools.pairwise(m2m))

    @staticmethod
    def human_string(layout: Layout) -> str:
        """``{1,0}``: the minor_to_major field."""
        return str(layout)

    @staticmethod
    def equal(lhs: Layout, rhs: Layout) -> bool:
        """Equal in every field: order, padded widths and padding value."""
        return lhs == rhs
