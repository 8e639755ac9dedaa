"""Linear buffers: arrays laid out in memory as a Shape says, and read back.

A Shape's layout says where each element of an array lives in a flat,
contiguous buffer of ``shape.buffer_size`` elements, padding included. Here:

- :func:`to_linear` writes an array into such a buffer, padding filled as the
  layout's ``padding_value`` says;
- :func:`view_linear` looks at a buffer as the logical array without copying
  (a NumPy view whose strides follow the layout);
- :func:`from_linear` does the same but returns a copy;
- :func:`layout_from_strides` (from :mod:`xlashape.strides`) reads a layout
  off an array's strides.

Buffers are 1-D, C-contiguous NumPy arrays of the shape's element type in
native byte order: what XLA-style runtimes exchange. Inputs are only read;
only ``out`` is ever written.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from . import _batch, packing
from .primitive_type import PaddingValue
from .shape import Shape, require_shape
from .strides import layout_from_strides

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
    """The NumPy dtype of the shape's elements (int8 or uint8 for sub-byte
    integers); TypeError if it has none."""
    dtype = packing.storage_dtype(shape.element_type)
    if dtype is None:
        raise TypeError(
            f"element type {shape.element_type.text} of shape {shape} has no NumPy "
            "dtype, so its buffers cannot be NumPy arrays"
        )
    return dtype


def _check_buffer(buffer: object, shape: Shape, what: str) -> np.ndarray:
    """``buffer`` once checked to be a linear buffer for ``shape``: a 1-D,
    C-contiguous array of the shape's dtype and its padded size, or for
    packed sub-byte elements a uint8 array of the shape's byte size."""
    dtype = _numpy_dtype(shape)
    size, unit = shape.buffer_size, "elements"
    if packing.packed_bits(shape):
        dtype, size, unit = np.dtype(np.uint8), -(-shape.buffer_size * shape.layout.element_size_in_bits // 8), "bytes"
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
    if buffer.size != size:
        raise ValueError(
            f"{what} holds {buffer.size} {unit}, but shape {shape} needs "
            f"{size} (its padded size)"
        )
    if not buffer.flags.c_contiguous:
        raise ValueError(
            f"{what} must be contiguous, got strides {buffer.strides} for itemsize "
            f"{buffer.itemsize}; pass np.ascontiguousarray({what})"
        )
    return buffer


def _check_out(out: object, shape: Shape, array: object) -> np.ndarray:
    """``out`` once checked to be a linear buffer of ``shape``, then by the
    package's one ``out=`` check: writable and apart from ``array`` (the
    caller's own object)."""
    buffer = _check_buffer(out, shape, "out")
    return _batch.check_out(buffer, buffer.shape, (array,), dtype=buffer.dtype, contiguous=True)


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


def view_linear(buffer: np.ndarray, shape: Shape | str) -> np.ndarray:
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
    >>> shape = Shape("s32", (2, 3), xs.Layout((0, 1), (3, 5)))
    >>> view_linear(np.arange(15, dtype=np.int32), shape)
    array([[0, 3, 6],
           [1, 4, 7]], dtype=int32)
    """
    shape = require_shape(shape)
    buffer = _check_buffer(buffer, shape, "buffer")
    if packing.packed_bits(shape):
        raise ValueError(
            f"shape {shape} packs {8 // shape.layout.element_size_in_bits} elements into "
            "each byte, which no NumPy view can address; use from_linear(buffer, shape) "
            "for a copy"
        )
    if shape.layout.tiles:
        strides = packing.view_strides(shape)
        if strides is None:
            raise ValueError(
                f"no strides express the tiled layout of {shape}: a step along a "
                "dimension jumps between tiles; use from_linear(buffer, shape) for a copy"
            )
        itemsize = buffer.itemsize
        return np.ndarray(
            shape.dimensions, buffer.dtype, buffer, strides=[s * itemsize for s in strides]
        )
    return _strided_view(buffer, shape, shape.dimensions)


def from_linear(buffer: np.ndarray, shape: Shape | str) -> np.ndarray:
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
    >>> shape = Shape("f32", (2, 2), xs.Layout((0, 1)))
    >>> a = from_linear(np.array([1, 2, 3, 4], dtype=np.float32), shape)
    >>> a, a.flags.c_contiguous
    (array([[1., 3.],
           [2., 4.]], dtype=float32), True)
    """
    shape = require_shape(shape)
    if shape.layout.tiles or packing.packed_bits(shape):
        data = _check_buffer(buffer, shape, "buffer")
        bits = packing.packed_bits(shape)
        dtype = _numpy_dtype(shape)
        if bits:
            data = packing.unpack(data, bits, shape.buffer_size, dtype)
        array: np.ndarray = data[packing.element_offsets(shape)]
        return array.reshape(shape.dimensions)
    return view_linear(buffer, shape).copy()


def to_linear(
    array: np.typing.ArrayLike,
    shape: Shape | str,
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

    >>> shape = Shape("s32", (2, 3), xs.Layout((0, 1), (3, 5), PaddingValue.ZERO_PAD))
    >>> to_linear([[1, 2, 3], [4, 5, 6]], shape, casting="same_kind")
    array([1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0], dtype=int32)
    """
    shape = require_shape(shape)
    dtype = _numpy_dtype(shape)
    source = _as_source(array, shape, dtype, casting)
    packing.check_range(source, shape.element_type)
    if shape.layout.tiles or packing.packed_bits(shape):
        return _to_tiled_or_packed(source, shape, dtype, out, casting)
    if out is None:
        buffer = _new_buffer(shape, dtype)
    else:
        buffer = _check_out(out, shape, source)
        _fill_padding(buffer, shape, padding_fill_value(shape.layout.padding_value, dtype))
    np.copyto(_strided_view(buffer, shape, shape.dimensions), source, casting=casting)
    return buffer


def _to_tiled_or_packed(
    source: np.ndarray, shape: Shape, dtype: np.dtype, out: np.ndarray | None, casting: Casting
) -> np.ndarray:
    """to_linear for tiled layouts and packed elements: each element placed
    at its offset, padding as the padding value says (0 if unspecified)."""
    fill = padding_fill_value(shape.layout.padding_value, dtype)
    flat = np.full(shape.buffer_size, 0 if fill is None else fill, dtype=dtype)
    flat[packing.element_offsets(shape)] = source.astype(dtype, casting=casting).reshape(-1)
    bits = packing.packed_bits(shape)
    result = packing.pack(flat, bits) if bits else flat
    if out is None:
        return result
    target = _check_out(out, shape, source)
    target[...] = result
    return target
