"""The one generator of test inputs: every form a batch of indices can take.

``array_forms`` yields one array in every memory form worth checking (C,
Fortran, strided, byte-swapped, read-only); ``index_arrays`` yields
``(label, value)`` pairs holding the same integers in each of those forms
for every integer dtype, and as lists and tuples. Tests compare each
against the oracle.
"""

from __future__ import annotations

from collections.abc import Iterator

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


def buffer_at(shape: tuple[int, ...], dtype: type, offset: int) -> np.ndarray:
    """A C-contiguous array whose data starts ``offset`` bytes past a 64-byte
    boundary (an ``out=`` buffer of any alignment), its bytes set to 0xA5
    (so its pages are in memory, as those of a buffer used before)."""
    itemsize = np.dtype(dtype).itemsize
    nbytes = int(np.prod(shape)) * itemsize
    raw = np.full(nbytes + 128, 0xA5, dtype=np.uint8)
    first = -raw.ctypes.data % 64 + offset
    return raw[first:first + nbytes].view(dtype).reshape(shape)
