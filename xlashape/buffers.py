"""Linear buffers: arrays laid out in memory as a Shape says, and read back.

A Shape's layout says where each element of an array lives in a flat,
contiguous buffer of ``shape.buffer_size`` elements, padding included. Here:

- :func:`to_linear` writes an array into such a buffer, padding filled as the
  layout's ``padding_value`` says;
- :func:`view_linear` looks at a buffer as the logical array without copying
  (a NumPy view whose strides follow the layout);
- :func:`from_linear` does the same but returns a copy;
- :func:`layout_from_strides` reads a layout off an array's strides, for
  :meth:`Shape.from_array <xlashape.Shape.from_array>`.

Buffers are 1-D, C-contiguous NumPy arrays of the shape's element type in
native byte order: what XLA-style runtimes exchange. Inputs are only read;
only ``out`` is ever written.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Literal

import numpy as np

from .layout import Layout
from .primitive_type import PaddingValue
from .shape import Shape, require_shape

# NumPy's casting rules, as np.can_cast and np.copyto take them.
Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]

__all__ = ["from_linear", "layout_from_strides", "padding_fill_value", "to_linear", "view_linear"]

# Padding values that leave the padding as it is: no fill, no cost.
_UNSPECIFIED = (PaddingValue.INVALID_PAD, PaddingValue.UNKNOWN_PAD)


# -- padding ---------------------------------------------------------------
def padding_fill_value(
    padding_value: PaddingValue | int, dtype: np.typing.DTypeLike
) -> np.generic | None:
    """The value ``padding_value`` puts in padding of ``dtype``, as a NumPy
    scalar; ``None`` for INVALID_PAD and UNKNOWN_PAD, which leave padding
    unspecified.

    ZERO_PAD gives 0 and ONE_PAD 1 (False and True for bool). LOWEST_PAD and
    HIGHEST_PAD give the ends of the type's order: -inf and +inf for floats,
    the minimum and maximum for integers, False and True for bool. Complex
    numbers have no natural order; NumPy's (real part first, then imaginary
    part, as in ``np.maximum`` and ``np.sort``) is used, so they give
    ``complex(-inf, -inf)`` and ``complex(inf, inf)``. Each of these leaves
    ``np.maximum`` (for LOWEST_PAD) or ``np.minimum`` (for HIGHEST_PAD) of any
    non-NaN value unchanged, which is what such padding is for.

    Parameters
    ----------
    padding_value : PaddingValue or int
        The layout's padding value.
    dtype : dtype_like
        A boolean, integer, floating or complex dtype.

    Returns
    -------
    numpy.generic or None
        A scalar of ``dtype``, or None when the padding is unspecified.

    Raises
    ------
    TypeError
        For a dtype that is not an XLA element type.

    Examples
    --------
    >>> padding_fill_value(PaddingValue.LOWEST_PAD, np.int8)
    np.int8(-128)
    >>> padding_fill_value(PaddingValue.HIGHEST_PAD, np.float32)
    np.float32(inf)
    >>> padding_fill_value(PaddingValue.UNKNOWN_PAD, np.float32) is None
    True
    """
    pad = PaddingValue.coerce(padding_value)
    dt = np.dtype(dtype)
    if dt.kind not in "biufc":
        raise TypeError(f"padding values are defined for XLA element types only, got dtype {dt}")
    if pad in _UNSPECIFIED:
        return None
    if pad in (PaddingValue.ZERO_PAD, PaddingValue.ONE_PAD):
        return dt.type(pad == PaddingValue.ONE_PAD)
    highest = pad == PaddingValue.HIGHEST_PAD
    if dt.kind == "b":
        return dt.type(highest)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return dt.type(info.max if highest else info.min)
    end = np.inf if highest else -np.inf
    return dt.type(complex(end, end) if dt.kind == "c" else end)  # type: ignore[call-overload,no-any-return]


def _fill_padding(buffer: np.ndarray, shape: Shape, fill: np.generic | None) -> None:
    """Write ``fill`` into every padding position of ``buffer``, touching no
    element position. Nothing for unpadded shapes or a ``None`` fill."""
    if fill is None or shape.buffer_size == shape.element_count:
        return
    full = _strided_view(buffer, shape, shape.padded_dimensions)
    for dim, (size, width) in enumerate(zip(shape.dimensions, shape.padded_dimensions)):
        if width > size:
            # Every position whose index in ``dim`` lies past the size is
            # padding; regions of different dimensions may overlap.
            full[(slice(None),) * dim + (slice(size, None),)] = fill


def _new_buffer(shape: Shape, dtype: np.dtype) -> np.ndarray:
    """A new linear buffer for ``shape`` with its padding filled. Zero
    padding comes from np.zeros, whose memory the system hands out already
    zeroed: no pass over the padding at all."""
    fill = padding_fill_value(shape.layout.padding_value, dtype)
    if fill is not None and fill == 0:
        return np.zeros(shape.buffer_size, dtype=dtype)
    buffer = np.empty(shape.buffer_size, dtype=dtype)
    _fill_padding(buffer, shape, fill)
    return buffer


# -- checks ----------------------------------------------------------------
def _numpy_dtype(shape: Shape) -> np.dtype:
    """The NumPy dtype of the shape's elements; TypeError if it has none."""
    dtype = shape.element_type.numpy_dtype
    if dtype is None:
        raise TypeError(
            f"element type {shape.element_type.text} of shape {shape} has no NumPy "
            "dtype, so its buffers cannot be NumPy arrays"
        )
    return dtype


def _check_buffer(buffer: object, shape: Shape, what: str) -> np.ndarray:
    """``buffer`` once checked to be a linear buffer for ``shape``: a 1-D,
    C-contiguous array of the shape's dtype and its padded size."""
    dtype = _numpy_dtype(shape)
    if not isinstance(buffer, np.ndarray):
        raise TypeError(
            f"{what} must be a 1-D NumPy array, got {type(buffer).__name__}; wrap raw "
            f"bytes with np.frombuffer(data, dtype={dtype.name!r})"
        )
    if buffer.ndim != 1:
        raise ValueError(f"{what} must be 1-D, got an array of shape {buffer.shape}")
    if buffer.dtype != dtype:
        raise TypeError(
            f"{what} must have dtype {dtype} (native byte order) for shape {shape}, "
            f"got {buffer.dtype.str} ({buffer.dtype})"
        )
    if buffer.size != shape.buffer_size:
        raise ValueError(
            f"{what} holds {buffer.size} elements, but shape {shape} needs "
            f"{shape.buffer_size} (its padded size)"
        )
    if not buffer.flags.c_contiguous:
        raise ValueError(
            f"{what} must be contiguous, got strides {buffer.strides} for itemsize "
            f"{buffer.itemsize}; pass np.ascontiguousarray({what})"
        )
    return buffer


def _check_out(out: object, shape: Shape, array: np.ndarray) -> np.ndarray:
    """``out`` once checked to be a writable linear buffer apart from ``array``."""
    out = _check_buffer(out, shape, "out")
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    if np.may_share_memory(out, array):
        raise ValueError("out overlaps the input array; pass a separate array")
    return out


def _as_source(array: object, shape: Shape, dtype: np.dtype, casting: Casting) -> np.ndarray:
    """``array`` as a NumPy array once checked to have the shape's dimensions
    and a dtype that ``casting`` allows to become ``dtype``."""
    source = np.asarray(array)
    if source.shape != shape.dimensions:
        raise ValueError(
            f"array has shape {source.shape}, but shape {shape} has dimensions "
            f"{shape.dimensions}"
        )
    if not np.can_cast(source.dtype, dtype, casting):
        raise TypeError(
            f"cannot cast an array of dtype {source.dtype} to {dtype} (the element "
            f"type {shape.element_type.text}) with casting={casting!r}; pass "
            "casting='same_kind' or 'unsafe' to convert"
        )
    return source


# -- views -----------------------------------------------------------------
def _strided_view(buffer: np.ndarray, shape: Shape, extents: tuple[int, ...]) -> np.ndarray:
    """The array of ``extents`` (per dimension) over ``buffer`` with the
    layout's strides. NumPy checks that it stays inside the buffer."""
    return np.ndarray(extents, dtype=buffer.dtype, buffer=buffer, strides=shape.numpy_strides)


def view_linear(buffer: np.ndarray, shape: Shape) -> np.ndarray:
    """The logical array stored in a linear buffer, as a view: no copy.

    ``buffer`` must be a 1-D, C-contiguous array of the shape's element type
    (native byte order) holding exactly ``shape.buffer_size`` elements; wrap
    raw bytes with ``np.frombuffer`` first. The view has the shape's
    dimensions, strides following its layout and padding (``shape.numpy_strides``),
    and is writable exactly when ``buffer`` is: writing to it writes the
    buffer.

    Parameters
    ----------
    buffer : numpy.ndarray
        The linear buffer.
    shape : Shape
        How the elements lie in it.

    Returns
    -------
    numpy.ndarray
        A view of ``buffer`` with the shape's dimensions.

    Raises
    ------
    ValueError, TypeError
        For a buffer of the wrong size, dtype, rank or contiguity.

    See Also
    --------
    from_linear : the same as a copy.
    to_linear : the inverse.

    Examples
    --------
    >>> shape = Shape("s32", (2, 3), Layout((0, 1), (3, 5)))
    >>> view_linear(np.arange(15, dtype=np.int32), shape)
    array([[0, 3, 6],
           [1, 4, 7]], dtype=int32)
    """
    shape = require_shape(shape)
    return _strided_view(_check_buffer(buffer, shape, "buffer"), shape, shape.dimensions)


def from_linear(buffer: np.ndarray, shape: Shape) -> np.ndarray:
    """The logical array stored in a linear buffer, as a new C-ordered array.

    Takes the same buffers as :func:`view_linear`; the result shares no
    memory with ``buffer``.

    Parameters
    ----------
    buffer : numpy.ndarray
        The linear buffer.
    shape : Shape
        How the elements lie in it.

    Returns
    -------
    numpy.ndarray
        A new C-ordered array with the shape's dimensions.

    Examples
    --------
    >>> shape = Shape("f32", (2, 2), Layout((0, 1)))
    >>> a = from_linear(np.array([1, 2, 3, 4], dtype=np.float32), shape)
    >>> a, a.flags.c_contiguous
    (array([[1., 3.],
           [2., 4.]], dtype=float32), True)
    """
    return view_linear(buffer, shape).copy()


def to_linear(
    array: np.typing.ArrayLike,
    shape: Shape,
    *,
    out: np.ndarray | None = None,
    casting: Casting = "equiv",
) -> np.ndarray:
    """The linear buffer holding ``array`` laid out as ``shape`` says.

    Returns a 1-D array of ``shape.buffer_size`` elements of the shape's
    element type, each element of ``array`` at its layout offset. Padding
    holds what the layout's ``padding_value`` says (see
    :func:`padding_fill_value`); for INVALID_PAD and UNKNOWN_PAD it is left
    as it was: uninitialised in a new buffer, untouched in ``out``.

    ``array`` (converted with ``np.asarray``; it is never modified) must have
    the shape's dimensions. Its dtype must be the shape's element type, in
    either byte order, unless ``casting`` (NumPy's rules: 'no', 'equiv',
    'safe', 'same_kind', 'unsafe') allows the conversion. ``out``, if given,
    must be a writable linear buffer for ``shape`` (see :func:`view_linear`)
    apart from ``array``; it is filled and returned.

    Parameters
    ----------
    array : array_like
        The array, with the shape's dimensions.
    shape : Shape
        The layout to write it in.
    out : numpy.ndarray, optional
        A writable linear buffer for ``shape`` to fill and return.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Which dtype conversions are allowed; 'equiv' by default.

    Returns
    -------
    numpy.ndarray
        The 1-D buffer of ``shape.buffer_size`` elements; ``out`` if given.

    Raises
    ------
    ValueError
        For an array of other dimensions, or an ``out`` that does not fit.
    TypeError
        For a dtype that ``casting`` does not allow.

    See Also
    --------
    view_linear, from_linear : the inverse.

    Examples
    --------
    For the spec's 2x3 array with layout ``{0,1}`` padded to ``[3,5]`` with
    zeros:

    >>> shape = Shape("s32", (2, 3), Layout((0, 1), (3, 5), PaddingValue.ZERO_PAD))
    >>> to_linear([[1, 2, 3], [4, 5, 6]], shape, casting="same_kind")
    array([1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0], dtype=int32)
    """
    shape = require_shape(shape)
    dtype = _numpy_dtype(shape)
    source = _as_source(array, shape, dtype, casting)
    if out is None:
        buffer = _new_buffer(shape, dtype)
    else:
        buffer = _check_out(out, shape, source)
        _fill_padding(buffer, shape, padding_fill_value(shape.layout.padding_value, dtype))
    np.copyto(_strided_view(buffer, shape, shape.dimensions), source, casting=casting)
    return buffer


# -- layouts from strides --------------------------------------------------
def _element_stride(dim: int, byte_stride: int, itemsize: int) -> int:
    """A dimension's stride in elements; ValueError if no layout has it."""
    if byte_stride <= 0:
        raise ValueError(
            f"dimension {dim} has stride {byte_stride} bytes; a layout places every "
            "dimension at a positive stride (reversed and broadcast arrays have none)"
        )
    if byte_stride % itemsize:
        raise ValueError(
            f"dimension {dim} has stride {byte_stride} bytes, not a multiple of the "
            f"itemsize {itemsize}"
        )
    return byte_stride // itemsize


def _widths(
    order: list[int], strides: dict[int, int], dimensions: tuple[int, ...]
) -> dict[int, int]:
    """The padded width of each dimension in ``order`` (minor to major) but
    the last, from the stride of the next more major one; ValueError naming
    the first dimension whose stride no width gives."""
    widths = {}
    for inner, dim in itertools.pairwise(order):
        inner_stride, stride = strides[inner], strides[dim]
        if stride % inner_stride:
            raise ValueError(
                f"dimension {dim} has stride {stride} elements, not a multiple of the "
                f"stride {inner_stride} of dimension {inner}, the next more minor; no "
                "padded layout gives these strides"
            )
        if stride // inner_stride < dimensions[inner]:
            raise ValueError(
                f"dimension {dim} has stride {stride} elements, less than the "
                f"{dimensions[inner]} x {inner_stride} elements spanned by dimension "
                f"{inner}: the array's elements overlap"
            )
        widths[inner] = stride // inner_stride
    return widths


def _merge(order: list[int], units: list[int], key: Callable[[int], int]) -> list[int]:
    """``order`` with ``units`` (sorted by ``key``) merged in: each unit goes
    before the first dimension of ``order`` that ``key`` puts after it."""
    pending = list(units)
    merged: list[int] = []
    for dim in order:
        while pending and key(pending[0]) < key(dim):
            merged.append(pending.pop(0))
        merged.append(dim)
    return merged + pending


def layout_from_strides(
    dimensions: tuple[int, ...], byte_strides: tuple[int, ...], itemsize: int
) -> Layout:
    """The layout under which elements of ``itemsize`` bytes sit at exactly
    ``byte_strides`` from the first: what :meth:`Shape.from_array` uses.

    Dimensions are ordered minor to major by stride. Each stride must be a
    whole multiple of the next more minor one, at least that dimension's
    extent: where it is more, that dimension is padded to the width the
    stride implies, and the padding value is UNKNOWN_PAD (the padding holds
    whatever the memory holds). The most major dimension is never padded.
    Anything else (overlapping, reversed, broadcast or misaligned strides)
    raises ValueError: no layout describes it.

    Strides of size-1 dimensions never matter, so they are ignored, and those
    dimensions are merged into the order of the others by dimension number:
    ascending if the others are in Fortran order (dim 0 minor), descending
    otherwise. So C arrays get the default layout ``{n-1,...,0}`` and Fortran
    arrays ``{0,...,n-1}`` even with size-1 dimensions. The most minor of the
    others must have stride 1, unless there is a size-1 dimension to put
    before it padded to that stride, as in a column ``a[:, :1]`` of a C
    array: the first in that merge order is used. An array with no elements
    places nothing, so it gets the default layout.
    """
    rank = len(dimensions)
    if 0 in dimensions:
        return Layout(range(rank - 1, -1, -1))
    spread = [d for d in range(rank) if dimensions[d] > 1]
    strides = {d: _element_stride(d, byte_strides[d], itemsize) for d in spread}
    order = sorted(spread, key=strides.__getitem__)
    widths = _widths(order, strides, dimensions)
    ascending = len(order) > 1 and order == sorted(order)
    key = (lambda d: d) if ascending else (lambda d: -d)
    units = sorted((d for d in range(rank) if dimensions[d] == 1), key=key)
    gap = strides[order[0]] if order else 1
    if gap == 1:
        minor_to_major = _merge(order, units, key)
    elif units:
        widths[units[0]] = gap
        minor_to_major = [units[0]] + _merge(order, units[1:], key)
    else:
        raise ValueError(
            f"dimension {order[0]}, the most minor (smallest stride), has stride {gap} "
            "elements; a layout's most minor dimension has stride 1 (a step in the "
            "minor dimension leaves gaps no padding describes)"
        )
    padded = tuple(widths.get(d, size) for d, size in enumerate(dimensions))
    if padded == dimensions:
        return Layout(minor_to_major)
    return Layout(minor_to_major, padded, PaddingValue.UNKNOWN_PAD)
