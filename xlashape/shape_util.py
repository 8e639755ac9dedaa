"""ShapeUtil: XLA's shape helpers, in snake_case."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from . import shape_text
from ._validate import as_int_tuple
from .layout import Layout
from .primitive_type import PaddingValue, PrimitiveType
from .shape import Shape
from .shape import require_shape as _shape

__all__ = ["ShapeUtil"]


def _check_transpose(
    input_shape: Shape, output_shape: Shape, dimension_mapping: Iterable[int]
) -> tuple[int, ...]:
    """``dimension_mapping`` once checked to make ``output_shape`` a transpose
    of ``input_shape``: a permutation with output dimension i of the size of
    input dimension ``dimension_mapping[i]``."""
    mapping = as_int_tuple(dimension_mapping, "dimension_mapping")
    rank = input_shape.rank
    if sorted(mapping) != list(range(rank)):
        raise ValueError(
            f"dimension_mapping must be a permutation of 0..{rank - 1} for the "
            f"rank-{rank} input shape, got {list(mapping)}"
        )
    expected = tuple(input_shape.dimensions[d] for d in mapping)
    if output_shape.dimensions != expected:
        raise ValueError(
            f"output shape {output_shape} is not a transpose of {input_shape} by "
            f"{list(mapping)}: expected dimensions {list(expected)}"
        )
    return mapping


def _same_padding(lhs: Shape, rhs: Shape) -> bool:
    """Whether two shapes with the same elements at the same offsets also have
    the same padding: buffers of one size and, if they hold any padding, one
    padding value."""
    if lhs.buffer_size != rhs.buffer_size:
        return False
    has_padding = lhs.buffer_size > lhs.element_count
    return not has_padding or lhs.layout.padding_value == rhs.layout.padding_value


def _placement(shape: Shape) -> tuple[tuple[int, int], ...]:
    """Where the elements lie, taken in logical (row-major) order, as
    ``(count, stride)`` runs: size-1 dimensions dropped, and a dimension whose
    stride continues the next inner one merged into it.

    For a shape with elements, two shapes place their k-th elements at the
    same offset for every k exactly when their runs are equal: each run's
    count is the first element where the offsets stop following its stride.
    """
    runs: list[tuple[int, int]] = []
    for size, stride in zip(shape.dimensions, shape.strides):
        if size == 1:
            continue
        if runs and runs[-1][1] == size * stride:
            count, _ = runs.pop()
            runs.append((count * size, stride))
        else:
            runs.append((size, stride))
    return tuple(runs)


class ShapeUtil:
    """Static helpers on :class:`Shape`, named after XLA's ``ShapeUtil``.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")
    >>> xs.ShapeUtil.byte_size_of(shape), xs.ShapeUtil.human_string(shape)
    (24, 'f32[2,3]')
    """

    # -- construction ----------------------------------------------------
    @staticmethod
    def make_shape(element_type: PrimitiveType | int | str, dimensions: Iterable[int]) -> Shape:
        """A shape with the default major-to-minor layout.

        Parameters
        ----------
        element_type : PrimitiveType, int or str
        dimensions : iterable of int

        Returns
        -------
        Shape

        Examples
        --------
        >>> xs.ShapeUtil.make_shape("s8", [4, 5])
        Shape('s8', (4, 5), Layout(minor_to_major=(1, 0)))
        """
        return Shape(element_type, dimensions)

    @staticmethod
    def make_shape_with_layout(
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        minor_to_major: Iterable[int],
        padded_dimensions: Iterable[int] = (),
        padding_value: PaddingValue | int = PaddingValue.INVALID_PAD,
    ) -> Shape:
        """A shape with the given ``minor_to_major`` and, optionally, padding.

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
        >>> xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1], [3, 5])
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
    def elements_in(shape: Shape) -> int:
        """The number of array elements (padding not counted).

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
    def byte_size_of(shape: Shape) -> int:
        """Bytes of the linear buffer, padding counted.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        int

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.byte_size_of(padded)
        60
        """
        shape = _shape(shape)
        size = shape.element_type.byte_size
        assert size is not None  # a Shape holds array element types only
        return shape.buffer_size * size

    @staticmethod
    def rank(shape: Shape) -> int:
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
    def true_rank(shape: Shape) -> int:
        """The number of dimensions whose size is not 1.

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
        """
        return _shape(shape).true_rank

    @staticmethod
    def get_dimension(shape: Shape, dimension_number: int) -> int:
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
    def human_string(shape: Shape) -> str:
        """The shape as XLA writes it, without the layout: ``f32[2,3]``.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        str

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.human_string(padded)
        'f32[2,3]'
        """
        return shape_text.human_string(_shape(shape))

    @staticmethod
    def human_string_with_layout(shape: Shape) -> str:
        """The shape as XLA writes it, with the layout: ``f32[2,3]{1,0}``.

        Parameters
        ----------
        shape : Shape

        Returns
        -------
        str

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.human_string_with_layout(padded)
        'f32[2,3]{0,1}'
        """
        return shape_text.human_string_with_layout(_shape(shape))

    @staticmethod
    def parse_shape_string(text: str) -> Shape:
        """Read ``f32[2,3]`` or ``f32[2,3]{1,0}`` back into a Shape.

        Parameters
        ----------
        text : str
            An element type, the dimensions in brackets and, optionally, the
            ``minor_to_major`` order in braces, as XLA's HLO text writes shapes.

        Returns
        -------
        Shape

        Raises
        ------
        ValueError
            For text that is not a shape, or layout attributes this model lacks
            (tiles, memory spaces), naming what is wrong.

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
    def equal(lhs: Shape, rhs: Shape) -> bool:
        """Same element type, dimensions and layout (padding included).

        Parameters
        ----------
        lhs, rhs : Shape

        Returns
        -------
        bool

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.equal(padded, xs.Shape("f32", [2, 3], xs.Layout([0, 1])))
        False
        """
        return _shape(lhs, "lhs") == _shape(rhs, "rhs")

    @staticmethod
    def compatible(lhs: Shape, rhs: Shape) -> bool:
        """Same element type and dimensions; layouts may differ.

        Parameters
        ----------
        lhs, rhs : Shape

        Returns
        -------
        bool

        Examples
        --------
        >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.ShapeUtil.compatible(padded, xs.Shape("f32", [2, 3]))
        True
        """
        lhs, rhs = _shape(lhs, "lhs"), _shape(rhs, "rhs")
        return lhs.element_type == rhs.element_type and lhs.dimensions == rhs.dimensions

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

    # -- bitcasts --------------------------------------------------------
    @staticmethod
    def transpose_is_bitcast(
        input_shape: Shape, output_shape: Shape, dimension_mapping: Iterable[int]
    ) -> bool:
        """Whether a transpose leaves every element where it is in memory, so
        that it can be a bitcast (XLA's ``TransposeIsBitcast``).

        Output dimension i is input dimension ``dimension_mapping[i]``, as in
        XLA's Transpose. As in XLA, it is a bitcast when the element types are
        the same and the k-th most minor output dimension maps to the k-th
        most minor input dimension for every k; like XLA, this looks at the
        layouts only, so moving a size-1 dimension counts even though it
        moves no element. XLA's version predates padding; here a padded shape
        must also have its padded widths carried along by the mapping and the
        same padding value as the other when there is padding, so that both
        buffers are byte-for-byte the same.

        Parameters
        ----------
        input_shape, output_shape : Shape
            The shapes before and after the transpose.
        dimension_mapping : iterable of int
            For each output dimension, the input dimension it comes from.

        Returns
        -------
        bool

        Raises
        ------
        ValueError
            If ``dimension_mapping`` is not a permutation or
            ``output_shape``'s dimensions are not the input's so permuted.

        Examples
        --------
        >>> row_major = xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [1, 0])
        >>> col_major = xs.ShapeUtil.make_shape_with_layout("f32", [3, 2], [0, 1])
        >>> xs.ShapeUtil.transpose_is_bitcast(row_major, col_major, [1, 0])
        True
        """
        input_shape = _shape(input_shape, "input_shape")
        output_shape = _shape(output_shape, "output_shape")
        mapping = _check_transpose(input_shape, output_shape, dimension_mapping)
        if input_shape.element_type != output_shape.element_type:
            return False
        in_widths, out_widths = input_shape.padded_dimensions, output_shape.padded_dimensions
        return (
            tuple(mapping[d] for d in output_shape.layout.minor_to_major)
            == input_shape.layout.minor_to_major
            and all(out_widths[i] == in_widths[d] for i, d in enumerate(mapping))
            and _same_padding(input_shape, output_shape)
        )

    @staticmethod
    def reshape_is_bitcast(input_shape: Shape, output_shape: Shape) -> bool:
        """Whether a reshape leaves every element where it is in memory, so
        that it can be a bitcast (XLA's ``ReshapeIsBitcast``).

        A reshape keeps the elements' logical (row-major) order. As in XLA, it
        is a bitcast when the element types and element counts are the same
        and the k-th element lies at the same offset in both for every k (so
        unpadded shapes without elements always qualify, and differing counts
        give False, as in current XLA, rather than an error). XLA's version
        predates padding; here both buffers must also have the same size and,
        if they hold any padding, the same padding value.

        Parameters
        ----------
        input_shape, output_shape : Shape
            The shapes before and after the reshape.

        Returns
        -------
        bool

        Examples
        --------
        >>> flat = xs.Shape("f32", [6])
        >>> xs.ShapeUtil.reshape_is_bitcast(xs.Shape("f32", [2, 3]), flat)
        True
        >>> xs.ShapeUtil.reshape_is_bitcast(xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1]), flat)
        False
        """
        input_shape = _shape(input_shape, "input_shape")
        output_shape = _shape(output_shape, "output_shape")
        if input_shape.element_type != output_shape.element_type:
            return False
        if input_shape.element_count != output_shape.element_count:
            return False
        if not _same_padding(input_shape, output_shape):
            return False
        return input_shape.element_count == 0 or _placement(input_shape) == _placement(output_shape)
