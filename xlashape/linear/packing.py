"""Buffers of tiled layouts and of packed sub-byte elements.

A tiled layout places elements by its tiles (``xlashape.ravel`` gives each
element's offset); ``element_size_in_bits`` below 8 packs several elements
into each byte, the first in the high-order bits, the last byte's unused
low bits 0. This follows ``PackIntN`` and ``UnpackIntN`` in XLA's
``xla/util.h`` as of openxla/xla commit 1507e18f (checked in November
2026): they pack 2- and 4-bit elements so, and these pack 1-bit elements
(pred, s1, u1) the same way. :mod:`xlashape.linear.buffers` checks its arguments
and calls these for such shapes.

Element types NumPy lacks (bf16, the f8 family, f4e2m1fn) take the dtypes
of ``ml_dtypes`` where it is installed (``pip install ml_dtypes``, or the
``jax`` extra); sub-byte integers keep one element per int8 or uint8, and
``ml_dtypes``' int4, uint4, int2 and uint2 arrays are accepted as input.
"""

from __future__ import annotations

import functools
import types

import numpy as np

from ..model.primitive_type import PrimitiveType
from ..shapes import convert
from ..shapes.shape import Shape

__all__ = [
    "element_offsets",
    "ml_dtype",
    "pack",
    "storage_dtype",
    "sub_byte_range",
    "unpack",
    "view_strides",
]

# Sub-byte integers have no NumPy dtype: one per byte, in these.
_SUB_BYTE_STORAGE = {
    PrimitiveType.S1: np.dtype(np.int8),
    PrimitiveType.S2: np.dtype(np.int8),
    PrimitiveType.S4: np.dtype(np.int8),
    PrimitiveType.U1: np.dtype(np.uint8),
    PrimitiveType.U2: np.dtype(np.uint8),
    PrimitiveType.U4: np.dtype(np.uint8),
}


# Types that a layout may pack below a byte, beside the sub-byte integers.
_PACKABLE = frozenset(_SUB_BYTE_STORAGE) | {PrimitiveType.F4E2M1FN}


def ml_dtype(element_type: PrimitiveType) -> np.dtype | None:
    """The ``ml_dtypes`` dtype of ``element_type`` (bfloat16 for BF16,
    float8_e4m3fn for F8E4M3FN, int4 for S4...), or None where ``ml_dtypes``
    is not installed or has none."""
    try:
        import ml_dtypes
    except ImportError:
        return None
    return _ml_dtype_of(ml_dtypes, element_type)


@functools.cache
def _ml_dtype_of(module: types.ModuleType, element_type: PrimitiveType) -> np.dtype | None:
    """``ml_dtype`` once ``ml_dtypes`` is imported as ``module``: worked out
    once a type (about 2 us), where the import check costs a dictionary
    look-up."""
    name = element_type.name.lower()
    if element_type == PrimitiveType.BF16:
        name = "bfloat16"
    elif name[:2] in ("f8", "f4"):
        name = f"float{name[1]}_{name[2:]}"
    elif name[0] in "su" and name[1:].isdigit():
        name = ("u" if name[0] == "u" else "") + "int" + name[1:]
    found = getattr(module, name, None)
    return None if found is None else np.dtype(found)


def storage_dtype(element_type: PrimitiveType) -> np.dtype | None:
    """The NumPy dtype that holds one element: the type's own, int8 / uint8
    for the sub-byte integers, or the ``ml_dtypes`` dtype of a type NumPy
    lacks; None where there is none."""
    if element_type in _SUB_BYTE_STORAGE:
        return _SUB_BYTE_STORAGE[element_type]
    return element_type.numpy_dtype or ml_dtype(element_type)


def packed_bits(shape: Shape) -> int:
    """Bits per element when the layout packs several into a byte, else 0.
    ValueError for an element size no byte-aligned buffer holds."""
    bits = shape.layout.element_size_in_bits
    size = shape.element_type.byte_size
    assert size is not None
    if not bits or bits == 8 * size:
        return 0
    etype = shape.element_type
    width = 1 if etype == PrimitiveType.PRED else etype.bit_width if etype in _PACKABLE else None
    if bits in (1, 2, 4) and width is not None and bits >= width:
        return bits
    raise ValueError(
        f"shape {shape} stores {shape.element_type} elements in {bits} bits; buffers "
        "pack only sub-byte integers, f4e2m1fn and pred into 1, 2 or 4 bits, at least their width"
    )


def sub_byte_range(element_type: PrimitiveType) -> tuple[int, int] | None:
    """The lowest and highest value of a sub-byte integer type (-8 and 7
    for S4); None for other types."""
    width = element_type.bit_width
    if element_type not in _SUB_BYTE_STORAGE or width is None:
        return None
    if element_type.name.startswith("S"):
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def check_range(values: np.ndarray, element_type: PrimitiveType) -> None:
    """ValueError unless every value fits a sub-byte integer type."""
    limits = sub_byte_range(element_type)
    if limits is None or values.size == 0:
        return
    low, high = limits
    bad = np.flatnonzero((values < low) | (values > high))
    if bad.size:
        position = np.unravel_index(bad[0], values.shape)
        raise ValueError(
            f"value {values.flat[bad[0]]} at {tuple(int(p) for p in position)} does not fit "
            f"{element_type} (expected {low} to {high})"
        )


def element_offsets(shape: Shape) -> np.ndarray:
    """The buffer offset of every element, in row-major order."""
    if shape.rank == 0:
        return convert.ravel(np.zeros((1, 0), dtype=np.int64), shape)
    index = np.indices(shape.dimensions).reshape(shape.rank, -1).T
    return convert.ravel(np.ascontiguousarray(index), shape)


def pack(values: np.ndarray, bits: int) -> np.ndarray:
    """Elements (one per byte) packed ``8 // bits`` to a byte, the first in
    the high-order bits; the last byte's unused bits are 0."""
    per = 8 // bits
    count = -(-values.size // per) * per
    lanes = np.zeros(count, dtype=np.uint8)
    lanes[: values.size] = values.view(np.uint8) & ((1 << bits) - 1)
    shifts = (bits * np.arange(per - 1, -1, -1)).astype(np.uint8)
    packed: np.ndarray = np.bitwise_or.reduce(lanes.reshape(-1, per) << shifts, axis=1)
    return packed.astype(np.uint8)


def unpack(data: np.ndarray, bits: int, count: int, dtype: np.dtype) -> np.ndarray:
    """The first ``count`` elements packed in ``data``, sign-extended for a
    signed ``dtype``; the bits themselves for a float ``dtype`` (f4e2m1fn)."""
    per = 8 // bits
    shifts = (bits * np.arange(per - 1, -1, -1)).astype(np.uint8)
    lanes = ((data[:, None] >> shifts) & ((1 << bits) - 1)).reshape(-1)[:count]
    if dtype.kind == "i":
        signed = lanes.astype(np.int8)
        result: np.ndarray = np.where(signed >= 1 << (bits - 1), signed - (1 << bits), signed)
        return result.astype(dtype)
    if dtype.kind not in "ub":
        return lanes.astype(np.uint8).view(dtype)
    return lanes.astype(dtype)


def view_strides(shape: Shape) -> tuple[int, ...] | None:
    """Element strides that place every element of a tiled shape where its
    tiles do, or None where no strides can: a view exists when each
    dimension spans one axis of the tiled array, unsplit."""
    plan = shape._plan
    form = getattr(plan, "digits", None)
    if form is None:
        return None
    strides = [0] * shape.rank
    for number, group in enumerate(form.groups):
        spans = [
            (axis, stride)
            for axis, stride in zip(form.axes, form.strides)
            if axis.group == number and axis.extent > 1
        ]
        if not spans:
            continue
        if len(group.dimensions) != 1 or len(spans) != 1 or spans[0][0].divisor != 1:
            return None
        strides[group.dimensions[0]] = spans[0][1]
    return tuple(strides)
