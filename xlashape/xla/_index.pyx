"""The compiled half of IndexUtil: one index at a time without Python layers.

A single multi-index or linear index is converted here directly, in C, from
the Shape's LayoutPlan; anything else (batches, arrays) goes on to the
compiled batch glue (_batch), the same route as ``xlashape.ravel``.
"""

import numpy as np

from xlashape.core._batch cimport plan_of, ravel_input, resolve_threads, unravel_input
from xlashape.core._plan cimport LayoutPlan

from xlashape._validate import require_integer_dtype
from xlashape.shapes.shape_text import require_shape


cdef _check_single(out, threads):
    """One index gives a plain result: ``out`` has no place, and ``threads``
    none to do, but a bad value is still an error."""
    if out is not None:
        raise TypeError("out= is for batches; one index gives a plain int or tuple")
    if threads is not None:
        resolve_threads(threads)


cdef bint _is_batch(object sequence):
    """A list or tuple whose first entry is itself a row."""
    if len(sequence) == 0:
        return False
    first = sequence[0]
    return type(first) is not int and isinstance(first, (list, tuple, np.ndarray))


def multidimensional_index_to_linear_index(shape, multi_index, *, out=None, threads=None):
    """The linear index of ``multi_index`` in ``shape``'s buffer.

    Parameters
    ----------
    shape : Shape
        The shape whose layout (and padding) places the elements.
    multi_index : sequence of int, 1-D int array, or (N, rank) batch
        One multi-index (``rank`` ints), or a batch: an (N, rank) integer
        array or a list of rows.
    out : ndarray of int64, shape (N,), optional
        For a batch, where to write the result.
    threads : int, optional
        For a batch, the threads to use (default
        :func:`xlashape.get_num_threads`).

    Returns
    -------
    int or ndarray of int64
        An int for one multi-index; a 1-D array of N linear indices for a
        batch (``out`` if given).

    Raises
    ------
    IndexOutOfBoundsError
        For an index outside its dimension, naming the row, dimension, value
        and size.
    TypeError
        For values that are not integers.
    ValueError
        For a multi-index of the wrong length, or a batch of the wrong rank.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")  # column-major
    >>> xs.IndexUtil.multidimensional_index_to_linear_index(shape, (1, 2))
    5
    >>> xs.IndexUtil.multidimensional_index_to_linear_index(shape, [[0, 1], [1, 1]])
    array([2, 3])
    """
    cdef LayoutPlan plan = plan_of(shape, require_shape)
    if type(multi_index) is tuple or type(multi_index) is list:
        if not _is_batch(multi_index):
            if out is not None or threads is not None:
                _check_single(out, threads)
            return plan.ravel_one(multi_index)
    elif isinstance(multi_index, np.ndarray) and multi_index.ndim == 1:
        if multi_index.dtype.kind not in "iu":
            require_integer_dtype(multi_index.dtype, "multi-index")
        _check_single(out, threads)
        return plan.ravel_one(multi_index.tolist())
    return ravel_input(plan, multi_index, "raise", out, threads)


def linear_index_to_multidimensional_index(shape, linear_index, *, out=None, threads=None):
    """The multi-index stored at ``linear_index`` in ``shape``'s buffer.

    Parameters
    ----------
    shape : Shape
        The shape whose layout (and padding) places the elements.
    linear_index : int or array_like of int
        One linear index (an int, a NumPy integer or a 0-d array), or a
        batch: a 1-D integer array or list.
    out : ndarray of int64, shape (N, rank), optional
        For a batch, where to write the result.
    threads : int, optional
        For a batch, the threads to use (default
        :func:`xlashape.get_num_threads`).

    Returns
    -------
    tuple of int or ndarray of int64
        A tuple of ``rank`` ints for one index; an (N, rank) array for a
        batch (``out`` if given).

    Raises
    ------
    IndexOutOfBoundsError
        For an index outside ``[0, buffer_size)`` or one that lands on
        padding, naming the row and dimension.
    TypeError
        For values that are not integers.

    Examples
    --------
    >>> shape = xs.Shape("f32", [2, 3], xs.Layout([0, 1], padded_dimensions=[3, 5]))
    >>> xs.IndexUtil.linear_index_to_multidimensional_index(shape, 7)
    (1, 2)
    >>> xs.IndexUtil.linear_index_to_multidimensional_index(shape, [0, 3, 7])
    array([[0, 0],
           [0, 1],
           [1, 2]])
    >>> xs.IndexUtil.linear_index_to_multidimensional_index(shape, 2)
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: linear index 2 lands on padding: ... (padded width 3)
    """
    cdef LayoutPlan plan = plan_of(shape, require_shape)
    if (type(linear_index) is int or not isinstance(linear_index, (list, tuple, np.ndarray))
            or (isinstance(linear_index, np.ndarray) and linear_index.ndim == 0)):
        if out is not None or threads is not None:
            _check_single(out, threads)
        return plan.unravel_one(linear_index)
    return unravel_input(plan, linear_index, out, threads)
