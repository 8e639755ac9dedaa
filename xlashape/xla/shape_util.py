"""ShapeUtil: XLA's shape helpers, in snake_case."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from .. import _validate
from .._validate import as_int
from ..errors import IndexOutOfBoundsError
from ..model import tiling
from ..model._xla_names import XlaNames
from ..model.layout import Layout, SplitConfig, Tile
from ..model.primitive_type import PaddingValue, PrimitiveType
from ..shapes import (
    array_predicates,
    dynamic_shapes,
    element_type_predicates,
    shape_equality,
    shape_text,
    shape_variants,
    subshapes,
    tuple_helpers,
)
from ..shapes.shape import Shape
from ..shapes.shape_equality import require_any_shape as _any
from ..shapes.shape_text import require_shape as _shape
from ..shapes.tuple_shape import AnyShape, NonArrayShape, TupleShape
from . import (
    bitcast,
    bitcast_decomposition,
    byte_sizes,
    dimension_surgery,
    layouts_in_shapes,
    physical_order,
    reshape_dimensions,
    split_sizes,
)

__all__ = ["ShapeUtil"]


def _array_size_in_elements(shape: Shape) -> int:
    """The elements XLA's ``ArraySize`` allocates: ``buffer_size``, except
    that a tiled layout tiles each split dimension's largest piece and rounds
    the count up to its tail padding alignment."""
    layout = shape.layout
    count = shape.buffer_size
    if not layout.tiles:
        return count
    if layout.split_configs:
        split_sizes.check_split_configs(shape, "byte_size_of")
        sizes = tuple(split_sizes.max_split_size(shape, d) for d in range(shape.rank))
        count = math.prod(tiling.tiled_extents(sizes, layout.minor_to_major, layout.tiles))
    alignment = layout.tail_padding_alignment_in_elements
    return -(-count // alignment) * alignment


def _tuple(shape: object) -> TupleShape:
    if not isinstance(shape, TupleShape):
        raise TypeError(f"shape must be a TupleShape, got {type(shape).__name__}: {shape}")
    return shape


def _compatible(lhs: AnyShape, rhs: AnyShape) -> bool:
    """XLA's ``Compatible``: arrays of one type and dimensions, tuples
    element by element, tokens and opaque values by kind."""
    if isinstance(lhs, TupleShape) or isinstance(rhs, TupleShape):
        return (
            isinstance(lhs, TupleShape)
            and isinstance(rhs, TupleShape)
            and len(lhs) == len(rhs)
            and all(_compatible(a, b) for a, b in zip(lhs, rhs))
        )
    if isinstance(lhs, Shape) and isinstance(rhs, Shape):
        return lhs.element_type == rhs.element_type and lhs.dimensions == rhs.dimensions
    return lhs.element_type == rhs.element_type


class ShapeUtil(metaclass=XlaNames):
    """Static helpers on :class:`Shape`, named after XLA's ``ShapeUtil``.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")
    >>> xs.ShapeUtil.byte_size_of(shape), xs.ShapeUtil.human_string(shape)
    (24, 'f32[2,3]')
    """

    # -- construction ----------------------------------------------------
    @staticmethod
    def make_shape(
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        dynamic_dimensions: Iterable[bool] = (),
    ) -> Shape:
        """A shape with the default major-to-minor layout; ``dynamic_dimensions``
        marks bounded dynamic sizes, as in XLA's ``MakeShape``.

        Parameters
        ----------
        element_type : PrimitiveType, int or str
        dimensions : iterable of int
        dynamic_dimensions : iterable of bool, optional
            One flag per dimension (default: none dynamic).

        Returns
        -------
        Shape

        Examples
        --------
        >>> xs.ShapeUtil.make_shape("s8", [4, 5])
        Shape('s8', (4, 5), Layout(minor_to_major=(1, 0)))
        >>> print(xs.ShapeUtil.make_shape("f32", [16, 3], [True, False]))
        f32[<=16,3]{1,0}
        """
        return Shape(element_type, dimensions, None, dynamic_dimensions)

    @staticmethod
    def make_shape_with_dense_layout(
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        minor_to_major: Iterable[int],
        tiles: Iterable[Tile | Iterable[int]] = (),
        tail_padding_alignment_in_elements: int = 1,
        element_size_in_bits: int = 0,
        memory_space: int = 0,
        split_configs: Iterable[SplitConfig | tuple[int, Iterable[int]]] = (),
    ) -> Shape:
        """A shape with today's dense layout fields, its parameters in the
        order of XLA's ``MakeShapeWithDenseLayout``, so that a call ported
        as written means what it means in XLA.

        As there, an ``element_size_in_bits`` equal to the element type's
        own size is stored as 0.

        Parameters
        ----------
        element_type : PrimitiveType, int or str
        dimensions, minor_to_major : iterable of int
        tiles : iterable of Tile or of sequences of int, optional
        tail_padding_alignment_in_elements : int, optional
            ``L(n)``; 1 (the default) for none.
        element_size_in_bits : int, optional
            ``E(n)``; 0 (the default) for the type's own size.
        memory_space : int, optional
            ``S(n)``.
        split_configs : iterable of SplitConfig or (dimension, indices), optional
            ``SC(...)``.

        Returns
        -------
        Shape

        Examples
        --------
        >>> print(xs.ShapeUtil.make_shape_with_dense_layout("s4", [123, 456], [1, 0], [(2, 128)], 1, 4))
        s4[123,456]{1,0:T(2,128)E(4)}
        """
        etype = PrimitiveType.coerce(element_type)
        if etype.is_array and element_size_in_bits == 8 * (etype.byte_size or 0):
            element_size_in_bits = 0
        layout = Layout(
            minor_to_major,
            tiles=tiles,
            element_size_in_bits=element_size_in_bits,
            memory_space=memory_space,
            tail_padding_alignment_in_elements=tail_padding_alignment_in_elements,
            split_configs=split_configs,
        )
        return Shape(etype, dimensions, layout)

    @staticmethod
    def make_tuple_shape(shapes: Iterable[AnyShape]) -> TupleShape:
        """A tuple of the given shapes.

        Examples
        --------
        >>> print(xs.ShapeUtil.make_tuple_shape([xs.Shape("f32", [2, 3]), xs.Shape("s32", [])]))
        (f32[2,3]{1,0}, s32[])
        """
        return TupleShape(shapes)

    @staticmethod
    def make_token_shape() -> NonArrayShape:
        """``token[]``.

        Examples
        --------
        >>> print(xs.ShapeUtil.make_token_shape())
        token[]
        """
        return NonArrayShape(PrimitiveType.TOKEN)

    @staticmethod
    def make_opaque_shape() -> NonArrayShape:
        """``opaque[]``.

        Examples
        --------
        >>> print(xs.ShapeUtil.make_opaque_shape())
        opaque[]
        """
        return NonArrayShape(PrimitiveType.OPAQUE)

    @staticmethod
    def is_tuple(shape: AnyShape) -> bool:
        """Whether ``shape`` is a tuple.

        Examples
        --------
        >>> xs.ShapeUtil.is_tuple(xs.ShapeUtil.parse_shape_string("(f32[2], s32[])"))
        True
        """
        return isinstance(shape, TupleShape)

    @staticmethod
    def is_array(shape: AnyShape) -> bool:
        """Whether ``shape`` is an array (not a tuple, token or opaque value).

        Examples
        --------
        >>> xs.ShapeUtil.is_array(xs.ShapeUtil.make_token_shape())
        False
        """
        return isinstance(shape, Shape)

    @staticmethod
    def tuple_element_count(shape: TupleShape) -> int:
        """The number of elements of a tuple shape.

        Examples
        --------
        >>> xs.ShapeUtil.tuple_element_count(xs.ShapeUtil.parse_shape_string("(f32[2], s32[])"))
        2
        """
        return len(_tuple(shape))

    @staticmethod
    def get_tuple_element_shape(shape: TupleShape, index: int) -> AnyShape:
        """Element ``index`` of a tuple shape (XLA's ``GetTupleElementShape``).

        Examples
        --------
        >>> t = xs.ShapeUtil.parse_shape_string("(f32[2], s32[])")
        >>> print(xs.ShapeUtil.get_tuple_element_shape(t, 1))
        s32[]
        """
        elements = _tuple(shape).tuple_shapes
        i = as_int(index, "index")
        if not 0 <= i < len(elements):
            raise IndexOutOfBoundsError(
                f"tuple element index {i} is out of range for a tuple of "
                f"{len(elements)} elements; expected 0 <= index < {len(elements)}"
            )
        return elements[i]

    @staticmethod
    def make_shape_with_layout(
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        minor_to_major: Iterable[int],
        *,
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> Shape:
        """A shape with the given ``minor_to_major`` and, optionally, padding.

        XLA's ``MakeShapeWithLayout`` (2017) took nothing after
        ``minor_to_major``, and today's ``MakeShapeWithDenseLayout`` takes
        tiles there: the padding fields are keyword-only, so that no ported
        call reads tiles as padded widths.

        Parameters
        ----------
        element_type : PrimitiveType, int or str
        dimensions : iterable of int
        minor_to_major, padded_dimensions, padding_value
            The layout's fields, as for :class:`Layout`.

        Returns
        -------
        Shape

        Examples
        --------
        >>> xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1], padded_dimensions=[3, 5])
        Shape('f32', (2, 3), Layout(minor_to_major=(0, 1), padded_dimensions=(3, 5)))
        """
        return Shape(element_type, dimensions, Layout(minor_to_major, padded_dimensions, padding_value))

    @staticmethod
    def make_shape_with_monotonic_dim0_major_layout(
        element_type: PrimitiveType | int | str, dimensions: Iterable[int]
    ) -> Shape:
        """A shape whose layout is ``{n-1,...,0}``: dimension 0 most major.

        Parameters
        ----------
        element_type : PrimitiveType, int or str
        dimensions : iterable of int

        Returns
        -------
        Shape

        Examples
        --------
        >>> xs.ShapeUtil.make_shape_with_monotonic_dim0_major_layout("f64", [2, 3, 4]).layout
        Layout(minor_to_major=(2, 1, 0))
        """
        return Shape(element_type, dimensions)

    @staticmethod
    def from_array(array: np.ndarray) -> Shape:
        """The shape of a NumPy array as it lies in memory; see
        :meth:`Shape.from_array`.

        Parameters
        ----------
        array : numpy.ndarray

        Returns
        -------
        Shape

        Examples
        --------
        >>> xs.ShapeUtil.from_array(np.zeros((3, 4), dtype=np.uint8).T)
        Shape('u8', (4, 3), Layout(minor_to_major=(0, 1)))
        """
        return Shape.from_array(array)

    # -- sizes -----------------------------------------------------------
    @staticmethod
    def elements_in(shape: Shape | str) -> int:
        """The number of array elements (padding not counted). For the
        buffer's element count, padding included, see
        :attr:`Shape.buffer_size`; for its bytes, :meth:`byte_size_of`.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        int

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.elements_in(padded)
        6
        """
        return _shape(shape).element_count

    @staticmethod
    def byte_size_of(shape: AnyShape) -> int:
        """Bytes of the linear buffer, padding (2017 widths or whole tiles)
        counted, sub-byte elements packed as ``element_size_in_bits`` says
        (rounded up to whole bytes): XLA's ``ShapeUtil::ArraySize``.

        As there, a tiled layout's split configs (``SC``) size each split
        dimension by its largest piece (``LayoutUtil::MaxSplitSize``), and
        its tail padding alignment (``L(n)``) rounds the element count up to
        a multiple of n; an untiled layout's ``L`` and ``SC`` change nothing
        (XLA's ``ByteSizeOfElements``), nor does ``M(n)`` any size.

        A tuple gives the sum over its leaves (tokens and opaque values take
        none). XLA's own ``ByteSizeOf`` of a tuple counts its table of
        pointers instead (``pointer_size`` times the element count).

        Parameters
        ----------
        shape : Shape, TupleShape or NonArrayShape

        Returns
        -------
        int

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.byte_size_of(padded)
        60
        >>> xs.ShapeUtil.byte_size_of(xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}"))
        96
        >>> xs.ShapeUtil.byte_size_of(xs.ShapeUtil.parse_shape_string("s4[3]{0:E(4)}"))
        2
        >>> xs.ShapeUtil.byte_size_of(xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)L(7)}"))
        112
        """
        if isinstance(shape, TupleShape):
            return sum(ShapeUtil.byte_size_of(leaf) for leaf in shape.leaves())
        if isinstance(shape, NonArrayShape):
            return 0
        shape = _shape(shape)
        count = _array_size_in_elements(shape)
        bits = shape.layout.element_size_in_bits
        if bits:
            return -(-count * bits // 8)
        size = shape.element_type.byte_size
        assert size is not None  # a Shape holds array element types only
        return count * size

    @staticmethod
    def rank(shape: Shape | str) -> int:
        """The number of dimensions.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        int

        Examples
        --------
        >>> xs.ShapeUtil.rank(xs.Shape("f32", [2, 1, 3]))
        3
        """
        return _shape(shape).rank

    @staticmethod
    def true_rank(shape: Shape | str) -> int:
        """The number of dimensions whose size is not 1 (XLA's 2017
        ``TrueRank``; :meth:`true_num_dimensions` is today's name).

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        int

        Examples
        --------
        >>> xs.ShapeUtil.true_rank(xs.Shape("f32", [2, 1, 3]))
        2
        >>> xs.ShapeUtil.true_num_dimensions(xs.Shape("f32", [2, 1, 3]))
        2
        """
        return _shape(shape).true_rank

    #: :meth:`true_rank` under today's XLA name (``TrueNumDimensions``).
    true_num_dimensions = true_rank

    @staticmethod
    def get_dimension_number(shape: Shape | str, dimension_number: int) -> int:
        """A dimension's number, a negative one counted from the end (XLA's
        ``GetDimensionNumber``).

        Raises
        ------
        IndexError
            For a dimension number outside the rank.

        Examples
        --------
        >>> xs.ShapeUtil.get_dimension_number("f32[2,1,3]", -1)
        2
        """
        shape = _shape(shape)
        return _validate.normalize_dimension(dimension_number, shape.rank)

    @staticmethod
    def create_dimension_vector_from_shape(shape: AnyShape) -> list[int]:
        """An array's sizes as a list; empty for a tuple, token or opaque
        value (XLA's ``CreateDimensionVectorFromShape``).

        Examples
        --------
        >>> xs.ShapeUtil.create_dimension_vector_from_shape("f32[3,2,7]")
        [3, 2, 7]
        """
        shape = _any(shape)
        return list(shape.dimensions) if isinstance(shape, Shape) else []

    @staticmethod
    def get_dimension(shape: Shape | str, dimension_number: int) -> int:
        """A dimension's size; negative numbers count from the end.

        Parameters
        ----------
        shape : Shape
        dimension_number : int

        Returns
        -------
        int

        Raises
        ------
        IndexError
            For a dimension number outside the rank.

        Examples
        --------
        >>> xs.ShapeUtil.get_dimension(xs.Shape("f32", [2, 1, 3]), -1)
        3
        """
        return _shape(shape).dimension(dimension_number)

    # -- text ------------------------------------------------------------
    @staticmethod
    def human_string(shape: AnyShape) -> str:
        """The shape as XLA writes it, without the layout: ``f32[2,3]``;
        tuples as ``(f32[2,3], s32[])``.

        Parameters
        ----------
        shape : Shape, TupleShape or NonArrayShape

        Returns
        -------
        str

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.human_string(padded)
        'f32[2,3]'
        """
        return shape_text.human_string(_any(shape))

    @staticmethod
    def human_string_with_layout(shape: AnyShape) -> str:
        """The shape as XLA writes it, with the layout: ``f32[2,3]{1,0}``,
        ``f32[3,5]{1,0:T(2,2)}``; tuples too. The 2017 padding, which XLA's
        text lacks, is written in xlashape's own attribute ``PAD(widths)``
        or ``PAD(widths:value)`` (value: zero, one, lowest, highest or
        unknown), which :meth:`parse_shape_string` reads back, so that the
        text never names a different buffer; XLA refuses the attribute.

        Parameters
        ----------
        shape : Shape, TupleShape or NonArrayShape

        Returns
        -------
        str

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.human_string_with_layout(padded)
        'f32[2,3]{0,1:PAD(3,5)}'
        """
        return shape_text.human_string_with_layout(_any(shape))

    @staticmethod
    def parse_shape_string(text: str) -> AnyShape:
        """Read a shape as XLA writes it: ``f32[2,3]{1,0}``, tiles and layout
        attributes (``{1,0:T(8,128)(2,1)L(2)E(4)S(1)SC(0:4)M(8)}``), bounded
        and unbounded sizes (``f32[<=16,3]``, ``f32[?,784]``), tuples,
        ``token[]``, ``opaque[]`` and xlashape's ``PAD(...)`` for 2017
        padding (see :func:`xlashape.shapes.shape_text.parse_shape_string`).

        Parameters
        ----------
        text : str
            A shape as XLA's HLO text writes it.

        Returns
        -------
        Shape, TupleShape or NonArrayShape

        Raises
        ------
        ValueError
            For text that is not a shape (upper-case types such as ``F32``
            included, as in XLA), or a sparse layout, which this model lacks,
            naming what is wrong.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("s32[4,5]{0,1}")
        Shape('s32', (4, 5), Layout(minor_to_major=(0, 1)))
        >>> xs.ShapeUtil.parse_shape_string("f32[2,3")
        Traceback (most recent call last):
          ...
        ValueError: ...
        """
        return shape_text.parse_shape_string(text)

    # -- comparison ------------------------------------------------------
    @staticmethod
    def equal(lhs: AnyShape, rhs: AnyShape) -> bool:
        """Same element type, dimensions and layout (padding included);
        tuples element by element, tokens and opaque values by kind, as
        XLA's ``Equal``.

        Parameters
        ----------
        lhs, rhs : Shape, TupleShape or NonArrayShape

        Returns
        -------
        bool

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.equal(padded, xs.Shape("f32", [2, 3], xs.Layout([0, 1])))
        False
        >>> pair = xs.ShapeUtil.parse_shape_string("(f32[3,2], pred[4,5])")
        >>> xs.ShapeUtil.equal(pair, xs.ShapeUtil.parse_shape_string("(f32[3,2]{1,0}, pred[4,5]{1,0})"))
        True
        """
        return _any(lhs, "lhs") == _any(rhs, "rhs")

    @staticmethod
    def compatible(lhs: AnyShape, rhs: AnyShape) -> bool:
        """Same element type and dimensions; layouts (and which dimensions
        are dynamic) may differ. Tuples are compatible when their elements
        are, pairwise; a token or opaque value only with its own kind, as
        XLA's ``Compatible``.

        Parameters
        ----------
        lhs, rhs : Shape, TupleShape or NonArrayShape

        Returns
        -------
        bool

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.compatible(padded, xs.Shape("f32", [2, 3]))
        True
        >>> xs.ShapeUtil.compatible(xs.Shape("f32", [5, 7]), xs.ShapeUtil.make_opaque_shape())
        False
        """
        return _compatible(_any(lhs, "lhs"), _any(rhs, "rhs"))

    @staticmethod
    def same_dimensions(lhs: Shape, rhs: Shape) -> bool:
        """Same dimension sizes; type and layout may differ.

        Parameters
        ----------
        lhs, rhs : Shape

        Returns
        -------
        bool

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.same_dimensions(padded, xs.Shape("s8", [2, 3]))
        True
        """
        return _shape(lhs, "lhs").dimensions == _shape(rhs, "rhs").dimensions

    # -- XLA's layout algebra: thin bindings over the modules that hold it --
    # dimension surgery (xlashape.xla.dimension_surgery)
    permute_dimensions = staticmethod(dimension_surgery.permute_dimensions)
    delete_dimension = staticmethod(dimension_surgery.delete_dimension)
    delete_dimensions = staticmethod(dimension_surgery.delete_dimensions)
    filter_dimensions = staticmethod(dimension_surgery.filter_dimensions)
    drop_degenerate_dimensions = staticmethod(dimension_surgery.drop_degenerate_dimensions)
    has_degenerate_dimensions = staticmethod(dimension_surgery.has_degenerate_dimensions)
    append_major_dimension = staticmethod(dimension_surgery.append_major_dimension)
    append_minor_dimension = staticmethod(dimension_surgery.append_minor_dimension)
    move_dim_to_major = staticmethod(dimension_surgery.move_dim_to_major)
    prepend_major_dimension = staticmethod(dimension_surgery.prepend_major_dimension)
    insert_dimension_at_index = staticmethod(dimension_surgery.insert_dimension_at_index)
    insert_dimensions_at_index = staticmethod(dimension_surgery.insert_dimensions_at_index)
    permute_dimensions_ignoring_layout = staticmethod(dimension_surgery.permute_dimensions_ignoring_layout)
    reorder_logical_dimensions = staticmethod(dimension_surgery.reorder_logical_dimensions)
    is_effectively_most_major_dimension = staticmethod(dimension_surgery.is_effectively_most_major_dimension)
    # new shapes from old (xlashape.shapes.shape_variants)
    make_shape_with_descending_layout = staticmethod(shape_variants.make_shape_with_descending_layout)
    make_shape_with_descending_layout_and_same_physical_layout = staticmethod(
        shape_variants.make_shape_with_descending_layout_and_same_physical_layout
    )
    make_static_shape = staticmethod(shape_variants.make_static_shape)
    change_element_type = staticmethod(shape_variants.change_element_type)
    make_scalar_shape = staticmethod(shape_variants.make_scalar_shape)
    device_shape_to_host_shape = staticmethod(layouts_in_shapes.device_shape_to_host_shape)
    device_shape_is_host_shape = staticmethod(layouts_in_shapes.device_shape_is_host_shape)
    update_element_size_in_bits = staticmethod(layouts_in_shapes.update_element_size_in_bits)
    # reshapes and transposes (xlashape.xla.reshape_dimensions, xlashape.xla.bitcast)
    inserted_or_deleted_1_sized_dimensions = staticmethod(
        reshape_dimensions.inserted_or_deleted_1_sized_dimensions
    )
    dimensions_unmodified_by_reshape = staticmethod(reshape_dimensions.dimensions_unmodified_by_reshape)
    reshape_leaves_dimensions_unmodified = staticmethod(
        reshape_dimensions.reshape_leaves_dimensions_unmodified
    )
    transpose_is_bitcast = staticmethod(bitcast.transpose_is_bitcast)
    reshape_is_bitcast = staticmethod(bitcast.reshape_is_bitcast)
    is_reshape_or_transpose_bitcast = staticmethod(bitcast.is_reshape_or_transpose_bitcast)
    deduce_transpose_dimensions_for_bitcast = staticmethod(bitcast.deduce_transpose_dimensions_for_bitcast)
    align_layouts = staticmethod(bitcast.align_layouts)
    # bitcasts as reshapes and transposes (xlashape.xla.bitcast_decomposition)
    BitcastDecompositionReshape = bitcast_decomposition.BitcastDecompositionReshape
    BitcastDecompositionTranspose = bitcast_decomposition.BitcastDecompositionTranspose
    BitcastDecompositionTrt = bitcast_decomposition.BitcastDecompositionTrt
    is_decomposable_bitcast = staticmethod(bitcast_decomposition.is_decomposable_bitcast)
    decompose_bitcast = staticmethod(bitcast_decomposition.decompose_bitcast)
    decompose_bitcast_to_trt = staticmethod(bitcast_decomposition.decompose_bitcast_to_trt)
    # predicates (xlashape.shapes.array_predicates, xlashape.shapes.shape_equality)
    is_scalar = staticmethod(array_predicates.is_scalar)
    is_effective_scalar = staticmethod(array_predicates.is_effective_scalar)
    is_zero_element_array = staticmethod(array_predicates.is_zero_element_array)
    elements_in_recursive = staticmethod(array_predicates.elements_in_recursive)
    same_rank = staticmethod(shape_equality.same_rank)
    same_element_type = staticmethod(shape_equality.same_element_type)
    compatible_ignoring_element_type = staticmethod(shape_equality.compatible_ignoring_element_type)
    equal_ignoring_element_type = staticmethod(shape_equality.equal_ignoring_element_type)
    equal_structure = staticmethod(shape_equality.equal_structure)
    equal_ignoring_fp_precision = staticmethod(shape_equality.equal_ignoring_fp_precision)
    compatible_ignoring_fp_precision = staticmethod(shape_equality.compatible_ignoring_fp_precision)
    compatible_kind = staticmethod(shape_equality.compatible_kind)
    same_element_type_ignoring_fp_precision = staticmethod(shape_equality.same_element_type_ignoring_fp_precision)
    # element types (xlashape.shapes.element_type_predicates)
    element_is_integral = staticmethod(element_type_predicates.element_is_integral)
    element_is_integral_with_bits = staticmethod(element_type_predicates.element_is_integral_with_bits)
    element_has_bit_width = staticmethod(element_type_predicates.element_has_bit_width)
    element_is_signed = staticmethod(element_type_predicates.element_is_signed)
    element_is_complex = staticmethod(element_type_predicates.element_is_complex)
    element_is_floating = staticmethod(element_type_predicates.element_is_floating)
    has_primitive_type = staticmethod(element_type_predicates.has_primitive_type)
    is_scalar_with_element_type = staticmethod(element_type_predicates.is_scalar_with_element_type)
    higher_precision_element_type = staticmethod(element_type_predicates.higher_precision_element_type)
    element_can_upcast = staticmethod(element_type_predicates.element_can_upcast)
    complex_component_shape = staticmethod(element_type_predicates.complex_component_shape)
    # dynamic shapes (xlashape.shapes.dynamic_shapes)
    dynamic_array_shape_is_compatible = staticmethod(dynamic_shapes.dynamic_array_shape_is_compatible)
    dynamic_shape_is_compatible = staticmethod(dynamic_shapes.dynamic_shape_is_compatible)
    static_extent_product = staticmethod(dynamic_shapes.static_extent_product)
    # byte sizes (xlashape.xla.byte_sizes)
    byte_size_of_elements = staticmethod(byte_sizes.byte_size_of_elements)
    byte_size_of_primitive_type = staticmethod(byte_sizes.byte_size_of_primitive_type)
    byte_strides = staticmethod(byte_sizes.byte_strides)
    array_size = staticmethod(byte_sizes.array_size)
    array_data_size = staticmethod(byte_sizes.array_data_size)
    unpacked_byte_strides = staticmethod(byte_sizes.unpacked_byte_strides)
    element_size_in_bits = staticmethod(byte_sizes.element_size_in_bits)
    byte_size_of_elements_recursive = staticmethod(byte_sizes.byte_size_of_elements_recursive)
    byte_size_of_tuple_index_table = staticmethod(byte_sizes.byte_size_of_tuple_index_table)
    # sub-shapes (xlashape.shapes.subshapes)
    get_subshape = staticmethod(subshapes.get_subshape)
    try_get_subshape = staticmethod(subshapes.try_get_subshape)
    index_is_valid = staticmethod(subshapes.index_is_valid)
    get_leaf_count = staticmethod(subshapes.get_leaf_count)
    get_leaf_shapes = staticmethod(subshapes.get_leaf_shapes)
    for_each_subshape = staticmethod(subshapes.for_each_subshape)
    is_leaf_index = staticmethod(subshapes.is_leaf_index)
    subshape_count = staticmethod(subshapes.subshape_count)
    flatten_tuple_shape = staticmethod(subshapes.flatten_tuple_shape)
    for_each_leaf_shape = staticmethod(subshapes.for_each_leaf_shape)
    for_each_subshape_post_order = staticmethod(subshapes.for_each_subshape_post_order)
    # tuples (xlashape.shapes.tuple_helpers)
    is_nested_tuple = staticmethod(tuple_helpers.is_nested_tuple)
    is_empty_tuple = staticmethod(tuple_helpers.is_empty_tuple)
    make_maybe_tuple_shape = staticmethod(tuple_helpers.make_maybe_tuple_shape)
    slice_tuple = staticmethod(tuple_helpers.slice_tuple)
    make_nil = staticmethod(tuple_helpers.make_nil)
    # physical-order iteration (xlashape.xla.physical_order)
    for_each_index = staticmethod(physical_order.for_each_index)
    indices_in_physical_order = staticmethod(physical_order.indices_in_physical_order)
