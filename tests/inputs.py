"""The one generator of test inputs: every form a batch of indices can take.

``index_arrays`` yields ``(label, value)`` pairs holding the same integers in
every form worth checking: C, Fortran and non-contiguous arrays, every
integer dtype, byte-swapped and read-only arrays, lists and tuples. Tests
compare each against the oracle.
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


def index_arrays(values: np.ndarray) -> Iterator[tuple[str, object]]:
    """``values`` (an int64 array of any shape) in every form and dtype that
    can hold it exactly. The caller's array is never returned itself."""
    values = np.asarray(values, dtype=np.int64)
    for dtype in DTYPES:
        if not fits(values, dtype):
            continue
        name = np.dtype(dtype).char if dtype in LONGLONG else np.dtype(dtype).name
        for order in ORDERS:
            yield f"{name}-{order}", np.array(values, dtype=dtype, order=order)
        swapped = values.astype(np.dtype(dtype).newbyteorder("S"))
        yield f"{name}-byteswapped", swapped
        readonly = values.astype(dtype)
        readonly.flags.writeable = False
        yield f"{name}-readonly", readonly
        if values.ndim >= 1:
            # Every other element of a twice-as-long array: not contiguous.
            wide = np.zeros(values.shape[:-1] + (2 * values.shape[-1],), dtype=dtype)
            wide[..., ::2] = values
            yield f"{name}-strided", wide[..., ::2]
        if values.ndim == 2:
            # The transpose of a C array: Fortran-ordered with swapped roles.
            yield f"{name}-transposed", np.ascontiguousarray(values.T.astype(dtype)).T
    yield "list", values.tolist()
    if values.ndim >= 1:
        yield "tuple", tuple(values.tolist())
