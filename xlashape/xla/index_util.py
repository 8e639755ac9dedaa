"""IndexUtil: multi-index <-> linear index, one at a time or in batches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import reference
from .._validate import as_int_tuple, normalize_dimension
from ..model._xla_names import XlaNames
from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape
from . import _index

__all__ = ["IndexUtil"]


class IndexUtil(metaclass=XlaNames):
    """Static helpers named after XLA's ``IndexUtil``, for any layout,
    padded layouts included (which XLA's own IndexUtil never supported).

    ``multidimensional_index_to_linear_index`` and
    ``linear_index_to_multidimensional_index`` take one index or a whole
    batch; the other helpers work on one multi-index.

    Examples
    --------
    >>> shape = xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1])
    >>> xs.IndexUtil.multidimensional_index_to_linear_index(shape, [1, 2])
    5
    >>> xs.IndexUtil.linear_index_to_multidimensional_index(shape, 5)
    (1, 2)
    """

    # One index at a time in C; batches go on to xlashape.shapes.convert. (Type
    # checkers read the overloads in _index.pyi through the plain names.)
    if TYPE_CHECKING:
        multidimensional_index_to_linear_index = _index.multidimensional_index_to_linear_index
        linear_index_to_multidimensional_index = _index.linear_index_to_multidimensional_index
    else:
        multidimensional_index_to_linear_index = staticmethod(
            _index.multidimensional_index_to_linear_index
        )
        linear_index_to_multidimensional_index = staticmethod(
            _index.linear_index_to_multidimensional_index
        )

    @staticmethod
    def bump_indices(shape: Shape | str, indices: list[int] | np.ndarray) -> bool:
        """Step ``indices`` in place to the next multi-index in row-major
        order.

        Parameters
        ----------
        shape : Shape
            The shape whose dimensions bound each index.
        indices : list of int or 1-D writable integer ndarray
            A multi-index inside ``shape``, changed in place.

        Returns
        -------
        bool
            True after a step; False, leaving ``indices`` unchanged, when it
            was the last multi-index.

        Raises
        ------
        TypeError
            If ``indices`` is neither a list nor a 1-D integer array.
        ValueError
            If the array is read-only.
        IndexOutOfBoundsError
            If ``indices`` is not inside ``shape``.

        Examples
        --------
        >>> shape = xs.Shape("s32", [2, 2])
        >>> index = [0, 1]
        >>> xs.IndexUtil.bump_indices(shape, index), index
        (True, [1, 0])
        >>> xs.IndexUtil.bump_indices(shape, [1, 1])
        False
        """
        shape = require_shape(shape)
        if isinstance(indices, np.ndarray):
            if indices.ndim != 1 or indices.dtype.kind not in "iu":
                raise TypeError(
                    f"bump_indices needs a 1-D integer array, got {indices.ndim}-D {indices.dtype}"
                )
            if not indices.flags.writeable:
                raise ValueError("bump_indices counts in place, but the array is read-only")
        elif not isinstance(indices, list):
            raise TypeError(
                "bump_indices counts in place: pass a list or a 1-D integer "
                f"array, got {type(indices).__name__}"
            )
        current = as_int_tuple(indices, "indices", per_dimension=True)
        reference.linear_index(shape.dimensions, shape.layout.minor_to_major, shape.padded_dimensions, current)
        for dim in range(shape.rank - 1, -1, -1):
            if current[dim] + 1 < shape.dimensions[dim]:
                indices[dim] = current[dim] + 1
                for later in range(dim + 1, shape.rank):
                    indices[later] = 0
                return True
        return False

    @staticmethod
    def get_dimension_stride(shape: Shape | str, dimension: int) -> int:
        """The distance in elements between neighbours along ``dimension``
        in the buffer, padded widths counted.

        Parameters
        ----------
        shape : Shape
            The shape whose layout gives the strides.
        dimension : int
            A dimension number; negative numbers count from the end.

        Returns
        -------
        int
            The stride in elements.

        Examples
        --------
        >>> shape = xs.Shape("f32", [2, 3], xs.Layout([0, 1], padded_dimensions=[3, 5]))
        >>> xs.IndexUtil.get_dimension_stride(shape, 0), xs.IndexUtil.get_dimension_stride(shape, -1)
        (1, 3)
        """
        shape = require_shape(shape)
        return shape.strides[normalize_dimension(dimension, shape.rank)]

    @staticmethod
    def index_in_bounds(shape: Shape | str, index: Sequence[int]) -> bool:
        """Whether ``index`` has one entry per dimension, each in range.

        Parameters
        ----------
        shape : Shape
            The shape whose dimensions bound the index.
        index : sequence of int
            A multi-index.

        Returns
        -------
        bool

        Examples
        --------
        >>> shape = xs.Shape("f32", [2, 3])
        >>> xs.IndexUtil.index_in_bounds(shape, [1, 2]), xs.IndexUtil.index_in_bounds(shape, [2, 0])
        (True, False)
        """
        shape = require_shape(shape)
        values = as_int_tuple(index, "index", per_dimension=True)
        return len(values) == shape.rank and all(
            0 <= v < size for v, size in zip(values, shape.dimensions)
        )

    @staticmethod
    def compare_indices(lhs: Sequence[int], rhs: Sequence[int]) -> int:
        """Compare two multi-indices lexicographically from dimension 0.

        Parameters
        ----------
        lhs, rhs : sequence of int
            Multi-indices of the same length.

        Returns
        -------
        int
            -1 if ``lhs`` comes first, 0 if they are equal, 1 otherwise.

        Raises
        ------
        ValueError
            If the lengths differ.

        Examples
        --------
        >>> xs.IndexUtil.compare_indices([0, 5], [1, 0]), xs.IndexUtil.compare_indices([1, 2], [1, 2])
        (-1, 0)
        """
        a, b = as_int_tuple(lhs, "lhs", per_dimension=True), as_int_tuple(rhs, "rhs", per_dimension=True)
        if len(a) != len(b):
            raise ValueError(f"cannot compare indices of lengths {len(a)} and {len(b)}")
        return (a > b) - (a < b)
