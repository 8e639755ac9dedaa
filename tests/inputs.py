"""The one generator of test inputs: every form a batch of indices can take.

``array_forms`` yields one array in every memory form worth checking (C,
Fortran, strided, byte-swapped, read-only); ``index_arrays`` yields
``(label, value)`` pairs holding the same integers in each of those forms
for every integer dtype, and as lists and tuples; ``buffer_forms`` yields
1-D integers as objects that export them through the buffer protocol
(``array.array``, ctypes arrays, memoryviews). Tests compare each against
the oracle.
"""

from __future__ import annotations

import array
import ctypes
from collections.abc import Iterator, Sequence

import numpy as np

SIGNED = (np.int8, np.int16, np.int32, np.int64)
UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)
# C's long long: 64 bits like int64, but a type of its own where int64 is long.
LONGLONG = (np.longlong, np.ulonglong)
DTYPES = SIGNED + UNSIGNED + LONGLONG
ORDERS = ("C", "F")


def fits(values: np.ndarray, dtype: type) -> bool:
    """Whether every value is representable in ``dtype``."""
    info = np.iinfo(dtype)
    return values.size == 0 or (int(values.min()) >= info.min and int(values.max()) <= info.max)


def array_forms(values: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """``values`` as C, Fortran, strided (every other element of a wider
    array), byte-swapped and read-only arrays of its own dtype, all holding
    the same elements; never ``values`` itself."""
    yield "C", values.copy()
    yield "F", np.asfortranarray(values)
    if values.ndim:
        wide = np.zeros(values.shape[:-1] + (2 * values.shape[-1],), dtype=values.dtype)
        wide[..., ::2] = values
        yield "strided", wide[..., ::2]
    yield "byteswapped", values.astype(values.dtype.newbyteorder("S"))
    readonly = values.copy()
    readonly.flags.writeable = False
    yield "readonly", readonly


def index_arrays(values: np.ndarray) -> Iterator[tuple[str, object]]:
    """``values`` (an int64 array of any shape) in every form of
    :func:`array_forms` and every dtype that can hold it exactly, plus the
    transpose of a C array for 2-D values, and as a list and a tuple."""
    values = np.asarray(values, dtype=np.int64)
    for dtype in DTYPES:
        if not fits(values, dtype):
            continue
        name = np.dtype(dtype).char if dtype in LONGLONG else np.dtype(dtype).name
        typed = values.astype(dtype)
        for label, form in array_forms(typed):
            yield f"{name}-{label}", form
        if values.ndim == 2:
            # The transpose of a C array: Fortran-ordered with swapped roles.
            yield f"{name}-transposed", np.ascontiguousarray(typed.T).T
    yield "list", values.tolist()
    if values.ndim >= 1:
        yield "tuple", tuple(values.tolist())


# ctypes' integers by NumPy dtype: their arrays export formats such as '<q'.
CTYPES = {
    np.int8: ctypes.c_int8, np.uint8: ctypes.c_uint8, np.int16: ctypes.c_int16,
    np.uint16: ctypes.c_uint16, np.int32: ctypes.c_int32, np.uint32: ctypes.c_uint32,
    np.int64: ctypes.c_int64, np.uint64: ctypes.c_uint64,
}
# Forms of buffer_forms that are not 1-D, aligned, native integers.
UNUSUAL_BUFFERS = ("big-endian", "unaligned", "float64")


def buffer_forms(values: Sequence[int]) -> Iterator[tuple[str, object]]:
    """The integers ``values`` as 1-D buffer exporters other than arrays:
    an ``array.array`` of every type code that holds them, a memoryview of
    one and a strided one, a ctypes array of every integer type that holds
    them; and the forms of ``UNUSUAL_BUFFERS``: a big-endian ctypes array,
    an unaligned memoryview and a float ``array.array``."""
    values = list(values)
    as_array = np.array(values, dtype=np.int64)
    for code in "bBhHiIlLqQ":
        if fits(as_array, np.dtype(code).type):
            yield f"array-{code}", array.array(code, values)
    yield "memoryview", memoryview(array.array("q", values))
    yield "strided", memoryview(array.array("q", [v for v in values for _ in (0, 1)]))[::2]
    for dtype, ctype in CTYPES.items():
        if fits(as_array, dtype):
            yield f"ctypes-{np.dtype(dtype).name}", (ctype * len(values))(*values)
    yield "big-endian", (ctypes.c_int64.__ctype_be__ * len(values))(*values)  # type: ignore[attr-defined]
    raw = bytearray(1) + array.array("q", values).tobytes()
    yield "unaligned", memoryview(raw)[1:].cast("q")
    yield "float64", array.array("d", values)


def buffer_at(shape: tuple[int, ...], dtype: type, offset: int) -> np.ndarray:
    """A C-contiguous array whose data starts ``offset`` bytes past a 64-byte
    boundary (an ``out=`` buffer of any alignment), its bytes set to 0xA5
    (so its pages are in memory, as those of a buffer used before)."""
    itemsize = np.dtype(dtype).itemsize
    nbytes = int(np.prod(shape)) * itemsize
    raw = np.full(nbytes + 128, 0xA5, dtype=np.uint8)
    first = -raw.ctypes.data % 64 + offset
    return raw[first:first + nbytes].view(dtype).reshape(shape)
