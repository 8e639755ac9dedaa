"""A plain numba loop, the optional peer in the benchmarks."""

import numpy as np

try:
    import numba
except ImportError:  # the benchmarks skip this peer
    numba = None


def _ravel(rows, strides, extents, out):
    for i in range(rows.shape[0]):
        acc = 0
        for j in range(rows.shape[1]):
            v = rows[i, j]
            if v < 0 or v >= extents[j]:
                raise IndexError("index out of bounds")
            acc += v * strides[j]
        out[i] = acc
    return out


def _unravel(offsets, order, widths, extents, out):
    for i in range(offsets.shape[0]):
        n = offsets[i]
        for k in range(order.shape[0]):
            d = order[k]
            r = n % widths[k]
            if r >= extents[k]:
                raise IndexError("offset on padding")
            out[i, d] = r
            n //= widths[k]
    return out


if numba is not None:
    _ravel = numba.njit(nogil=True, cache=False)(_ravel)
    _unravel = numba.njit(nogil=True, cache=False)(_unravel)


def ravel_call(shape, rows, out):
    strides = np.array(shape.strides, dtype=np.int64)
    extents = np.array(shape.dimensions, dtype=np.int64)
    return lambda: _ravel(rows, strides, extents, out)


def unravel_call(shape, offsets, out):
    order = np.array(shape.layout.minor_to_major, dtype=np.int64)
    widths = np.array([shape.padded_dimensions[d] for d in order], dtype=np.int64)
    extents = np.array([shape.dimensions[d] for d in order], dtype=np.int64)
    return lambda: _unravel(offsets, order, widths, extents, out)
