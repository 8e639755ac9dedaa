"""LayoutUtil: XLA's layout helpers, in snake_case."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .._validate import as_int, normalize_dimension
from ..errors import IndexOutOfBoundsError
from ..model._xla_names import XlaNames
from ..model.layout import Layout, SplitConfig, Tile, layout_from_fields
from ..model.primitive_type import PaddingValue
from ..shapes.shape import Shape, validate_layout
from ..shapes.shape_text import require_layout, require_shape
from ..shapes.tuple_shape import AnyShape, NonArrayShape, TupleShape
from . import byte_sizes, layout_queries, layouts_in_shapes, split_sizes

__all__ = ["LayoutUtil"]


def _check_position(layout: Layout, position: object) -> int:
    """``position`` checked against ``layout``'s rank (a Layout already)."""
    p = as_int(position, "position")
    rank = len(layout.minor_to_major)
    if not 0 <= p < rank:
        raise IndexOutOfBoundsError(f"position {p} is out of range for a rank-{rank} layout; expected 0 <= position < {rank}")
    return p


class LayoutUtil(metaclass=XlaNames):
    """Static helpers on :class:`Layout`, named after XLA's ``LayoutUtil``.

    Examples
    --------
    >>> layout = xs.LayoutUtil.make_layout([0, 1])
    >>> xs.LayoutUtil.human_string(layout), xs.LayoutUtil.is_monotonic_with_dim0_minor(layout)
    ('{0,1}', True)
    """

    @staticmethod
    def make_layout(
        minor_to_major: Iterable[int],
        *,
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
        tiles: Iterable[Tile | Iterable[int]] = (),
        tail_padding_alignment_in_elements: int = 1,
        element_size_in_bits: int = 0,
        memory_space: int = 0,
        split_configs: Iterable[SplitConfig | tuple[int, Iterable[int]]] = (),
        dynamic_shape_metadata_prefix_bytes: int = 0,
    ) -> Layout:
        """A Layout from its fields (XLA's ``MakeLayout``).

        Every field after ``minor_to_major`` is keyword-only: XLA's
        ``MakeLayout`` takes the sparse ``dim_level_types``, ``dim_unique``
        and ``dim_ordered`` next, which xlashape does not model, so no
        positional order could match it.

        Parameters
        ----------
        minor_to_major : iterable of int
        padded_dimensions, padding_value, tiles, tail_padding_alignment_in_elements, \
element_size_in_bits, memory_space, split_configs, dynamic_shape_metadata_prefix_bytes
            As for :class:`Layout`.

        Returns
        -------
        Layout

        Examples
        --------
        >>> xs.LayoutUtil.make_layout([1, 0], padded_dimensions=[4, 8])
        Layout(minor_to_major=(1, 0), padded_dimensions=(4, 8))
        >>> print(xs.LayoutUtil.make_layout([1, 0], tiles=[(8, 128)], tail_padding_alignment_in_elements=2))
        {1,0:T(8,128)L(2)}
        """
        return layout_from_fields(
            minor_to_major, padded_dimensions, padding_value, tiles, element_size_in_bits,
            memory_space, tail_padding_alignment_in_elements, split_configs,
            dynamic_shape_metadata_prefix_bytes,
        )

    @staticmethod
    def get_default_layout_for_rank(rank: int) -> Layout:
        """The major-to-minor layout ``{rank-1,...,0}``.

        Parameters
        ----------
        rank : int
            The number of dimensions, from 0 to ``Shape.MAX_RANK`` (64).

        Returns
        -------
        Layout

        Raises
        ------
        ValueError
            For a negative rank, or one past ``Shape.MAX_RANK`` (64).

        Examples
        --------
        >>> xs.LayoutUtil.get_default_layout_for_rank(3)
        Layout(minor_to_major=(2, 1, 0))
        """
        return layout_queries.make_descending_layout(rank)

    @staticmethod
    def get_default_layout_for_shape(shape: Shape | NonArrayShape | str) -> Layout:
        """The major-to-minor layout for ``shape``'s rank; the empty layout
        ``{}`` for a token or opaque shape, as in XLA (a tuple has none:
        TypeError).

        Parameters
        ----------
        shape : Shape or NonArrayShape

        Returns
        -------
        Layout

        Examples
        --------
        >>> xs.LayoutUtil.get_default_layout_for_shape(xs.Shape("f32", [4, 5]))
        Layout(minor_to_major=(1, 0))
        """
        if isinstance(shape, NonArrayShape):
            return Layout(())
        return LayoutUtil.get_default_layout_for_rank(require_shape(shape).rank)

    @staticmethod
    def validate_layout_for_shape(layout: Layout, shape: AnyShape | str) -> None:
        """Check that ``layout`` fits ``shape``, as XLA's
        ``ValidateLayoutForShape``: an array's dimensions and element type;
        a token or opaque shape takes only the empty ``{}``, and a tuple no
        single layout.

        Parameters
        ----------
        layout : Layout
        shape : Shape, TupleShape or NonArrayShape

        Raises
        ------
        ValueError
            If ``minor_to_major`` is not a permutation of the dimensions, a
            padded width is missing or narrower than its dimension, or any
            other check of :class:`Shape` fails; for a tuple; for a
            non-empty layout of a token or opaque shape.
        TypeError
            If ``layout`` is not a Layout.

        Examples
        --------
        >>> xs.LayoutUtil.validate_layout_for_shape(xs.Layout([0, 1]), xs.Shape("f32", [2, 3]))
        >>> xs.LayoutUtil.validate_layout_for_shape(xs.Layout([0]), xs.Shape("f32", [2, 3]))
        Traceback (most recent call last):
          ...
        ValueError: ...
        """
        if not isinstance(layout, Layout):
            raise TypeError(f"layout must be a Layout, got {type(layout).__name__}")
        if isinstance(shape, TupleShape):
            raise ValueError(f"a single Layout is not valid for tuple shapes: {shape}")
        if isinstance(shape, NonArrayShape):
            if layout.minor_to_major:
                raise ValueError(
                    f"shape of primitive type {shape.element_type.name} should not "
                    f"have a non-trivial layout, got {layout}"
                )
            return
        shape = require_shape(shape)
        validate_layout(layout, shape.dimensions, shape.element_type)

    @staticmethod
    def is_padded(shape: AnyShape | str) -> bool:
        """Whether some dimension is padded wider than its size; False for
        a tuple, token or opaque shape, as XLA's ``IsPadded``.

        Parameters
        ----------
        shape : Shape, TupleShape or NonArrayShape

        Returns
        -------
        bool

        Examples
        --------
        >>> xs.LayoutUtil.is_padded(xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5])))
        True
        >>> xs.LayoutUtil.is_padded(xs.Shape("f32", [2, 3], xs.Layout([0, 1], [2, 3])))
        False
        """
        if isinstance(shape, (TupleShape, NonArrayShape)):
            return False
        shape = require_shape(shape)
        return any(w > d for w, d in zip(shape.layout.padded_dimensions, shape.dimensions))

    @staticmethod
    def padded_dimensions(shape: Shape | str) -> tuple[int, ...]:
        """The layout's padded_dimensions field (empty when not padded).

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        tuple of int

        Examples
        --------
        >>> xs.LayoutUtil.padded_dimensions(xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5])))
        (3, 5)
        """
        return require_shape(shape).layout.padded_dimensions

    @staticmethod
    def padded_dimension(shape: Shape | str, index: int) -> int:
        """The width dimension ``index`` occupies in memory.

        Parameters
        ----------
        shape : Shape
        index : int
            A dimension number; negative numbers count from the end.

        Returns
        -------
        int
            The padded width, or the dimension's size when the layout is not
            padded.

        Examples
        --------
        >>> shape = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.LayoutUtil.padded_dimension(shape, 0), xs.LayoutUtil.padded_dimension(shape, -1)
        (3, 5)
        """
        shape = require_shape(shape)
        return shape.padded_dimensions[normalize_dimension(index, shape.rank)]

    @staticmethod
    def get_padding_value(shape: Shape | str) -> PaddingValue:
        """What fills ``shape``'s padding positions.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        PaddingValue

        Examples
        --------
        >>> xs.LayoutUtil.get_padding_value(xs.Shape("f32", [2], xs.Layout([0], [4], 1)))
        <PaddingValue.ZERO_PAD: 1>
        """
        return require_shape(shape).layout.padding_value

    @staticmethod
    def minor(layout: Layout | Shape | str, physical_dimension_number: int) -> int:
        """The dimension at a physical position counting from the most minor.

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.
        physical_dimension_number : int
            The position, 0 for the most minor.

        Returns
        -------
        int
            A dimension number.

        Raises
        ------
        IndexError
            For a position outside ``[0, rank)``.

        Examples
        --------
        >>> xs.LayoutUtil.minor(xs.Layout([2, 0, 1]), 0)
        2
        """
        layout = require_layout(layout)
        return layout.minor_to_major[_check_position(layout, physical_dimension_number)]

    @staticmethod
    def major(layout: Layout | Shape | str, physical_dimension_number: int) -> int:
        """The dimension at a physical position counting from the most major.

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.
        physical_dimension_number : int
            The position, 0 for the most major.

        Returns
        -------
        int
            A dimension number.

        Raises
        ------
        IndexError
            For a position outside ``[0, rank)``.

        Examples
        --------
        >>> xs.LayoutUtil.major(xs.Layout([2, 0, 1]), 0)
        1
        """
        layout = require_layout(layout)
        p = _check_position(layout, physical_dimension_number)
        return layout.minor_to_major[len(layout.minor_to_major) - 1 - p]

    @staticmethod
    def make_logical_to_physical(layout: Layout | Shape | str) -> tuple[int, ...]:
        """For each dimension number, its physical position, 0 being the
        most major (XLA's ``MakeLogicalToPhysical``).

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.

        Returns
        -------
        tuple of int

        Examples
        --------
        >>> xs.LayoutUtil.make_logical_to_physical(xs.Layout([2, 0, 1]))
        (1, 0, 2)
        """
        m2m = require_layout(layout).minor_to_major
        rank = len(m2m)
        result = [0] * rank
        for physical in range(rank):
            result[m2m[rank - 1 - physical]] = physical
        return tuple(result)

    @staticmethod
    def is_monotonic_with_dim0_major(layout: Layout | Shape | str) -> bool:
        """Whether minor_to_major is decreasing: dimension 0 is the most
        major, as in NumPy's C order.

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.

        Returns
        -------
        bool

        Examples
        --------
        >>> xs.LayoutUtil.is_monotonic_with_dim0_major(xs.Layout([2, 1, 0]))
        True
        """
        m2m = require_layout(layout).minor_to_major
        return all(a > b for a, b in itertools.pairwise(m2m))

    @staticmethod
    def is_monotonic_with_dim0_minor(layout: Layout | Shape | str) -> bool:
        """Whether minor_to_major is increasing: dimension 0 is the most
        minor, as in NumPy's Fortran order.

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.

        Returns
        -------
        bool

        Examples
        --------
        >>> xs.LayoutUtil.is_monotonic_with_dim0_minor(xs.Layout([2, 1, 0]))
        False
        """
        m2m = require_layout(layout).minor_to_major
        return all(a < b for a, b in itertools.pairwise(m2m))

    @staticmethod
    def human_string(layout: Layout | Shape | str) -> str:
        """The layout as XLA writes it, such as ``{1,0}``.

        Parameters
        ----------
        layout : Layout, Shape or str
            A layout, or a shape (or shape text) whose layout is meant.

        Returns
        -------
        str

        Examples
        --------
        >>> xs.LayoutUtil.human_string(xs.Layout([1, 0]))
        '{1,0}'
        """
        return str(require_layout(layout))

    @staticmethod
    def equal(lhs: Layout | Shape | str, rhs: Layout | Shape | str) -> bool:
        """Whether two layouts are equal in every field: order, padded
        widths, padding value and today's fields (``dynamic_shape_metadata_prefix_bytes``
        included, which XLA's ``Layout::Equal`` skips).

        Parameters
        ----------
        lhs, rhs : Layout, Shape or str
            Layouts, or shapes (or shape text) whose layouts are meant.

        Returns
        -------
        bool

        Examples
        --------
        >>> xs.LayoutUtil.equal(xs.Layout([1, 0]), xs.Layout([1, 0], [2, 2]))
        False
        """
        return require_layout(lhs, "lhs") == require_layout(rhs, "rhs")

    # -- XLA's layout algebra: thin bindings over the modules that hold it --
    # one layout (xlashape.xla.layout_queries)
    make_layout_from_major_to_minor = staticmethod(layout_queries.make_layout_from_major_to_minor)
    make_descending_layout = staticmethod(layout_queries.make_descending_layout)
    make_ascending_layout = staticmethod(layout_queries.make_ascending_layout)
    minor_to_major = staticmethod(layout_queries.minor_to_major)
    are_dimensions_consecutive = staticmethod(layout_queries.are_dimensions_consecutive)
    move_dim_to_major = staticmethod(layout_queries.layout_move_dim_to_major)
    linear_index = staticmethod(layout_queries.linear_index)
    # the layouts inside whole shapes (xlashape.xla.layouts_in_shapes)
    get_with_default_layout = staticmethod(layouts_in_shapes.get_with_default_layout)
    validate_layout_in_shape = staticmethod(layouts_in_shapes.validate_layout_in_shape)
    has_layout = staticmethod(layouts_in_shapes.has_layout)
    copy_layout_between_shapes = staticmethod(layouts_in_shapes.copy_layout_between_shapes)
    layouts_in_shapes_equal = staticmethod(layouts_in_shapes.layouts_in_shapes_equal)
    memory_space = staticmethod(layouts_in_shapes.memory_space)
    clear_tiles = staticmethod(layouts_in_shapes.clear_tiles)
    has_custom_element_size_in_bits = staticmethod(layouts_in_shapes.has_custom_element_size_in_bits)
    move_dim_to_minor = staticmethod(layout_queries.move_dim_to_minor)
    last_dim_is_minor_most = staticmethod(layout_queries.last_dim_is_minor_most)
    is_untiled_layout = staticmethod(layout_queries.is_untiled_layout)
    byte_strides_is_major_to_minor = staticmethod(byte_sizes.byte_strides_is_major_to_minor)
    max_split_size = staticmethod(split_sizes.max_split_size)
    max_elements_in_per_split = staticmethod(split_sizes.max_elements_in_per_split)
    get_split_config = staticmethod(split_sizes.get_split_config)
    get_default_layout_for_r2 = staticmethod(layout_queries.get_default_layout_for_r2)
    get_default_layout_for_r3 = staticmethod(layout_queries.get_default_layout_for_r3)
    get_default_layout_for_r4 = staticmethod(layout_queries.get_default_layout_for_r4)
    has_descending_layout = staticmethod(layout_queries.has_descending_layout)
    has_ascending_layout = staticmethod(layout_queries.has_ascending_layout)
    has_any_layout = staticmethod(layouts_in_shapes.has_any_layout)
    is_dense_array = staticmethod(layouts_in_shapes.is_dense_array)
