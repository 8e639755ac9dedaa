"""Linear buffers: arrays laid out in memory as a Shape says, and read back.

A Shape's layout says where each element of an array lives in a flat,
contiguous buffer of ``shape.buffer_size`` elements, padding included. Here:

- :func:`to_linear` writes an array into such a buffer, padding filled as the
  layout's ``padding_value`` says;
- :func:`view_linear` looks at a buffer as the logical array without copying
  (a NumPy view whose strides follow the layout);
- :func:`from_linear` does the same but returns a copy;
- :func:`relayout` moves a buffer from one layout of a shape to another;
- :func:`layout_from_strides` (from :mod:`xlashape.model.strides`) reads a layout
  off an array's strides.

Buffers are 1-D, C-contiguous NumPy arrays of the shape's element type in
native byte order: what XLA-style runtimes exchange. Inputs are only read;
only ``out`` is ever written.

The copies run on a compiled block mover (:mod:`xlashape.linear.relayout_plan`
plans them once per pair of layouts; ``csrc/relayout/relayout.h`` runs them):
contiguous runs, in-register transposes and interleaves, streaming stores
for large outputs, split over ``threads``. Tilings that combine dimensions
with ``*`` take an element-by-element path.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from .._validate import as_dtype
from ..core import _batch, _relayout
from ..model.primitive_type import PaddingValue
from ..model.strides import layout_from_strides
from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape
from . import packing, relayout_plan

# NumPy's casting rules, as np.can_cast and np.copyto take them.
Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]

__all__ = [
    "from_linear",
    "layout_from_strides",
    "padding_fill_value",
    "relayout",
    "to_linear",
    "view_linear",
]

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
    >>> xs.padding_fill_value(xs.PaddingValue.LOWEST_PAD, np.int8)
    np.int8(-128)
    >>> xs.padding_fill_value(xs.PaddingValue.HIGHEST_PAD, np.float32)
    np.float32(inf)
    >>> xs.padding_fill_value(xs.PaddingValue.UNKNOWN_PAD, np.float32) is None
    True
    """
    pad = PaddingValue.coerce(padding_value)
    dt: np.dtype[Any] | np.dtype[np.void] = as_dtype(dtype)  # the type np.dtype gives a DTypeLike
    if dt.kind not in "biufc" and not (dt.kind == "V" and _is_ml_float(dt)):
        raise TypeError(f"padding values are defined for XLA element types only, got dtype {dt}")
    scalar: type = dt.type
    return _fill_value(pad, scalar)


@functools.lru_cache(maxsize=256)
def _fill_value(pad: PaddingValue, scalar: type) -> np.generic | None:
    """``padding_fill_value`` of a dtype's scalar type (worked out once a
    pair: about 1 us a call where it is on every buffer's way out). Keyed
    by the scalar type, not the dtype: equal dtypes (``q`` and ``l``) may
    have different ones."""
    dt: np.dtype[Any] | np.dtype[np.void] = np.dtype(scalar)
    narrow = dt.kind == "V"  # one of ml_dtypes' floats: padding_fill_value checked
    if pad in _UNSPECIFIED:
        return None
    if pad in (PaddingValue.ZERO_PAD, PaddingValue.ONE_PAD):
        return dt.type(pad == PaddingValue.ONE_PAD)
    highest = pad == PaddingValue.HIGHEST_PAD
    if narrow:
        return _ml_float_end(dt, highest)
    if dt.kind == "b":
        return dt.type(highest)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return dt.type(info.max if highest else info.min)
    end = np.inf if highest else -np.inf
    return dt.type(complex(end, end) if dt.kind == "c" else end)  # type: ignore[call-overload,no-any-return]


def _is_ml_float(dt: np.dtype) -> bool:
    """Whether ``dt`` is one of ``ml_dtypes``' floats (bfloat16, float8_*,
    float4_e2m1fn)."""
    return dt.name == "bfloat16" or dt.name.startswith(("float8_", "float4_"))


def _ml_float_end(dt: np.dtype, highest: bool) -> np.generic:
    """+-inf in an ``ml_dtypes`` float that has infinities, else its largest
    or lowest finite value (as XLA's LowestValue and MaxValue give)."""
    import ml_dtypes

    value = np.array(np.inf if highest else -np.inf, dtype=np.float32).astype(dt)
    if np.isinf(value.astype(np.float32)):
        return value.reshape(-1)[0]  # type: ignore[no-any-return]
    info = ml_dtypes.finfo(dt)  # type: ignore[no-untyped-call]
    return dt.type(info.max if highest else info.min)  # type: ignore[no-any-return]


# -- moving elements ---------------------------------------------------------
def _move(
    src: np.ndarray,
    src_axes: tuple[relayout_plan.Axis, ...] | None,
    dst: np.ndarray,
    dst_axes: tuple[relayout_plan.Axis, ...] | None,
    shape: Shape,
    threads: int | None,
) -> bool:
    """Every element from ``src`` to ``dst`` (each read as its axes) by the
    compiled mover; False, moving nothing, where there is no plan."""
    if shape.element_count == 0:
        return True
    if src_axes is None or dst_axes is None or dst.itemsize not in (1, 2, 4, 8):
        return False
    plan = relayout_plan.plan(shape.dimensions, src_axes, dst_axes)
    if plan is None:
        return False
    plan.run(src, dst, threads)
    return True


def _fill(buffer: np.ndarray, shape: Shape, fill: np.generic | None, threads: int | None) -> None:
    """Write ``fill`` into every padding position of ``buffer`` (a linear
    buffer of ``shape``, unpacked), touching no element position. Nothing
    for a ``None`` fill or a shape without padding."""
    if fill is None or shape.buffer_size == shape.element_count:
        return
    axes = relayout_plan.shape_axes(shape, buffer.itemsize)
    if axes is not None and buffer.itemsize in (1, 2, 4, 8):
        plan = relayout_plan.fill_plan(shape.dimensions, axes)
        if plan is not None:
            plan.run(np.array([fill], dtype=buffer.dtype), buffer, threads)
        return
    padding = np.ones(shape.buffer_size, dtype=bool)
    padding[packing.element_offsets(shape)] = False
    buffer[padding] = fill


def _unpacked(buffer: np.ndarray, shape: Shape) -> np.ndarray:
    """A linear buffer of ``shape`` with one element per item: ``buffer``
    itself, or its packed elements unpacked into a new array."""
    bits = packing.packed_bits(shape)
    if not bits:
        return buffer
    return packing.unpack(buffer, bits, shape.buffer_size, _numpy_dtype(shape))


def _write(
    elements: np.ndarray,
    elements_axes: tuple[relayout_plan.Axis, ...] | None,
    read: Callable[[], np.ndarray],
    shape: Shape,
    out: np.ndarray | None,
    threads: int | None,
) -> np.ndarray:
    """The linear buffer of ``shape`` (``out`` if given, checked by the
    caller) holding ``elements`` (read as ``elements_axes``; where the
    compiled mover has no plan, ``read()`` gives them in row-major order),
    its padding filled per the padding value, or left as ``out`` had it."""
    dtype = _numpy_dtype(shape)
    fill = padding_fill_value(shape.layout.padding_value, dtype)
    limits = packing.sub_byte_range(shape.element_type)
    if limits is not None and shape.layout.padding_value in (PaddingValue.LOWEST_PAD, PaddingValue.HIGHEST_PAD):
        fill = dtype.type(limits[shape.layout.padding_value == PaddingValue.HIGHEST_PAD])  # s4: -8, 7
    if out is None and fill is None:
        fill = dtype.type(0)  # unspecified padding of a new buffer: 0, not whatever was there
    bits = packing.packed_bits(shape)
    if out is None:
        target = np.zeros(shape.buffer_size, dtype) if bits else _relayout.empty((shape.buffer_size,), dtype)
    else:
        target = _unpacked(out, shape).copy() if bits else out
    _fill(target, shape, fill, threads)
    axes = relayout_plan.shape_axes(shape, target.itemsize)
    if not _move(elements, elements_axes, target, axes, shape, threads):
        target[packing.element_offsets(shape)] = read()
    if not bits:
        return target
    packed = packing.pack(target, bits)
    if out is None:
        return packed
    out[...] = packed
    return out


# -- checks ----------------------------------------------------------------
def _numpy_dtype(shape: Shape) -> np.dtype:
    """The NumPy dtype of the shape's elements (int8 or uint8 for sub-byte
    integers, ``ml_dtypes``' for bf16 and the narrow floats); TypeError if it
    has none."""
    dtype = packing.storage_dtype(shape.element_type)
    if dtype is None:
        hint = "; install ml_dtypes for it" if shape.element_type.byte_size else ""
        raise TypeError(
            f"element type {shape.element_type.text} of shape {shape} has no NumPy "
            f"dtype, so its buffers cannot be NumPy arrays{hint}"
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
    narrow = packing.ml_dtype(shape.element_type)
    if narrow is not None and source.dtype == narrow != dtype:
        return source.astype(dtype)  # ml_dtypes' int4 and the like, held in int8 / uint8
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
    >>> shape = xs.Shape("s32", (2, 3), xs.Layout((0, 1), (3, 5)))
    >>> xs.view_linear(np.arange(15, dtype=np.int32), shape)
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


def from_linear(
    buffer: np.ndarray,
    shape: Shape | str,
    *,
    out: np.ndarray | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """The logical array stored in a linear buffer, as a C-ordered array.

    Takes the same buffers as :func:`view_linear`; the result shares no
    memory with ``buffer``. ``out``, if given, must be a writable,
    C-contiguous array of the shape's dimensions and dtype (the one
    :func:`to_linear` takes for the shape), apart from ``buffer``; it is
    filled and returned.

    Parameters
    ----------
    buffer : numpy.ndarray
        The linear buffer.
    shape : Shape
        How the elements lie in it.
    out : numpy.ndarray, optional
        A writable, C-contiguous array of the shape's dimensions and dtype
        to fill and return.
    threads : int, optional
        Threads to split large buffers over (None: the default, see
        ``xlashape.set_default_threads``).

    Returns
    -------
    numpy.ndarray
        A C-ordered array with the shape's dimensions, new or ``out``.
        Padding is never read into it.

    Raises
    ------
    ValueError, TypeError
        For a buffer of the wrong size, dtype, rank or contiguity, or an
        ``out`` of the wrong shape or dtype, read-only, not C-contiguous, or
        sharing memory with ``buffer``.

    Examples
    --------
    >>> shape = xs.Shape("f32", (2, 2), xs.Layout((0, 1)))
    >>> a = xs.from_linear(np.array([1, 2, 3, 4], dtype=np.float32), shape)
    >>> a, a.flags.c_contiguous
    (array([[1., 3.],
           [2., 4.]], dtype=float32), True)

    Into an array you own, reused across calls:

    >>> mine = np.empty((2, 2), dtype=np.float32)
    >>> xs.from_linear(np.array([5, 6, 7, 8], dtype=np.float32), shape, out=mine) is mine
    True
    >>> mine
    array([[5., 7.],
           [6., 8.]], dtype=float32)
    """
    shape = require_shape(shape)
    data = _unpacked(_check_buffer(buffer, shape, "buffer"), shape)
    if out is None:
        result = _relayout.empty(shape.dimensions, data.dtype)
    else:
        result = _batch.check_out(out, shape.dimensions, (buffer,), dtype=data.dtype, contiguous=True)
    axes = relayout_plan.shape_axes(shape, data.itemsize)
    if not _move(data, axes, result, relayout_plan.array_axes(result), shape, threads):
        result[...] = data[packing.element_offsets(shape)].reshape(shape.dimensions)
    return result


def to_linear(
    array: np.typing.ArrayLike,
    shape: Shape | str,
    *,
    out: np.ndarray | None = None,
    casting: Casting = "equiv",
    threads: int | None = None,
) -> np.ndarray:
    """The linear buffer holding ``array`` laid out as ``shape`` says.

    Returns a 1-D array of ``shape.buffer_size`` elements of the shape's
    element type, each element of ``array`` at its layout offset. Padding
    holds what the layout's ``padding_value`` says (see
    :func:`padding_fill_value`); for INVALID_PAD and UNKNOWN_PAD it is 0 in
    a new buffer and left untouched in ``out``.

    Element types NumPy lacks take ``ml_dtypes``' dtypes where it is
    installed (bfloat16, float8_*, float4_e2m1fn); sub-byte integers are
    held one per int8 or uint8 (``ml_dtypes``' int4 and the like are
    accepted too), and packed into bytes where the layout says
    ``element_size_in_bits`` (see :mod:`xlashape.linear.packing`).

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
    threads : int, optional
        Threads to split large buffers over (None: the default).

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

    >>> shape = xs.Shape("s32", (2, 3), xs.Layout((0, 1), (3, 5), xs.PaddingValue.ZERO_PAD))
    >>> xs.to_linear([[1, 2, 3], [4, 5, 6]], shape, casting="same_kind")
    array([1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0], dtype=int32)
    """
    shape = require_shape(shape)
    dtype = _numpy_dtype(shape)
    source = _as_source(array, shape, dtype, casting)
    packing.check_range(source, shape.element_type)
    target = None if out is None else _check_out(out, shape, source)
    if source.dtype != dtype:
        source = source.astype(dtype, casting=casting)
    return _write(
        source, relayout_plan.array_axes(source), lambda: source.reshape(-1), shape, target, threads
    )


def relayout(
    buffer: np.ndarray,
    from_shape: Shape | str,
    to_shape: Shape | str,
    out: np.ndarray | None = None,
    *,
    threads: int | None = None,
) -> np.ndarray:
    """The linear buffer of ``to_shape`` holding the elements of ``buffer``,
    a linear buffer of ``from_shape``: the same array in another layout.

    The two shapes must have the same dimensions and element type; their
    layouts (permutation, padding, tiles, packing of sub-byte elements) may
    differ in every way. The padding of the result holds what
    ``to_shape``'s padding value says; for INVALID_PAD and UNKNOWN_PAD it is
    0 in a new buffer, untouched in ``out``. Padding of
    ``buffer`` is never read. Equal to ``to_linear(from_linear(buffer,
    from_shape), to_shape)`` without the array between.

    Parameters
    ----------
    buffer : numpy.ndarray
        A linear buffer of ``from_shape`` (see :func:`view_linear`).
    from_shape, to_shape : Shape
        The layout the elements are in, and the one they are moved to.
    out : numpy.ndarray, optional
        A writable linear buffer of ``to_shape``, apart from ``buffer``.
    threads : int, optional
        Threads to split large buffers over (None: the default).

    Returns
    -------
    numpy.ndarray
        The linear buffer of ``to_shape``; ``out`` if given.

    Raises
    ------
    ValueError
        For shapes of other dimensions, or a buffer of the wrong size.
    TypeError
        For shapes of other element types, or a buffer of the wrong dtype.

    Examples
    --------
    >>> row_major = xs.ShapeUtil.parse_shape_string("s32[2,3]{1,0}")
    >>> column_major = xs.ShapeUtil.parse_shape_string("s32[2,3]{0,1}")
    >>> xs.relayout(np.arange(6, dtype=np.int32), row_major, column_major)
    array([0, 3, 1, 4, 2, 5], dtype=int32)
    """
    source_shape, shape = require_shape(from_shape), require_shape(to_shape)
    if source_shape.dimensions != shape.dimensions:
        raise ValueError(
            f"relayout keeps the dimensions: from_shape {source_shape} has "
            f"{source_shape.dimensions}, to_shape {shape} has {shape.dimensions}"
        )
    if source_shape.element_type != shape.element_type:
        raise TypeError(
            f"relayout keeps the element type: from_shape {source_shape} holds "
            f"{source_shape.element_type.text}, to_shape {shape} holds {shape.element_type.text}"
        )
    data = _check_buffer(buffer, source_shape, "buffer")
    target = None if out is None else _check_out(out, shape, data)
    data = _unpacked(data, source_shape)
    axes = relayout_plan.shape_axes(source_shape, data.itemsize)
    return _write(
        data, axes, lambda: data[packing.element_offsets(source_shape)], shape, target, threads
    )
