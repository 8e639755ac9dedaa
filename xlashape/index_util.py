"""IndexUtil: multi-index <-> linear index, one at a time or in batches."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import convert, reference
from ._validate import as_int, as_int_tuple, normalize_dimension
from .shape import Shape, require_shape

__all__ = ["IndexUtil"]


def _is_batch_of_rows(multi_index: object) -> bool:
    """A 2-D array, or a list or tuple whose entries are themselves rows."""
    if isinstance(multi_index, np.ndarray):
        return multi_index.ndim != 1
    return (
        isinstance(multi_index, (list, tuple))
        and len(multi_index) > 0
        and isinstance(multi_index[0], (list, tuple, np.ndarray))
    )


class IndexUtil:
    """Static helpers named after XLA's ``IndexUtil``, for any layout,
    padded layouts included (which XLA's own IndexUtil never supported)."""

    @staticmethod
    def multidimensional_index_to_linear_index(
        shape: Shape, multi_index, *, out: np.ndarray | None = None, threads: int | None = None
    ):
        """The linear index of ``multi_index`` in ``shape``'s buffer.

        One multi-index (a sequence of ``rank`` ints) gives an int. A batch,
        an (N, rank) integer array, gives a 1-D int64 array of N linear
        indices, written into ``out`` if given and computed on ``threads``
        threads (default: :func:`xlashape.get_num_threads`).

        Raises IndexOutOfBoundsError naming the row, dimension, value and
        size for an index out of range, TypeError for non-integers and
        ValueError for a wrong length or rank.
        """
        plan = require_shape(shape)._plan
        if not _is_batch_of_rows(multi_index):
            if isinstance(multi_index, np.ndarray) and multi_index.dtype.kind not in "iu":
                raise TypeError(
                    f"multi-index must hold integers, got an array of dtype {multi_index.dtype}"
                )
            return plan.ravel_one(multi_index)
        return convert.ravel(multi_index, shape, out=out, threads=threads)

    @staticmethod
    def linear_index_to_multidimensional_index(
        shape: Shape, linear_index, *, out: np.ndarray | None = None, threads: int | None = None
    ):
        """The multi-index stored at ``linear_index`` in ``shape``'s buffer.

        One linear index (an int) gives a tuple of ints. A batch, a 1-D
        integer array or list, gives an (N, rank) int64 array, written into
        ``out`` if given.

        Raises IndexOutOfBoundsError for an index outside [0, buffer size) or
        one that lands on padding, naming the row and dimension.
        """
        plan = require_shape(shape)._plan
        if not isinstance(linear_index, (list, tuple, np.ndarray)) or np.ndim(linear_index) == 0:
            return plan.unravel_one(linear_index)
        return convert.unravel(linear_index, shape, out=out, threads=threads)

    @staticmethod
    def bump_indices(shape: Shape, indices: list[int] | np.ndarray) -> bool:
        """Step ``indices`` in place to the next multi-index in row-major
        order. Returns False, leaving them unchanged, after the last one."""
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
        current = as_int_tuple(indices, "indices")
        reference.linear_index(shape.dimensions, shape.layout.minor_to_major, shape.padded_dimensions, current)
        for dim in range(shape.rank - 1, -1, -1):
            if current[dim] + 1 < shape.dimensions[dim]:
                indices[dim] = current[dim] + 1
                for later in range(dim + 1, shape.rank):
                    indices[later] = 0
                return True
        return False

    @staticmethod
    def get_dimension_stride(shape: Shape, dimension: int) -> int:
        """The distance in elements between neighbours along ``dimension``
        in the buffer (padded widths counted); negative numbers count from
        the end."""
        shape = require_shape(shape)
        return shape.strides[normalize_dimension(dimension, shape.rank)]

    @staticmethod
    def index_in_bounds(shape: Shape, index: Sequence[int]) -> bool:
        """Whether ``index`` has one entry per dimension, each in range."""
        shape = require_shape(shape)
        values = as_int_tuple(index, "index")
        return len(values) == shape.rank and all(
            0 <= v < size for v, size in zip(values, shape.dimensions)
        )

    @staticmethod
    def compare_indices(lhs: Sequence[int], rhs: Sequence[int]) -> int:
        """-1, 0 or 1: ``lhs`` against ``rhs``, lexicographically from
        dimension 0."""
        a, b = as_int_tuple(lhs, "lhs"), as_int_tuple(rhs, "rhs")
        if len(a) != len(b):
            raise ValueError(f"cannot compare indices of lengths {len(a)} and {len(b)}")
        return (a > b) - (a < b)
