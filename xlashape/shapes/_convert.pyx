"""The compiled public batch calls, ``xlashape.ravel`` and ``xlashape.unravel``.

Each call goes straight from here to the C driver (through _batch): no
Python-level layer sits between the caller and the kernel.
"""

from xlashape.core._batch cimport plan_of, ravel_input, unravel_input

from xlashape.shapes.shape_text import require_shape


def ravel(indices, shape, *, mode="raise", out=None, threads=None, dtype=None):
    """Linear indices of an (N, rank) batch of multi-indices in ``shape``.

    Each row is a multi-index; its linear index is its offset in the
    shape's buffer, under the shape's layout and padding.

    Parameters
    ----------
    indices : array_like of int, shape (N, rank)
        The multi-indices, one per row. Any integer dtype and any strides
        (C, Fortran or sliced arrays are read in place, never copied or
        modified).
    shape : Shape
        The shape whose layout gives the offsets.
    mode : {'raise', 'wrap', 'clip'} or sequence of them, optional
        What an index outside its dimension does, once for all dimensions or
        one per dimension: 'raise' (the default) raises, 'wrap' takes it
        modulo the dimension, 'clip' moves it to the nearest end.
    out : ndarray of int64, int32 or uint32, shape (N,), optional
        Where to write the result.
    threads : int, optional
        Threads to use; None (the default) means :func:`get_num_threads`.
        A batch is split only when it is large enough to repay the hand-off;
        results never depend on the thread count.
    dtype : {None, int64, int32, uint32}, optional
        The result's dtype; None (the default) means that of ``out``, or
        int64. A 32-bit dtype writes half the bytes, and is taken only where
        it holds every offset into the shape's buffer.

    Returns
    -------
    ndarray of int64 (or ``dtype``), shape (N,)
        The linear indices; ``out`` if it was given.

    Raises
    ------
    IndexOutOfBoundsError
        With ``mode='raise'``, for the first row holding an index outside its
        dimension, naming the row, dimension, value and size.
    ValueError
        If ``indices`` is not (N, rank) or ``mode`` is unknown; if a 32-bit
        result cannot hold every offset of the layout (raised before
        anything is written).
    TypeError
        If ``indices`` does not hold integers, or ``out`` or ``dtype`` is not
        one of the result dtypes.

    See Also
    --------
    unravel : the inverse.
    ravel_multi_index : the same in NumPy's calling convention.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")  # column-major
    >>> xs.ravel(np.array([[0, 0], [1, 0], [0, 1], [1, 2]]), shape)
    array([0, 1, 2, 5])
    >>> xs.ravel([[2, 0], [-1, 3]], shape, mode="clip")
    array([1, 4])
    >>> xs.ravel([[1, 2]], shape, dtype=np.int32)
    array([5], dtype=int32)
    >>> xs.ravel([[0, 0], [0, 3]], shape)
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: index 3 is out of bounds for dimension 1 with size 3 at
    row 1 of the batch; multi-index (0, 3)
    """
    return ravel_input(plan_of(shape, require_shape), indices, mode, out, threads, dtype)


def unravel(offsets, shape, *, out=None, threads=None, dtype=None):
    """Multi-indices of a 1-D batch of linear indices into ``shape``'s buffer.

    Parameters
    ----------
    offsets : array_like of int, shape (N,)
        Linear indices (offsets in elements) into the shape's buffer, of any
        integer dtype.
    shape : Shape
        The shape whose layout gives the multi-indices.
    out : ndarray of int64, int32 or uint32, shape (N, rank), optional
        Where to write the result; any strides.
    threads : int, optional
        Threads to use; None (the default) means :func:`get_num_threads`.
    dtype : {None, int64, int32, uint32}, optional
        The result's dtype; None (the default) means that of ``out``, or
        int64. A 32-bit dtype is taken only where it holds every index of
        every dimension.

    Returns
    -------
    ndarray of int64 (or ``dtype``), shape (N, rank)
        One multi-index per row; ``out`` if it was given.

    Raises
    ------
    IndexOutOfBoundsError
        For the first offset outside the buffer or on padding, naming its
        row.
    ValueError
        If ``offsets`` is not 1-D; if a 32-bit result cannot hold every
        index of the layout (raised before anything is written).
    TypeError
        If ``offsets`` does not hold integers, or ``out`` or ``dtype`` is
        not one of the result dtypes.

    See Also
    --------
    ravel : the inverse.
    unravel_index : the same in NumPy's calling convention.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}")  # column-major
    >>> xs.unravel(np.array([0, 1, 5]), shape)
    array([[0, 0],
           [1, 0],
           [1, 2]])
    >>> padded = xs.Shape("f32", [2, 3], xs.Layout([0, 1], padded_dimensions=[3, 5]))
    >>> xs.unravel([4, 2], padded)
    Traceback (most recent call last):
      ...
    xlashape.errors.IndexOutOfBoundsError: ...row 1...
    """
    return unravel_input(plan_of(shape, require_shape), offsets, out, threads, dtype)
